import type { AgentMessage } from '../../agent/index.js';
import type { ChatHistoryMessage } from '../../protocol/methods/chat.js';
import type { SessionDefaults } from '../../protocol/methods/openclaw-chat.js';
import type { ModelSelection } from '../../providers/index.js';
import { parseSessionKey, type SessionRecord } from '../../sessions/index.js';
import { toHistoryMessage } from './chat.js';
import { toSessionRow } from './sessions.js';

/** Hearth has no thinking levels of its own; OpenClaw's UI wants at least "off" to draw its picker. */
const thinking = {
  thinkingLevels: [{ id: 'off', label: 'off' }],
  thinkingOptions: ['off'],
  thinkingDefault: 'off',
};

export interface ModelInfo {
  id: string;
  contextWindow: number;
}

/** `provider/model` split at the first slash (model ids may contain more). */
export function splitModelRef(ref: string | undefined): { provider: string | null; model: string | null } {
  if (!ref) return { provider: null, model: null };
  const slash = ref.indexOf('/');
  return slash < 0 ? { provider: null, model: ref } : { provider: ref.slice(0, slash), model: ref.slice(slash + 1) };
}

/** The model a new turn would use, as OpenClaw's `defaults` object (sessions.list, chat.history, chat.startup). */
export function sessionDefaults(selection: ModelSelection | undefined, models: readonly ModelInfo[]): SessionDefaults {
  const primary = selection?.primary;
  const { provider, model } = splitModelRef(primary);
  const row = primary ? models.find((m) => m.id === primary) : undefined;
  return {
    modelProvider: provider,
    model,
    contextTokens: row?.contextWindow ?? null,
    modelSelectionTarget: 'session',
    ...thinking,
  };
}

/** A Hearth session as OpenClaw's session rows describe one (sessions.describe, sessions.changed). */
export function openClawSessionRow(record: SessionRecord, defaults: SessionDefaults): Record<string, unknown> {
  const parsed = parseSessionKey(record.key);
  const own = splitModelRef(record.model);
  return {
    ...toSessionRow(record),
    label: record.title ?? null,
    classification: parsed.kind === 'main' ? 'main' : 'chat',
    isMain: parsed.kind === 'main',
    isBackground: false,
    chatType: 'direct',
    archived: record.archived === true,
    pinned: record.pinned === true,
    unread: false,
    visibility: 'shared',
    modelProvider: own.provider ?? defaults.modelProvider,
    model: own.model ?? defaults.model,
    contextTokens: defaults.contextTokens,
    ...thinking,
  };
}

/** A transcript message with the `timestamp` OpenClaw's UI sorts and labels by. */
export function openClawMessage(message: AgentMessage): ChatHistoryMessage & { timestamp: number } {
  return { ...toHistoryMessage(message), timestamp: message.ts };
}
