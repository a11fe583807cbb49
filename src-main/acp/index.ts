export { type AcpClientPort, type AcpPromptInput, runAcpPrompt } from './acp-prompt.js';
export { createHearthAcpAgent, type HearthAcpAgentOptions } from './hearth-acp-agent.js';
export { decisionOf, permissionOptionsFor } from './permission-options.js';
export { PromptContentError, promptText } from './prompt-text.js';
export { toolCallUpdateOf, toolKindOf, toolTitleOf } from './tool-call-report.js';
