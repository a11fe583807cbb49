export { formatImportReport } from './format-report.js';
export { createImportService, type ImportService } from './import-service.js';
export { type DetectedSource, defaultSourceFolder, detectImportSources, readImportSource } from './import-source.js';
export type { ImportTargets } from './import-targets.js';
export {
  countItems,
  type ImportInventory,
  type ImportItem,
  type ImportItemKind,
  type ImportItemStatus,
  type ImportReport,
  type ImportSource,
  importItemKinds,
  importSources,
} from './import-types.js';
export { type OfflineTargets, openOfflineTargets } from './offline-targets.js';
export { type PlannedImport, planImport } from './plan-import.js';
