export { BrowserError } from './address-check.js';
export { type AskBrowserAction, askThroughApprovals, type BrowserActionQuestion } from './browser-approval.js';
export { type BrowserToolsConfig, browserToolsConfigSchema } from './browser-config.js';
export { chooseExecutable, systemChromiumPaths } from './browser-executable.js';
export { BrowserSession, type SavedDownload } from './browser-session.js';
export { BrowserSessions, type BrowserSessionsDeps } from './browser-sessions.js';
export { BROWSER_TOOL_NAME, type BrowserInput, browserActions, createBrowserTool } from './browser-tool.js';
