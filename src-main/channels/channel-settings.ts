import { z } from 'zod';
import type { DmPolicy } from '../plugins/sdk/channels.js';
import { formatIssues } from '../protocol/index.js';

/**
 * The keys of `channels.<id>` the host owns, whatever the channel: whether it runs, who may
 * reach the agent through it, how groups are treated. The rest of the block is the plugin's
 * (its `config.validate`).
 */
const hostSettingsSchema = z
  .object({
    enabled: z.boolean().default(true),
    dmPolicy: z.enum(['pairing', 'allowlist', 'open', 'disabled']).optional(),
    /** Platform sender ids that may always reach the agent (Telegram: the numeric user id). */
    allowFrom: z.array(z.union([z.string().min(1), z.number()]).transform(String)).default([]),
    groups: z
      .object({
        enabled: z.boolean().default(true),
        /** Answer in a group only when mentioned or replied to. */
        requireMention: z.boolean().default(true),
      })
      .strict()
      .default({ enabled: true, requireMention: true }),
  })
  .strict();

export const HOST_SETTING_KEYS = ['enabled', 'dmPolicy', 'allowFrom', 'groups'] as const;

export interface ChannelHostSettings {
  enabled: boolean;
  dmPolicy: DmPolicy;
  allowFrom: string[];
  groups: { enabled: boolean; requireMention: boolean };
}

/** Splits `channels.<id>` into the host's settings and the plugin's block; throws naming the wrong field. */
export function splitChannelConfig(
  channelId: string,
  raw: unknown,
  defaultDmPolicy: DmPolicy,
): { host: ChannelHostSettings; plugin: Record<string, unknown> } {
  if (raw !== undefined && (typeof raw !== 'object' || raw === null || Array.isArray(raw)))
    throw new Error(`channels.${channelId} must be an object`);
  const block = (raw ?? {}) as Record<string, unknown>;
  const hostPart: Record<string, unknown> = {};
  const plugin: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(block)) {
    if ((HOST_SETTING_KEYS as readonly string[]).includes(key)) hostPart[key] = value;
    else plugin[key] = value;
  }
  const parsed = hostSettingsSchema.safeParse(hostPart);
  if (!parsed.success) throw new Error(`channels.${channelId}: ${formatIssues(parsed.error.issues)}`);
  return { host: { ...parsed.data, dmPolicy: parsed.data.dmPolicy ?? defaultDmPolicy }, plugin };
}
