export type { RuntimeServices } from '../agent/runtime/runtime-services.js';
export { parseModelRef } from '../providers/index.js';
