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

const code = z.string().trim().min(1).max(32);

export const channelsMethods = {
  'channels.list': method<{ channels: ChannelView[] }>()({
    scope: 'operator.read',
    params: z.object({}).strict(),
  }),
  'channels.status': method<ChannelsStatusResult>()({
    scope: 'operator.read',
    // OpenClaw's UI sends {probe, timeoutMs}; Hearth reports what it knows without probing.
    params: z.object({ probe: z.boolean().optional(), timeoutMs: z.number().int().positive().optional() }).strict(),
  }),
  /** Stops and starts one channel (e.g. after its token changed in the secret store). */
  'channels.restart': method<{ channel: ChannelView }>()({
    scope: 'operator.admin',
    controlPlaneWrite: true,
    params: z.object({ channel: z.string().min(1) }).strict(),
  }),
  /** Linked identities (`memory.identityLinks`; `owner` answers approvals in channels) and docked conversations. */
  'channels.identities.list': method<{ identities: ChannelIdentityView[]; ownerPerson: string }>()({
    scope: 'operator.read',
    params: z.object({}).strict(),
  }),
  'channels.pairing.list': method<ChannelsPairingListResult>()({
    scope: 'operator.pairing',
    params: z.object({ channel: z.string().min(1).optional() }).strict(),
  }),
  'channels.pairing.approve': method<{ approved: ChannelPairedSenderView }>()({
    scope: 'operator.pairing',
    controlPlaneWrite: true,
    params: z.object({ code }).strict(),
  }),
  'channels.pairing.reject': method<{ rejected: ChannelPairingRequestView }>()({
    scope: 'operator.pairing',
    controlPlaneWrite: true,
    params: z.object({ code }).strict(),
  }),
};
