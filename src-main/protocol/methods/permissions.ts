import { z } from 'zod';
import { method } from './define.js';

/** One "allow always" rule as the Permissions view lists it (state/permissions.json). */
export interface PermissionRuleView {
  id: string;
  kind: 'exec' | 'mcp' | 'file' | 'network';
  /** exec: `binary` | `exact` | `folder`; tools: `tool` | `server` | `exact`. */
  scope: 'binary' | 'exact' | 'folder' | 'tool' | 'server';
  /** Absent: every agent. */
  agentId?: string;
  tool?: string;
  server?: string;
  /** scope `exact` of a tool: the arguments (MCP input JSON, file path). */
  args?: string;
  /** exec: the allowlist entry. */
  pattern?: string;
  argPattern?: string;
  /** exec, scope `folder`: only when the command runs in this folder or below it. */
  cwdWithin?: string;
  /** Who answered "always": `operator:<client>`, `prompter:<name>`, `chat:<client>`, `imported:<file>`. */
  origin: string;
  /** The request that made it. */
  example?: string;
  addedAtMs: number;
  expiresAtMs?: number;
}

/** One "allow for this session" grant: gone when the host stops. */
export interface SessionGrantView {
  id: string;
  agentId: string;
  sessionKey: string;
  kind: 'exec' | 'mcp' | 'file' | 'network';
  tool: string;
  args?: string;
  origin: string;
  grantedAtMs: number;
}

export interface PermissionsListResult {
  rules: PermissionRuleView[];
  session: SessionGrantView[];
}

export const permissionsMethods = {
  'permissions.list': method<PermissionsListResult>()({
    scope: 'operator.read',
    params: () => z.object({}).strict(),
  }),
  /** The rule (or session grant) stops applying now; an unknown id is NOT_FOUND, reason PERMISSION_NOT_FOUND. */
  'permissions.revoke': method<{ revoked: PermissionRuleView | SessionGrantView }>()({
    scope: 'operator.approvals',
    controlPlaneWrite: true,
    params: () => z.object({ id: z.string().min(1, 'id must not be empty').max(128) }).strict(),
  }),
};
