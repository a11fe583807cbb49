import { method } from './define.js';

// Methods of the `canvas` namespace. Filled in by the capability that owns them.
void method;
export const canvasMethods = {};
