import { method } from './define.js';

// Methods of the `exec` namespace. Filled in by the capability that owns them.
void method;
export const execMethods = {};
