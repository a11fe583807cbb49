import { z } from 'zod';
import type { ChannelIdFormat, ChannelPlugin, DmPolicy } from '../plugins/sdk/channels.js';
import { formatIssues } from '../protocol/index.js';
import { checkAgentToolNames } from './channel-agent-tools.js';

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
        /** Group ids the agent answers in; empty: every group it is in. */
        allowlist: z.array(z.union([z.string().min(1), z.number()]).transform(String)).default([]),
      })
      .strict()
      .default({ enabled: true, requireMention: true, allowlist: [] }),
    /** The channel's tools for the model: `true` (all), a list of their names, or off (default). */
    agentTools: z.union([z.boolean(), z.array(z.string().min(1))]).default(false),
  })
  .strict();

export const HOST_SETTING_KEYS = ['enabled', 'dmPolicy', 'allowFrom', 'groups', 'agentTools'] as const;

export interface ChannelHostSettings {
  enabled: boolean;
  dmPolicy: DmPolicy;
  allowFrom: string[];
  groups: { enabled: boolean; requireMention: boolean; allowlist: string[] };
  agentTools: boolean | string[];
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

/**
 * What only the plugin knows: each `allowFrom` and `groups.allowlist` entry has the shape of the
 * platform's ids, and `agentTools` names tools it has. Throws naming the first wrong entry.
 */
export function checkHostSettings(channelId: string, plugin: ChannelPlugin, settings: ChannelHostSettings): void {
  const check = (key: string, ids: readonly string[], format: ChannelIdFormat | undefined) => {
    if (!format) return;
    const pattern = new RegExp(`^(?:${format.pattern})$`);
    ids.forEach((id, index) => {
      if (!pattern.test(id))
        throw new ChannelSettingError(
          `${key}[${index}]`,
          `channels.${channelId}.${key}: "${id}" is not ${format.description}`,
        );
    });
  };
  check('allowFrom', settings.allowFrom, plugin.security?.senderId);
  check('groups.allowlist', settings.groups.allowlist, plugin.security?.groupId);
  try {
    checkAgentToolNames(channelId, plugin, settings.agentTools);
  } catch (error) {
    throw new ChannelSettingError('agentTools', (error as Error).message);
  }
}

/** A host setting a plugin refuses; `field` names it (`allowFrom[2]`) for the UI to mark. */
export class ChannelSettingError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
    this.name = 'ChannelSettingError';
  }
}
