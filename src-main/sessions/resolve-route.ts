import { HearthError } from '../base/errors.js';
import type { AgentEntry, Binding, BindingMatch } from './routing-config.js';
import { buildPeerSessionKey, DEFAULT_AGENT_ID, type DmScope, type PeerKind, peerKinds } from './session-key.js';

/** Where a message came from, as a channel plugin reports it. */
export interface RouteInput {
  channel: string;
  /** The bot account that received it, for channels with several. */
  accountId?: string;
  peerKind: PeerKind;
  /** The person (direct) or the group / channel id. */
  peerId: string;
  /** The guild / team / workspace the group lives in. */
  guildId?: string;
}

export type RouteMatch = 'binding.peer' | 'binding.guild' | 'binding.account' | 'binding.channel' | 'default';

export interface ResolvedRoute {
  agentId: string;
  sessionKey: string;
  /** Which rule decided; shown by `hearth doctor` and the trace. */
  matchedBy: RouteMatch;
}

/** Structural so callers can pass the parsed root config or a hand-written literal. */
export interface RoutingConfigLike {
  agents?: { list?: readonly AgentEntry[]; bindings?: readonly Binding[] };
  session?: { dmScope?: DmScope };
}

export class RouteInputError extends HearthError {
  constructor(message: string) {
    super('bad_request', message);
    this.name = 'RouteInputError';
  }
}

/** The agent that answers when nothing more specific matches. */
export function defaultAgentId(config: RoutingConfigLike): string {
  const list = config.agents?.list ?? [];
  return (list.find((agent) => agent.default === true) ?? list[0])?.id ?? DEFAULT_AGENT_ID;
}

const sameChannel = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
const isSpecificAccount = (accountId: string | undefined): accountId is string =>
  accountId !== undefined && accountId !== '*';

/** Every field a binding names must hold for the message; absent fields match anything. */
function matches(match: BindingMatch, input: RouteInput): boolean {
  if (!sameChannel(match.channel, input.channel)) return false;
  if (isSpecificAccount(match.accountId) && match.accountId !== input.accountId) return false;
  if (match.peer && (match.peer.kind !== input.peerKind || match.peer.id !== input.peerId)) return false;
  if (match.guildId !== undefined && match.guildId !== input.guildId) return false;
  return true;
}

/** How specific a binding is; lower wins. */
function tierOf(match: BindingMatch): Exclude<RouteMatch, 'default'> {
  if (match.peer) return 'binding.peer';
  if (match.guildId !== undefined) return 'binding.guild';
  if (isSpecificAccount(match.accountId)) return 'binding.account';
  return 'binding.channel';
}

const tierOrder: Exclude<RouteMatch, 'default'>[] = [
  'binding.peer',
  'binding.guild',
  'binding.account',
  'binding.channel',
];

function checkInput(input: RouteInput): void {
  if (typeof input.channel !== 'string' || input.channel.trim() === '') {
    throw new RouteInputError('cannot route a message without a channel');
  }
  if (!(peerKinds as readonly string[]).includes(input.peerKind)) {
    throw new RouteInputError(
      `cannot route a message with peer kind ${JSON.stringify(input.peerKind)} (expected ${peerKinds.join(', ')})`,
    );
  }
  if (typeof input.peerId !== 'string' || input.peerId === '') {
    throw new RouteInputError(`cannot route a ${input.channel} message without a peer id`);
  }
}

/**
 * Picks the agent by the most specific binding (peer, then guild, then account, then
 * channel, then the default agent; config order breaks ties) and builds the session
 * key with `session.dmScope`.
 */
export function resolveRoute(config: RoutingConfigLike, input: RouteInput): ResolvedRoute {
  checkInput(input);
  const bindings = config.agents?.bindings ?? [];
  const candidates = bindings.filter((binding) => matches(binding.match, input));
  let agentId = defaultAgentId(config);
  let matchedBy: RouteMatch = 'default';
  for (const tier of tierOrder) {
    const winner = candidates.find((binding) => tierOf(binding.match) === tier);
    if (winner) {
      agentId = winner.agentId;
      matchedBy = tier;
      break;
    }
  }
  const sessionKey = buildPeerSessionKey(agentId, input, config.session?.dmScope ?? 'per-channel-peer');
  return { agentId, sessionKey, matchedBy };
}
