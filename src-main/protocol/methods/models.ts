import { method } from './define.js';

// Methods of the `models` namespace. Filled in by the capability that owns them.
void method;
export const modelsMethods = {};
