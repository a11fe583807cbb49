import { z } from 'zod';
import { deliveryTextSchema } from '../protocol/delivery-target.js';
import type { HeartbeatSettings } from './heartbeat-service.js';

const hour = z.number().int().min(0).max(24);

/** A file or folder inside the agent's workspace, written relative to it. */
const watchedPath = z
  .string()
  .min(1)
  .refine(
    (path) => !path.startsWith('/') && !/^[A-Za-z]:[\\/]/.test(path),
    'a path relative to the workspace, not an absolute one',
  )
  .refine((path) => !path.split(/[\\/]/).includes('..'), 'a path inside the workspace (no "..")')
  .refine((path) => !['.', './', ''].includes(path.trim()), 'a file or folder, not the whole workspace');

/** hearth.json `heartbeat`: how often the free pre-check runs, and when a beat may call the model. */
export const heartbeatConfigSchema = z
  .object({
    /** false: no beats at all (nothing is read, nothing is called). */
    enabled: z.boolean().default(true),
    /** Minutes between beats; a beat with nothing due costs no model call. */
    intervalMinutes: z
      .number()
      .int()
      .min(1)
      .max(24 * 60)
      .default(30),
    /** Local hours [start, end) when a due item may call the model; end < start wraps midnight. */
    activeHours: z.object({ start: hour, end: hour }).strict().optional(),
    /** IANA time zone for `activeHours` and HEARTBEAT.md schedules (default: the machine's). */
    tz: z.string().min(1).optional(),
    /** The agent whose HEARTBEAT.md is read and who runs the heartbeat turn. */
    agentId: z.string().min(1).default('main'),
    /**
     * Workspace files or folders whose change is a reason for the next beat (`["inbox.md", "notes/"]`).
     * Empty: nothing is watched.
     */
    watch: z.array(watchedPath).max(100).default([]),
    /**
     * Where a reply worth telling goes besides the app: `ui` (the app only), `owner` (the owner's
     * linked channels), or one chat (`telegram:42`); protocol/delivery-target.ts.
     */
    delivery: deliveryTextSchema.default('ui'),
    /** Longest a heartbeat turn may run before it is aborted. */
    runTimeoutMs: z
      .number()
      .int()
      .positive()
      .default(5 * 60_000),
  })
  .strict();

export type HeartbeatConfig = z.infer<typeof heartbeatConfigSchema>;

/** Throws naming the bad key (`heartbeat.intervalMinutes: …`, `heartbeat.tz: unknown time zone …`). */
export function parseHeartbeatConfig(raw: unknown): HeartbeatConfig {
  const parsed = heartbeatConfigSchema.safeParse(raw ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`heartbeat.${issue?.path.join('.') || ''}: ${issue?.message ?? 'invalid'}`);
  }
  if (parsed.data.tz !== undefined) {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: parsed.data.tz });
    } catch {
      throw new Error(`heartbeat.tz: unknown time zone ${JSON.stringify(parsed.data.tz)}`);
    }
  }
  return parsed.data;
}

export function heartbeatSettingsOf(config: HeartbeatConfig): HeartbeatSettings {
  return {
    enabled: config.enabled,
    intervalMs: config.intervalMinutes * 60_000,
    ...(config.activeHours ? { activeHours: config.activeHours } : {}),
    ...(config.tz ? { tz: config.tz } : {}),
  };
}
