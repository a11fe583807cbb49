// The gateway bindings of every capability, gathered so the composition root can load
// them in one dynamic import after the gateway is already listening.
export { registerAgentMethods } from '../gateway/methods/agent.js';
export { registerAuthProfilesMethods } from '../gateway/methods/auth-profiles.js';
export { registerChatMethods } from '../gateway/methods/chat.js';
export { registerDreamsMethods } from '../gateway/methods/dreams.js';
export { registerExecMethods } from '../gateway/methods/exec.js';
export { registerMemoryMethods, registerMemoryModelMethods } from '../gateway/methods/memory.js';
export { registerModelsMethods } from '../gateway/methods/models.js';
export { registerSessionsMethods } from '../gateway/methods/sessions.js';
export { registerTerminalMethods } from '../gateway/methods/terminal.js';
export { registerTraceMethods } from '../gateway/methods/trace.js';
