import { z } from 'zod';
import { method } from './define.js';

/**
 * Creating, editing and removing agents: OpenClaw's `agents.create|update|delete` shapes (its
 * Control UI's Agents page sends them), with Hearth's own fields added (fallbacks, toolProfile,
 * engine, memory scope, exec overrides, bindings), plus `agents.get` and the persona files.
 */
const name = z.string().trim().min(1, 'name must not be empty').max(80, 'name is at most 80 characters');
const workspace = z
  .string()
  .min(1)
  .refine(
    (value) => value.startsWith('/') || value.startsWith('~/'),
    'workspace must be an absolute path or start with ~/',
  );
const modelRef = z.string().trim().min(1, 'model must not be empty (provider/model)');

/** An image avatar: an http(s) address or an image as a data: URL (a picked file, at most ~300 kB). */
const avatar = z
  .string()
  .max(400_000, 'avatar image is too large (at most 300 kB)')
  .refine(
    (value) =>
      value === '' || /^https?:\/\//.test(value) || /^data:image\/(png|jpeg|gif|webp|svg\+xml);base64,/.test(value),
    'avatar must be an http(s) address or a data:image/…;base64 URL ("" clears it)',
  );

/** The agent's engine: Hearth's own model loop, or an agent CLI registered as a backend (docs/AGENT.md). */
export const agentEngineParams = z.union([
  z.literal('hearth'),
  z
    .object({
      cli: z.string().min(1, 'engine.cli names a CLI backend (claude-code, codex)'),
      command: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]).optional(),
      model: z.string().min(1).optional(),
      access: z.enum(['read-only', 'workspace-write']).optional(),
      for: z.enum(['all', 'subagents']).optional(),
    })
    .strict(),
]);

/** What of the exec policy (`tools.exec`) this agent sets for itself; null clears its own policy. */
export const agentExecParams = z
  .object({
    security: z.enum(['deny', 'allowlist', 'full']).optional(),
    ask: z.enum(['off', 'on-miss', 'always']).optional(),
    askFallback: z.enum(['deny', 'allowlist', 'full']).optional(),
  })
  .strict();

/** Which messages this agent answers: a channel, optionally one account, peer or guild of it. */
export const agentBindingParams = z
  .object({
    channel: z.string().trim().min(1, 'a binding needs a channel'),
    accountId: z.string().min(1).optional(),
    peer: z
      .object({ kind: z.enum(['direct', 'group', 'channel']), id: z.string().min(1, 'peer.id must not be empty') })
      .strict()
      .optional(),
    guildId: z.string().min(1).optional(),
  })
  .strict();
export type AgentBindingParams = z.infer<typeof agentBindingParams>;

const settings = {
  workspace: workspace.optional(),
  emoji: z.string().max(16, 'emoji is at most 16 characters').optional(),
  avatar: avatar.optional(),
  fallbacks: z.array(modelRef).max(8, 'at most 8 fallbacks').optional(),
  toolProfile: z.enum(['minimal', 'coding', 'full', 'custom']).optional(),
  engine: agentEngineParams.optional(),
  /** Whose memory a session sees: the agent's one memory, or each person's own; null: `memory.scope`. */
  memoryScope: z.enum(['per-agent', 'per-user']).nullable().optional(),
  exec: agentExecParams.nullable().optional(),
  /** Replaces every binding of this agent (an empty list: none). */
  bindings: z.array(agentBindingParams).max(64, 'at most 64 bindings').optional(),
};

/** One agent as hearth.json keeps it, in the shape the editor shows. */
export interface AgentDetails {
  agentId: string;
  name: string;
  workspace: string;
  emoji?: string;
  avatar?: string;
  /** Its own model; undefined: agents.defaults'. */
  model?: string;
  fallbacks: string[];
  toolProfile?: 'minimal' | 'coding' | 'full' | 'custom';
  engine: 'hearth' | z.infer<typeof agentEngineParams>;
  memoryScope?: 'per-agent' | 'per-user';
  exec?: z.infer<typeof agentExecParams>;
  bindings: AgentBindingParams[];
  isDefault: boolean;
}

/** The workspace files a person edits in the app: who the agent is, and who it talks to. */
export const personaFileNames = ['SOUL.md', 'IDENTITY.md', 'USER.md', 'AGENTS.md', 'TOOLS.md', 'HEARTBEAT.md'] as const;
export type PersonaFileName = (typeof personaFileNames)[number];
const personaFile = z.enum(personaFileNames, {
  error: `file must be one of ${personaFileNames.join(', ')}`,
});

export interface PersonaFileInfo {
  name: PersonaFileName;
  path: string;
  missing: boolean;
  size?: number;
  updatedAtMs?: number;
}

const agentIdParam = z.string().min(1, 'agentId is required');

export const agentsAdminMethods = {
  'agents.create': method<{ ok: true; agentId: string; name: string; workspace: string; model?: string }>()({
    scope: 'operator.admin',
    params: () =>
      z
        .object({
          name,
          /** Hearth's: an explicit id (else one is made from the name). */
          id: z.string().optional(),
          model: modelRef.optional(),
          ...settings,
        })
        .strict(),
    controlPlaneWrite: true,
  }),
  'agents.update': method<{ ok: true; agentId: string }>()({
    scope: 'operator.admin',
    params: () =>
      z
        .object({
          agentId: agentIdParam,
          name: name.optional(),
          /** null clears the agent's own model: it then uses agents.defaults. */
          model: modelRef.nullable().optional(),
          /** OpenClaw's (an exact runtime for a model-only selection): accepted, not used by Hearth. */
          agentRuntime: z.string().optional(),
          ...settings,
        })
        .strict(),
    controlPlaneWrite: true,
  }),
  'agents.delete': method<{
    ok: true;
    agentId: string;
    removedBindings: number;
    removedFiles: string[];
    keptWorkspace?: string;
  }>()({
    scope: 'operator.admin',
    params: () =>
      z
        .object({
          agentId: agentIdParam,
          /** Also delete its sessions and memory, and its workspace when that lies inside HEARTH_HOME. */
          deleteFiles: z.boolean().optional(),
        })
        .strict(),
    controlPlaneWrite: true,
  }),
  /** Hearth's: every setting of one agent, for the editor. */
  'agents.get': method<AgentDetails>()({
    scope: 'operator.read',
    params: () => z.object({ agentId: agentIdParam }).strict(),
  }),
  /** OpenClaw's: the agent's persona files in its workspace. */
  'agents.files.list': method<{ agentId: string; workspace: string; files: PersonaFileInfo[] }>()({
    scope: 'operator.read',
    params: () => z.object({ agentId: agentIdParam }).strict(),
  }),
  'agents.files.get': method<{ agentId: string; workspace: string; file: PersonaFileInfo & { content: string } }>()({
    scope: 'operator.read',
    params: () => z.object({ agentId: agentIdParam, name: personaFile }).strict(),
  }),
  'agents.files.set': method<{ ok: true; agentId: string; workspace: string; file: PersonaFileInfo }>()({
    scope: 'operator.admin',
    params: () =>
      z
        .object({
          agentId: agentIdParam,
          name: personaFile,
          content: z.string().max(1_000_000, 'content is at most 1 MB'),
        })
        .strict(),
    controlPlaneWrite: true,
  }),
};
