import { HearthError } from '../base/errors.js';
/**
 * Session keys name a conversation independently of the transcript behind it:
 * `agent:{agentId}:main`, `agent:{agentId}:{channel}:{accountId?}:{peerKind}:{peerId}`,
 * `agent:{agentId}:{peerKind}:{peerId}` (dmScope per-peer) and
 * `agent:{agentId}:{subagent|cron}:{id}` for work the runtime starts itself, and the general
 * OpenClaw shape `agent:{agentId}:{label}` (a named chat: any single part that is not one of the
 * structured forms, e.g. `agent:main:work-notes`).
 * Parts are escaped (`%` and `:`) so a peer id such as a Matrix `@me:host` survives a round trip.
 * Keys never name files (transcripts are `<sessionId>.jsonl`), but a label is still held to a
 * plain charset so it cannot smuggle separators, `..` or control characters anywhere it is shown or logged.
 */

export const peerKinds = ['direct', 'group', 'channel'] as const;
export type PeerKind = (typeof peerKinds)[number];

export const taskScopes = ['subagent', 'cron'] as const;
export type TaskScope = (typeof taskScopes)[number];

export const dmScopes = ['main', 'per-peer', 'per-channel-peer', 'per-account-channel-peer'] as const;
export type DmScope = (typeof dmScopes)[number];

export const DEFAULT_AGENT_ID = 'main';
export const MAIN_SESSION_KEY = 'agent:main:main';

/** Agent ids become folder names and key parts: lowercase, no separators. */
const AGENT_ID = /^[a-z0-9][a-z0-9_-]{0,63}$/;

export type ParsedSessionKey =
  | { kind: 'main'; agentId: string }
  | { kind: 'peer'; agentId: string; channel?: string; accountId?: string; peerKind: PeerKind; peerId: string }
  | { kind: 'task'; agentId: string; scope: TaskScope; id: string }
  | { kind: 'named'; agentId: string; label: string };

/**
 * A named chat's label: 1-128 letters (any script), digits, `.`, `_`, `-`, `@` or `+`, starting with
 * a letter or digit, no `..`; lowercase in the canonical key. The words the structured forms use
 * (`main`, `subagent`, `cron`, `direct`, `group`, `channel`) are not labels.
 */
const LABEL = /^[\p{Ll}\p{Lo}\p{Lm}\p{N}][\p{Ll}\p{Lo}\p{Lm}\p{Mn}\p{N}._@+-]{0,127}$/u;
const reservedLabels: readonly string[] = ['main', ...taskScopes, ...peerKinds];

export class SessionKeyError extends HearthError {
  constructor(message: string) {
    super('bad_request', message);
    this.name = 'SessionKeyError';
  }
}

export function isValidAgentId(agentId: string): boolean {
  return AGENT_ID.test(agentId);
}

export function assertAgentId(agentId: string): string {
  if (!isValidAgentId(agentId)) {
    throw new SessionKeyError(
      `invalid agent id ${JSON.stringify(agentId)}: use 1-64 lowercase letters, digits, "-" or "_", starting with a letter or digit`,
    );
  }
  return agentId;
}

function escapePart(part: string): string {
  return part.replaceAll('%', '%25').replaceAll(':', '%3A');
}

function unescapePart(part: string, key: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    throw new SessionKeyError(`malformed session key ${JSON.stringify(key)}: bad escape in ${JSON.stringify(part)}`);
  }
}

/** Checks a label as `parseSessionKey` would and returns its canonical (lowercase) form. */
export function checkSessionLabel(label: string): string {
  const canonical = label.trim().toLowerCase();
  const shown = JSON.stringify(label);
  if (canonical.length === 0) throw new SessionKeyError('session label is empty');
  if (reservedLabels.includes(canonical)) {
    const hint =
      canonical === 'main'
        ? 'it names the main session'
        : (taskScopes as readonly string[]).includes(canonical)
          ? `"${canonical}" needs an id: agent:<agentId>:${canonical}:<id>`
          : `"${canonical}" needs a peer id: agent:<agentId>:${canonical}:<peerId>`;
    throw new SessionKeyError(`session label ${shown} is reserved (${hint})`);
  }
  if (canonical.length > 128) throw new SessionKeyError(`session label ${shown} is longer than 128 characters`);
  if (!LABEL.test(canonical) || canonical.includes('..')) {
    throw new SessionKeyError(
      `session label ${shown} is not allowed: use letters, digits, ".", "_", "-", "@" or "+", starting with a letter or digit, without ".."`,
    );
  }
  return canonical;
}

function requirePart(name: string, value: string | undefined): string {
  if (value === undefined || value.length === 0) throw new SessionKeyError(`session key part ${name} is empty`);
  return value;
}

