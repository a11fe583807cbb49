import { z } from 'zod';
import { HearthError } from '../base/errors.js';
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

/** `channels.<id>` and its `groups` as the file holds them: objects of any keys, checked key by key below. */
const blockSchema = z.record(z.string(), z.unknown());

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
  const read = blockSchema.safeParse(raw ?? {});
  if (!read.success) throw new Error(`channels.${channelId} must be an object`);
  const block = read.data;
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

/** What a person changes in the app's channel settings; absent keys stay as they are. */
export interface HostSettingsChange {
  dmPolicy?: DmPolicy;
  allowFrom?: string[];
  groups?: { enabled?: boolean; requireMention?: boolean; allowlist?: string[] };
  agentTools?: boolean | string[];
}

/**
 * `channels.<id>` with `change` applied to the host's keys, checked as the host will check it at
 * start (a refused entry is `bad_request` naming it in `details.field`); defaults are left out,
 * so hearth.json holds only what differs. The plugin's own keys are kept as they are.
 */
export function updateHostSettings(
  channelId: string,
  plugin: ChannelPlugin,
  current: Record<string, unknown>,
  change: HostSettingsChange,
): Record<string, unknown> {
  const next: Record<string, unknown> = { ...current };
  const invalid = (message: string, field?: string) =>
    new HearthError('bad_request', message, {
      details: { reason: 'invalid-settings', channel: channelId, ...(field ? { field } : {}) },
    });
  const set = (key: string, value: unknown, isDefault: boolean) => {
    if (isDefault) delete next[key];
    else next[key] = value;
  };
  if (change.dmPolicy !== undefined)
    set('dmPolicy', change.dmPolicy, change.dmPolicy === (plugin.security?.defaultDmPolicy ?? 'pairing'));
  if (change.allowFrom !== undefined) {
    const unique = [...new Set(change.allowFrom.map((id) => id.trim()))];
    set('allowFrom', unique, unique.length === 0);
  }
  if (change.groups !== undefined) {
    const own = blockSchema.optional().safeParse(current.groups);
    if (!own.success) throw invalid(`channels.${channelId}.groups must be an object`, 'groups');
    const groups = { ...own.data, ...change.groups };
    if (groups.enabled === true) delete groups.enabled;
    if (groups.requireMention === true) delete groups.requireMention;
    if (Array.isArray(groups.allowlist) && groups.allowlist.length === 0) delete groups.allowlist;
    set('groups', groups, Object.keys(groups).length === 0);
  }
  if (change.agentTools !== undefined)
    set(
      'agentTools',
      change.agentTools,
      change.agentTools === false || (Array.isArray(change.agentTools) && change.agentTools.length === 0),
    );
  try {
    const split = splitChannelConfig(channelId, next, plugin.security?.defaultDmPolicy ?? 'pairing');
    checkHostSettings(channelId, plugin, split.host);
  } catch (error) {
    throw invalid((error as Error).message, error instanceof ChannelSettingError ? error.field : undefined);
  }
  return next;
}
