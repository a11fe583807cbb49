import { z } from 'zod';
import { method } from './define.js';

/** One channel as `channels.list` / `channels.status` show it (docs/CHANNELS.md). */
export interface ChannelView {
  id: string;
  pluginId: string;
  name: string;
  icon?: string;
  /** `channels.<id>` exists in hearth.json. */
  configured: boolean;
  enabled: boolean;
  dmPolicy?: string;
  /** The host's settings of `channels.<id>` in effect (who may write, groups, the model's tools). */
  settings?: ChannelHostSettingsView;
  /** The tools the channel can give the model (`agentTools`), for the settings to offer. */
  agentTools?: { name: string; description: string }[];
  state: 'starting' | 'connected' | 'reconnecting' | 'error' | 'stopped';
  /** Who the channel is logged in as (`@my_bot`). */
  account?: string;
  /** Why it is not connected, in words a person can act on. */
  error?: string;
  lastMessageAt?: number;
  lastError?: string;
  startedAt?: number;
  restarts: number;
  capabilities: {
    editMessages: boolean;
    /** Prompts with buttons (approvals); without, approvals are answered with `/approve`. */
    buttons?: boolean;
    groups: boolean;
    maxMessageLength: number;
    markdown: string;
  };
}

export interface ChannelHostSettingsView {
  dmPolicy: 'pairing' | 'allowlist' | 'open' | 'disabled';
  allowFrom: string[];
  groups: { enabled: boolean; requireMention: boolean; allowlist: string[] };
  agentTools: boolean | string[];
}

export interface ChannelPairingRequestView {
  code: string;
  channel: string;
  senderId: string;
  senderName?: string;
  createdAt: number;
  expiresAt: number;
}

export interface ChannelPairedSenderView {
  channel: string;
  senderId: string;
  senderName?: string;
  approvedAt: number;
}

/**
 * `channels.status` also answers OpenClaw's Control UI, which reads the keys it had
 * (`channelOrder`, `channelLabels`, `channels`, `channelAccounts`…); Hearth's own clients read `list`.
 */
export interface ChannelsStatusResult {
  ts: number;
  list: ChannelView[];
  channelOrder: string[];
  channelLabels: Record<string, string>;
  channelDetailLabels: Record<string, string>;
  channelSystemImages: Record<string, string>;
  channelMeta: { id: string; label: string }[];
  channels: Record<string, { configured: boolean; running: boolean; connected: boolean; lastError?: string }>;
  channelAccounts: Record<string, { accountId: string; connected: boolean; name?: string }[]>;
  channelDefaultAccountId: Record<string, string>;
  statusIssues: { channel: string; message: string }[];
}

/** Shaped as OpenClaw's `channels.pairing.list` answer, with Hearth's `paired` added. */
export interface ChannelsPairingListResult {
  accounts: { channel: string; accountId: string }[];
  requests: ChannelPairingRequestView[];
  paired: ChannelPairedSenderView[];
  commandOwnerConfigured: boolean;
  limits: { pendingPerAccount: number; ttlMs: number };
}

/** One person of `memory.identityLinks`, their channel accounts, and a conversation docked to one of them. */
export interface ChannelIdentityView {
  person: string;
  accounts: {
    account: string;
    channel: string;
    userId: string;
    /** Paired or on the channel's allowFrom: their messages reach the agent. */
    known: boolean;
  }[];
  dock?: { sessionKey: string; channel: string; userId: string; dockedAt: number };
}

/** One question of a channel's setup wizard (`channels.setup.describe`), rendered by the UI. */
export interface ChannelSetupFieldView {
  /** The config key of `channels.<id>`, or a secret's short name. */
  key: string;
  label: string;
  help?: string;
  kind: 'text' | 'secret' | 'number' | 'boolean' | 'select';
  required?: boolean;
  /** Used when left empty (and then not written to hearth.json). */
  default?: string | number | boolean;
  options?: { value: string; label: string }[];
  placeholder?: string;
  /** Under "Advanced": the default suits most people. */
  advanced?: boolean;
  /** Asked only when the field `key` has this value. */
  when?: { key: string; equals: string | number | boolean };
  /** Non-secret: what hearth.json holds now. */
  value?: string | number | boolean;
  /** Secret: the secret store entry, and whether it holds a value (which never leaves the gateway). */
  secretAccount?: string;
  stored?: boolean;
}

export interface ChannelSetupDescription {
  channel: string;
  name: string;
  icon?: string;
  description?: string;
  /** `channels.<id>` exists in hearth.json. */
  configured: boolean;
  /** What to do before filling the fields (create the bot…). */
  steps: string[];
  fields: ChannelSetupFieldView[];
}

export interface ChannelSetupApplyResult {
  channel: ChannelView;
  /** Config paths the write changed (under `channels.<id>` only). */
  changedPaths: string[];
  /** Secret store entries written (names only). */
  secretsStored: string[];
  /** With `test`: the channel's health once it left `starting` (or when the wait ended). */
  test?: { ok: boolean; state: ChannelView['state']; account?: string; error?: string };
}

export interface ChannelIdentitiesResult {
  identities: ChannelIdentityView[];
  ownerPerson: string;
}

