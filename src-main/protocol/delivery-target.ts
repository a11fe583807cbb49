import { z } from 'zod';

/**
 * Where the result of background work (a cron run, a heartbeat reply) goes. Written as one
 * string in hearth.json, on the wire and on the command line:
 *
 * - `ui`: announced to connected clients only (the default);
 * - `none`: kept in history, announced to nobody;
 * - `owner`: the owner (`memory.identityLinks.owner`) on every channel where their account is
 *   linked and paired;
 * - `<channel>:<peerId>`: one person's DM on a channel (`telegram:42`), who must be paired or
 *   allowlisted there;
 * - `<channel>:group:<peerId>` / `<channel>:channel:<peerId>`: a group or a channel the bot is in
 *   (`slack:channel:C0123`, `telegram:group:-1001234`).
 */
export type DeliveryTarget =
  | { kind: 'ui' }
  | { kind: 'none' }
  | { kind: 'owner' }
  | { kind: 'peer'; channel: string; peerKind: 'direct' | 'group' | 'channel'; peerId: string };

/** A delivery to a channel: the owner's accounts, or one chat. */
export type ChannelDeliveryTarget = Extract<DeliveryTarget, { kind: 'owner' | 'peer' }>;

/** How one delivery went; the run or beat that made it keeps this. */
export interface DeliveryOutcome {
  /** The target as written (`owner`, `telegram:42`). */
  to: string;
  status: 'sent' | 'failed';
  /** Failed: why (the channel is not connected, the peer is not paired…); sent: where to. */
  detail?: string;
}

const channelId = /^[a-z][a-z0-9_-]{0,63}$/;
const peerKinds = ['group', 'channel'] as const;

/** Parses a delivery string; throws an Error whose message says what is wrong and what is accepted. */
export function parseDeliveryTarget(text: string): DeliveryTarget {
  const value = text.trim();
  if (value === 'ui' || value === 'none' || value === 'owner') return { kind: value };
  const accepted = 'use "ui", "none", "owner", "<channel>:<peerId>" or "<channel>:group:<peerId>"';
  const colon = value.indexOf(':');
  if (colon < 0) throw new Error(`delivery ${JSON.stringify(text)} is not a target: ${accepted}`);
  const channel = value.slice(0, colon);
  if (!channelId.test(channel)) {
    throw new Error(
      `delivery ${JSON.stringify(text)}: "${channel}" is not a channel id (lowercase letters, digits, "-" or "_")`,
    );
  }
  let rest = value.slice(colon + 1);
  let peerKind: 'direct' | 'group' | 'channel' = 'direct';
  for (const kind of peerKinds) {
    if (rest.startsWith(`${kind}:`)) {
      peerKind = kind;
      rest = rest.slice(kind.length + 1);
    }
  }
  if (rest === '' || /\s/.test(rest) || rest.length > 200) {
    throw new Error(
      `delivery ${JSON.stringify(text)}: the peer id after "${channel}:" is missing or invalid; ${accepted}`,
    );
  }
  return { kind: 'peer', channel, peerKind, peerId: rest };
}

export function formatDeliveryTarget(target: DeliveryTarget): string {
  if (target.kind !== 'peer') return target.kind;
  return target.peerKind === 'direct'
    ? `${target.channel}:${target.peerId}`
    : `${target.channel}:${target.peerKind}:${target.peerId}`;
}

/** A delivery string in a schema: checked by the grammar above, kept as written (normalised). */
export const deliveryTextSchema = z
  .string()
  .trim()
  .min(1)
  .max(270)
  .transform((text, context) => {
    try {
      return formatDeliveryTarget(parseDeliveryTarget(text));
    } catch (error) {
      context.addIssue({ code: 'custom', message: (error as Error).message });
      return z.NEVER;
    }
  });
