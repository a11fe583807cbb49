import { method } from './define.js';

// Methods of the `trace` namespace. Filled in by the capability that owns them.
void method;
export const traceMethods = {};