const setupValue = z.union([z.string().max(4096), z.number(), z.boolean(), z.null()]);
/** A person of identityLinks: a short name (`owner`, `ann`). */
const person = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/, 'a person is 1-64 letters, digits, "_", "." or "-" (e.g. owner)');
/** A channel account: `<channel>:<platform user id>` (`telegram:42`). */
const account = z
  .string()
  .max(200)
  .regex(/^[a-z0-9][a-z0-9_-]*:\S+$/, 'an account is <channel>:<user id>, e.g. telegram:42');

const code = z.string().trim().min(1).max(32);

export const channelsMethods = {
  'channels.list': method<{ channels: ChannelView[] }>()({
    scope: 'operator.read',
    params: () => z.object({}).strict(),
  }),
  'channels.status': method<ChannelsStatusResult>()({
    scope: 'operator.read',
    // OpenClaw's UI sends {probe, timeoutMs}; Hearth reports what it knows without probing.
    params: () =>
      z.object({ probe: z.boolean().optional(), timeoutMs: z.number().int().positive().optional() }).strict(),
  }),
  /** Stops and starts one channel (e.g. after its token changed in the secret store). */
  'channels.restart': method<{ channel: ChannelView }>()({
    scope: 'operator.admin',
    controlPlaneWrite: true,
    params: () => z.object({ channel: z.string().min(1) }).strict(),
  }),
  /** Linked identities (`memory.identityLinks`; `owner` answers approvals in channels) and docked conversations. */
  'channels.identities.list': method<{ identities: ChannelIdentityView[]; ownerPerson: string }>()({
    scope: 'operator.read',
    params: () => z.object({}).strict(),
  }),
  /** A channel's setup wizard: its questions with the current answers (secrets: only whether one is stored). */
  'channels.setup.describe': method<ChannelSetupDescription>()({
    scope: 'operator.admin',
    params: () => z.object({ channel: z.string().min(1) }).strict(),
  }),
  /**
   * Applies the wizard's answers: checked by the plugin's validate (an error names the field),
   * secrets into the secret store, the rest under `channels.<id>` (only that channel restarts).
   * `test` waits (up to `timeoutMs`, default 15 s) for the channel's health after the restart.
   */
  'channels.setup.apply': method<ChannelSetupApplyResult>()({
    scope: 'operator.admin',
    controlPlaneWrite: true,
    params: () =>
      z
        .object({
          channel: z.string().min(1),
          values: z.record(z.string(), setupValue),
          test: z.boolean().optional(),
          timeoutMs: z.number().int().positive().max(60_000).optional(),
        })
        .strict(),
  }),
  /**
   * The host's settings of a configured channel (DM policy, allowFrom, groups, agentTools), each
   * checked by the channel's id shapes (`INVALID_REQUEST` with `details.field`, e.g. `allowFrom[1]`);
   * written to `channels.<id>` (only that channel restarts). Keys not given are left as they are.
   */
  'channels.settings.set': method<{ channel: ChannelView }>()({
    scope: 'operator.admin',
    controlPlaneWrite: true,
    params: () =>
      z
        .object({
          channel: z.string().min(1),
          settings: z
            .object({
              dmPolicy: z.enum(['pairing', 'allowlist', 'open', 'disabled']).optional(),
              allowFrom: z.array(z.string().trim().min(1).max(128)).max(500).optional(),
              groups: z
                .object({
                  enabled: z.boolean().optional(),
                  requireMention: z.boolean().optional(),
                  allowlist: z.array(z.string().trim().min(1).max(128)).max(500).optional(),
                })
                .strict()
                .optional(),
              agentTools: z.union([z.boolean(), z.array(z.string().min(1).max(64)).max(50)]).optional(),
            })
            .strict(),
        })
        .strict(),
  }),
  /** Turns a configured channel on or off (`channels.<id>.enabled`). */
  'channels.setEnabled': method<{ channel: ChannelView }>()({
    scope: 'operator.admin',
    controlPlaneWrite: true,
    params: () => z.object({ channel: z.string().min(1), enabled: z.boolean() }).strict(),
  }),
  /** Links a channel account to a person (`memory.identityLinks`); an account belongs to one person. */
  'channels.identities.link': method<ChannelIdentitiesResult>()({
    scope: 'operator.admin',
    controlPlaneWrite: true,
    params: () => z.object({ person, account }).strict(),
  }),
  'channels.identities.unlink': method<ChannelIdentitiesResult>()({
    scope: 'operator.admin',
    controlPlaneWrite: true,
    params: () => z.object({ person, account }).strict(),
  }),
  'channels.pairing.list': method<ChannelsPairingListResult>()({
    scope: 'operator.pairing',
    params: () => z.object({ channel: z.string().min(1).optional() }).strict(),
  }),
  'channels.pairing.approve': method<{ approved: ChannelPairedSenderView }>()({
    scope: 'operator.pairing',
    controlPlaneWrite: true,
    params: () => z.object({ code }).strict(),
  }),
  'channels.pairing.reject': method<{ rejected: ChannelPairingRequestView }>()({
    scope: 'operator.pairing',
    controlPlaneWrite: true,
    params: () => z.object({ code }).strict(),
  }),
};