/** Builds the canonical string for a parsed key; the inverse of `parseSessionKey`. */
export function formatSessionKey(key: ParsedSessionKey): string {
  const agentId = assertAgentId(key.agentId);
  if (key.kind === 'main') return `agent:${agentId}:main`;
  if (key.kind === 'task') return `agent:${agentId}:${key.scope}:${escapePart(requirePart('id', key.id))}`;
  if (key.kind === 'named') return `agent:${agentId}:${checkSessionLabel(key.label)}`;
  const parts = [`agent`, agentId];
  if (key.accountId !== undefined && key.channel === undefined) {
    throw new SessionKeyError('a session key with an accountId needs a channel');
  }
  if (key.channel !== undefined) parts.push(escapePart(requirePart('channel', key.channel).toLowerCase()));
  if (key.accountId !== undefined) parts.push(escapePart(requirePart('accountId', key.accountId)));
  parts.push(key.peerKind, escapePart(requirePart('peerId', key.peerId)));
  return parts.join(':');
}

/** Parses a key (or the shorthand "main"); throws SessionKeyError naming what is wrong. */
export function parseSessionKey(raw: string): ParsedSessionKey {
  const key = raw.trim();
  if (key === 'main') return { kind: 'main', agentId: DEFAULT_AGENT_ID };
  const parts = key.split(':');
  if (parts[0] !== 'agent' || parts.length < 3) {
    throw new SessionKeyError(
      `malformed session key ${JSON.stringify(raw)}: expected "agent:<agentId>:main", "agent:<agentId>:<label>" or "agent:<agentId>:<channel>:[<accountId>:]<peerKind>:<peerId>"`,
    );
  }
  const agentId = parts[1] ?? '';
  if (!isValidAgentId(agentId)) {
    throw new SessionKeyError(
      `malformed session key ${JSON.stringify(raw)}: invalid agent id ${JSON.stringify(agentId)}`,
    );
  }
  const rest = parts.slice(2);
  if (rest.some((part) => part.length === 0)) {
    throw new SessionKeyError(`malformed session key ${JSON.stringify(raw)}: empty part`);
  }
  if (rest.length === 1 && rest[0] === 'main') return { kind: 'main', agentId };
  if (rest.length === 1) {
    try {
      return { kind: 'named', agentId, label: checkSessionLabel(unescapePart(rest[0]!, raw)) };
    } catch (error) {
      if (error instanceof SessionKeyError && !error.message.startsWith('malformed')) {
        throw new SessionKeyError(`malformed session key ${JSON.stringify(raw)}: ${error.message}`);
      }
      throw error;
    }
  }
  if (rest.length === 2 && (taskScopes as readonly string[]).includes(rest[0]!)) {
    return { kind: 'task', agentId, scope: rest[0] as TaskScope, id: unescapePart(rest[1]!, raw) };
  }
  if (rest.length < 2 || rest.length > 4) {
    throw new SessionKeyError(
      `malformed session key ${JSON.stringify(raw)}: wrong number of parts (a named chat's label is a single part, without ":")`,
    );
  }
  const peerKind = rest[rest.length - 2]!;
  if (!(peerKinds as readonly string[]).includes(peerKind)) {
    throw new SessionKeyError(
      `malformed session key ${JSON.stringify(raw)}: unknown peer kind ${JSON.stringify(peerKind)} (expected ${peerKinds.join(', ')})`,
    );
  }
  const peerId = unescapePart(rest[rest.length - 1]!, raw);
  const parsed: ParsedSessionKey = { kind: 'peer', agentId, peerKind: peerKind as PeerKind, peerId };
  if (rest.length >= 3) parsed.channel = unescapePart(rest[0]!, raw);
  if (rest.length === 4) parsed.accountId = unescapePart(rest[1]!, raw);
  return parsed;
}

/** Canonical form of any accepted spelling ("main", surrounding spaces, channel case). */
export function normalizeSessionKey(raw: string): string {
  return formatSessionKey(parseSessionKey(raw));
}

export function agentIdOfSessionKey(raw: string): string {
  return parseSessionKey(raw).agentId;
}

export interface PeerAddress {
  channel: string;
  accountId?: string;
  peerKind: PeerKind;
  peerId: string;
}

/**
 * The key a message from a peer lands in. Groups and channels always get their own
 * session per channel (and account, when known); `dmScope` only decides how direct
 * messages are shared: one main session, one per person, per person per channel, or
 * per person per channel per bot account.
 */
export function buildPeerSessionKey(agentId: string, peer: PeerAddress, dmScope: DmScope = 'per-channel-peer'): string {
  if (peer.peerKind !== 'direct') {
    return formatSessionKey({
      kind: 'peer',
      agentId,
      channel: peer.channel,
      peerKind: peer.peerKind,
      peerId: peer.peerId,
    });
  }
  switch (dmScope) {
    case 'main':
      return formatSessionKey({ kind: 'main', agentId });
    case 'per-peer':
      return formatSessionKey({ kind: 'peer', agentId, peerKind: 'direct', peerId: peer.peerId });
    case 'per-channel-peer':
      return formatSessionKey({
        kind: 'peer',
        agentId,
        channel: peer.channel,
        peerKind: 'direct',
        peerId: peer.peerId,
      });
    case 'per-account-channel-peer':
      return formatSessionKey({
        kind: 'peer',
        agentId,
        channel: peer.channel,
        accountId: peer.accountId ?? 'default',
        peerKind: 'direct',
        peerId: peer.peerId,
      });
  }
}
