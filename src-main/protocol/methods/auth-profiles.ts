import { method } from './define.js';

// Methods of the `auth-profiles` namespace. Filled in by the capability that owns them.
void method;
export const authProfilesMethods = {};
