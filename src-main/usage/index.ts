export { meterLanguageModel } from './metered-model.js';
export { builtinModelPrices, costOf, priceOf } from './model-prices.js';
export {
  defaultBackgroundLimits,
  type ModelPrice,
  parseUsageConfig,
  type UsageConfig,
  usageConfigSchema,
} from './usage-config.js';
export { UsageLedger, type UsageRecord } from './usage-ledger.js';
export { type MeteredCall, UsageMeter, type UsageMeterDeps } from './usage-meter.js';
export {
  createUsageService,
  limitPatch,
  type SetLimitInput,
  type TurnUsageScope,
  type UsageService,
  type UsageServiceDeps,
} from './usage-service.js';
export { summarizeUsage, type UsageSummaryOptions } from './usage-summary.js';
export { currentUsageTag, type UsageTag, withUsageTag } from './usage-tag.js';
