import { z } from 'zod';
import { method } from './define.js';

/**
 * Creating, editing and removing agents: OpenClaw's `agents.create|update|delete` shapes (its
 * Control UI's Agents page sends them), with Hearth's own fields added (fallbacks, toolProfile).
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
const settings = {
  workspace: workspace.optional(),
  emoji: z.string().max(16).optional(),
  avatar: z.string().max(2048).optional(),
  fallbacks: z.array(modelRef).max(8, 'at most 8 fallbacks').optional(),
  toolProfile: z.enum(['minimal', 'coding', 'full', 'custom']).optional(),
};

export const agentsAdminMethods = {
  'agents.create': method<{ ok: true; agentId: string; name: string; workspace: string; model?: string }>()({
    scope: 'operator.admin',
    params: z
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
    params: z
      .object({
        agentId: z.string().min(1, 'agentId is required'),
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
    params: z
      .object({
        agentId: z.string().min(1, 'agentId is required'),
        /** Also delete its sessions and memory, and its workspace when that lies inside HEARTH_HOME. */
        deleteFiles: z.boolean().optional(),
      })
      .strict(),
    controlPlaneWrite: true,
  }),
};
