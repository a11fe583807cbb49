import { z } from 'zod';
import { allowlistEntrySchema } from './exec-policy.js';

/**
 * `tools.exec` of one agent in hearth.json. The lead mounts this into the root
 * config schema; the exec host reads the parsed value.
 */
export const execSandboxConfigSchema = z
  .object({
    mode: z.enum(['local', 'bubblewrap', 'docker']).default('local'),
    /** bubblewrap/docker: let the command reach the network. */
    network: z.boolean().default(false),
    /** docker: the image commands run in. */
    image: z.string().min(1).default('debian:bookworm-slim'),
    /**
     * Inside a sandbox, the policy may be relaxed, but only when written here; every
     * decision it affects carries a `sandbox-relaxed` reason.
     */
    relaxPolicy: z
      .object({
        security: z.enum(['deny', 'allowlist', 'full']).optional(),
        ask: z.enum(['off', 'on-miss', 'always']).optional(),
      })
      .strict()
      .optional(),
  })
  .strict();

export const smartApprovalConfigSchema = z
  .object({
    /** `smart`: a cheaper model triages what would be asked; `human`: ask a person directly. */
    mode: z.enum(['human', 'smart']).default('human'),
    /** Model reference for the judge (resolved by the lead's provider registry). */
    model: z.string().min(1).optional(),
    timeoutMs: z.number().int().positive().default(10_000),
  })
  .strict();

export const execConfigSchema = z
  .object({
    security: z.enum(['deny', 'allowlist', 'full']).default('allowlist'),
    ask: z.enum(['off', 'on-miss', 'always']).default('on-miss'),
    askFallback: z.enum(['deny', 'allowlist', 'full']).default('deny'),
    allowlist: z.array(allowlistEntrySchema).default([]),
    approvals: smartApprovalConfigSchema.default({ mode: 'human', timeoutMs: 10_000 }),
    sandbox: execSandboxConfigSchema.default({ mode: 'local', network: false, image: 'debian:bookworm-slim' }),
    /** Default and ceiling for one command's run time. */
    timeoutMs: z.number().int().positive().default(120_000),
    maxTimeoutMs: z.number().int().positive().default(1_800_000),
    /** Output kept for the model; the rest is cut with a marker. */
    maxOutputBytes: z.number().int().positive().default(200_000),
    /** Extra variables passed through besides the default allowlist (PATH, HOME, LANG…). */
    envPassthrough: z.array(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*\*?$/)).default([]),
    /** How long a pending approval waits before askFallback decides. */
    approvalTimeoutMs: z
      .number()
      .int()
      .positive()
      .default(30 * 60_000),
  })
  .strict();

export type ExecConfig = z.infer<typeof execConfigSchema>;
export type ExecSandboxConfig = z.infer<typeof execSandboxConfigSchema>;
export type SmartApprovalConfig = z.infer<typeof smartApprovalConfigSchema>;

export const defaultExecConfig: ExecConfig = execConfigSchema.parse({});
