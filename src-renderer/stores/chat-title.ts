import type { Translate } from '../i18n/translate.js';

/** What a chat's row says about its name; a chat not listed yet has none. */
export interface TitledRow {
  /** The title a person gave, or the gateway took from the first message. */
  customTitle?: string;
  /** The gateway's display name (a channel's peer name), when it has one. */
  displayName?: string;
}

const peerKinds = new Set(['direct', 'group', 'channel', 'dm']);
/** `chat-1a2b3c4d`: what sessions.create names a fresh chat before its first message gives it a title. */
const freshChat = /^chat-[0-9a-f]{4,}$/;
/** Opaque ids (UUIDs, hex run ids) say nothing to a person: they are shortened, not shown whole. */
const opaqueId = /^[0-9a-f-]{16,}$/i;

function decode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

function short(id: string): string {
  return opaqueId.test(id) ? id.replaceAll('-', '').slice(0, 6) : id;
}

function capitalised(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/**
 * The name a person sees for a chat, from its content first: the title (given, or taken from the
 * first message), else the channel peer's display name, else a phrase made from the key's parts.
 * Never the raw `agent:main:main`: every view that names a chat (chat list, usage, approvals,
 * permissions) goes through this.
 */
export function chatTitle(key: string, row: TitledRow | undefined, t: Translate): string {
  if (row?.customTitle?.trim()) return row.customTitle.trim();
  const parts = key.split(':');
  if (parts[0] !== 'agent' || parts.length < 3 || !parts[1]) {
    return row?.displayName && row.displayName !== key ? row.displayName : key;
  }
  const agent = parts[1];
  const rest = parts.slice(2).map(decode);
  const head = rest[0] ?? '';
  if (rest.length === 1 && head === 'main') {
    return agent === 'main' ? t('chat.mainSession') : t('chatTitle.agentMain', { agent });
  }
  if (rest.length === 1 && freshChat.test(head)) return t('chatTitle.untitled');
  if (head === 'subagent') return t('chatTitle.subagent', { id: short(rest.slice(1).join(':')) });
  if (head === 'cron') return t('chatTitle.cron', { id: short(rest.slice(1).join(':')) });
  if (rest.length === 1 && head === 'heartbeat') return t('chatTitle.heartbeat');
  if (rest.length === 1 && head.startsWith('acp-')) return t('chatTitle.editor');
  if (row?.displayName && row.displayName !== key) return row.displayName;
  if (rest.length === 1) return head;
  // A channel chat: "Telegram · 12345" (the peer), its account and peer kind left out.
  const peer = rest[rest.length - 1] ?? '';
  const channel = peerKinds.has(head) ? undefined : head;
  return channel ? `${capitalised(channel)} · ${short(peer)}` : short(peer);
}
