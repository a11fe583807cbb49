import type { z } from 'zod';
import { agentMethods } from './methods/agent.js';
import { agentsAdminMethods } from './methods/agents-admin.js';
import { authProfilesMethods } from './methods/auth-profiles.js';
import { canvasMethods } from './methods/canvas.js';
import { channelsMethods } from './methods/channels.js';
import { chatMethods } from './methods/chat.js';
import { configMethods } from './methods/config.js';
import { cronMethods } from './methods/cron.js';
import type { MethodSpec } from './methods/define.js';
import { devicesMethods } from './methods/devices.js';
import { dreamsMethods } from './methods/dreams.js';
import { execMethods } from './methods/exec.js';
import { gatewayMethods } from './methods/gateway.js';
import { importMethods } from './methods/import.js';
import { mcpMethods } from './methods/mcp.js';
import { memoryMethods } from './methods/memory.js';
import { modelsMethods } from './methods/models.js';
import { openClawAgentsMethods } from './methods/openclaw-agents.js';
import { openClawChatMethods } from './methods/openclaw-chat.js';
import { openClawSystemMethods } from './methods/openclaw-system.js';
import { openClawUnavailableMethods } from './methods/openclaw-unavailable.js';
import { permissionsMethods } from './methods/permissions.js';
import { providersMethods } from './methods/providers.js';
import { sessionsMethods } from './methods/sessions.js';
import { skillsMethods } from './methods/skills.js';
import { subagentsMethods } from './methods/subagents.js';
import { terminalMethods } from './methods/terminal.js';
import { tokensMethods } from './methods/tokens.js';
import { traceMethods } from './methods/trace.js';
import { usageMethods } from './methods/usage.js';

/** Every method of the wire, one table; both ends type themselves from it. */
export const methodTable = {
  ...gatewayMethods,
  ...configMethods,
  ...chatMethods,
  ...sessionsMethods,
  ...agentMethods,
  ...agentsAdminMethods,
  ...modelsMethods,
  ...authProfilesMethods,
  ...providersMethods,
  ...execMethods,
  ...permissionsMethods,
  ...terminalMethods,
  ...memoryMethods,
  ...mcpMethods,
  ...dreamsMethods,
  ...cronMethods,
  ...subagentsMethods,
  ...devicesMethods,
  ...canvasMethods,
  ...traceMethods,
  ...channelsMethods,
  ...usageMethods,
  ...tokensMethods,
  ...skillsMethods,
  ...importMethods,
  // What OpenClaw's own clients call (docs/GATEWAY.md "OpenClaw clients").
  ...openClawChatMethods,
  ...openClawAgentsMethods,
  ...openClawSystemMethods,
  ...openClawUnavailableMethods,
} satisfies Record<string, MethodSpec>;

export type MethodTable = typeof methodTable;
export type MethodName = keyof MethodTable;
export type MethodParams<M extends MethodName> = z.input<MethodTable[M]['params']>;
export type MethodParsedParams<M extends MethodName> = z.output<MethodTable[M]['params']>;
export type MethodResult<M extends MethodName> = MethodTable[M] extends MethodSpec<z.ZodType, infer R> ? R : never;

export function isMethodName(name: string): name is MethodName {
  return Object.hasOwn(methodTable, name);
}
