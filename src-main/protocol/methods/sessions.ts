import { method } from './define.js';

// Methods of the `sessions` namespace. Filled in by the capability that owns them.
void method;
export const sessionsMethods = {};
