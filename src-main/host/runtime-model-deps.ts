export type { RuntimeServices } from '../agent/index.js';
export { parseModelRef } from '../providers/index.js';
