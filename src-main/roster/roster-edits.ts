import { HearthError } from '../base/errors.js';
import { isValidAgentId } from '../sessions/index.js';
import type { RosterFile } from './roster-config.js';

/**
 * The agents a person keeps in hearth.json (`agents.list[]`, `agents.bindings[]`), edited as data:
 * each edit takes the file's own section and returns the next one, so the caller writes it in one
 * config patch and nothing is ever half-changed. `main` always exists (it needs no entry) and
 * cannot be removed.
 */

type AgentsFile = NonNullable<RosterFile['agents']>;
/** One `agents.list[]` entry as the file holds it: routing's keys with every capability's slice, and any others. */
export type RosterEntry = NonNullable<AgentsFile['list']>[number];
export type RosterBinding = NonNullable<AgentsFile['bindings']>[number];
type ExecFile = NonNullable<NonNullable<RosterEntry['tools']>['exec']>;

export interface RosterSection {
  list: RosterEntry[];
  bindings: RosterBinding[];
}

/** What a person sets on an agent (OpenClaw's `agents.create` / `agents.update` fields, plus Hearth's). */
export interface AgentSettings {
  name?: string;
  /** Absolute or `~/…`; default `HEARTH_HOME/workspace-<id>`. */
  workspace?: string;
  /** `provider/model`; null clears the agent's own model (it then uses agents.defaults). */
  model?: string | null;
  /** Models tried after `model`, in order (Hearth's; kept with the model as `{ primary, fallbacks }`). */
  fallbacks?: string[];
  /** The tool profile (`minimal | coding | full | custom`, docs/TOOLS.md). */
  toolProfile?: NonNullable<RosterEntry['tools']>['profile'];
  emoji?: string;
  /** An image address or data: URL; "" clears it. */
  avatar?: string;
  /** `hearth` (its own model loop) or an agent CLI backend (`agents.list[].engine`, docs/AGENT.md). */
  engine?: 'hearth' | AgentEngine;
  /** `agents.list[].memory.scope`; null: the agent follows `memory.scope`. */
  memoryScope?: 'per-agent' | 'per-user' | null;
  /** Laid over the agent's own exec policy (`tools.exec`); null removes its own policy. */
  exec?: Pick<ExecFile, 'security' | 'ask' | 'askFallback'> | null;
  /** Replaces every `agents.bindings[]` entry that routes to this agent. */
  bindings?: BindingMatch[];
}

/** `agents.list[].engine`: the agent CLI backend that answers instead of the model loop. */
export type AgentEngine = NonNullable<RosterEntry['engine']>;

/** `agents.bindings[].match`: a channel, optionally narrowed to an account, a peer or a guild. */
export type BindingMatch = RosterBinding['match'];

export const MAIN_AGENT_ID = 'main';
const MAX_ID_LENGTH = 64;

/**
 * An id from a display name: "Research Bot" → `research-bot`. Letters outside a–z (a Chinese name,
 * say) leave nothing to keep, so such a name becomes `agent`; a taken id gets `-2`, `-3`, ….
 */
export function agentIdFromName(name: string, taken: ReadonlySet<string>): string {
  const slug =
    name
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9_-]+/g, '-')
      .replace(/^[-_]+|[-_]+$/g, '')
      .slice(0, MAX_ID_LENGTH - 4) || 'agent';
  if (!taken.has(slug) && slug !== MAIN_AGENT_ID) return slug;
  for (let n = 2; ; n++) {
    const candidate = `${slug}-${n}`;
    if (!taken.has(candidate)) return candidate;
  }
}

/** A nested object of the entry with `key` set or (undefined) removed; undefined when that empties it. */
function withKey<T extends object, K extends keyof T>(nested: T | undefined, key: K, value: T[K] | undefined) {
  const next: Partial<T> = { ...nested };
  if (value === undefined) delete next[key];
  else next[key] = value;
  return Object.keys(next).length > 0 ? next : undefined;
}

/**
 * `defaults`: the root `tools.exec` as the file holds it. An agent's own exec policy replaces the
 * root one whole, so its first override starts from the root's (its allowlist is kept).
 */
function applySettings(entry: RosterEntry, settings: AgentSettings, defaults: RosterDefaults = {}): RosterEntry {
  const next: RosterEntry = { ...entry };
  if (settings.name !== undefined) {
    const name = settings.name.trim();
    if (!name) throw new HearthError('bad_request', 'agent name must not be empty');
    next.name = name;
  }
  if (settings.workspace !== undefined) next.workspace = settings.workspace;
  if (settings.emoji === '') delete next.emoji;
  else if (settings.emoji !== undefined) next.emoji = settings.emoji;
  if (settings.avatar === '') delete next.avatar;
  else if (settings.avatar !== undefined) next.avatar = settings.avatar;
  if (settings.engine === 'hearth') delete next.engine;
  else if (settings.engine !== undefined) next.engine = { ...settings.engine };
  if (settings.memoryScope !== undefined) {
    next.memory = withKey(next.memory, 'scope', settings.memoryScope ?? undefined);
    if (!next.memory) delete next.memory;
  }
  if (settings.exec === null) {
    next.tools = withKey(next.tools, 'exec', undefined);
    if (!next.tools) delete next.tools;
  } else if (settings.exec !== undefined) {
    const own = next.tools?.exec;
    next.tools = withKey(next.tools, 'exec', { ...(own ?? defaults.exec ?? {}), ...definedOnly(settings.exec) });
  }
  if (settings.model === null) delete next.model;
  else if (settings.model !== undefined || settings.fallbacks !== undefined) {
    const primary = settings.model ?? primaryOf(next.model);
    if (!primary) throw new HearthError('bad_request', 'fallbacks need a model: set model as well');
    next.model = settings.fallbacks?.length ? { primary, fallbacks: settings.fallbacks } : primary;
  }
  if (settings.toolProfile !== undefined) next.tools = { ...next.tools, profile: settings.toolProfile };
  return next;
}

/** `model` is `provider/model` or `{ primary, fallbacks }` (the runtime's own schema checks the object's keys). */
function primaryOf(model: RosterEntry['model']): string | undefined {
  if (typeof model === 'string') return model;
  return typeof model?.primary === 'string' ? model.primary : undefined;
}

/** The object without its undefined keys, in the same order (hearth.json names only what is set). */
function definedOnly<T extends object>(value: T): T {
  const next = { ...value };
  for (const key of Object.keys(next)) if (Reflect.get(next, key) === undefined) Reflect.deleteProperty(next, key);
  return next;
}

/** What a new setting may start from: the root exec policy (`tools.exec`) as written. */
export interface RosterDefaults {
  exec?: ExecFile;
}

/** The section's bindings with this agent's replaced by `matches` (kept in place of its first one). */
function rebind(bindings: RosterBinding[], agentId: string, matches: BindingMatch[] | undefined): RosterBinding[] {
  if (matches === undefined) return bindings;
  const seen = new Set<string>();
  const fresh: RosterBinding[] = [];
  for (const match of matches) {
    const key = JSON.stringify(match);
    if (seen.has(key)) continue;
    seen.add(key);
    fresh.push({ agentId, match: definedOnly(match) });
  }
  const at = bindings.findIndex((binding) => binding.agentId === agentId);
  const others = bindings.filter((binding) => binding.agentId !== agentId);
  const insertAt = at < 0 ? others.length : bindings.slice(0, at).filter((b) => b.agentId !== agentId).length;
  return [...others.slice(0, insertAt), ...fresh, ...others.slice(insertAt)];
}

function indexOf(section: RosterSection, agentId: string): number {
  const at = section.list.findIndex((entry) => entry.id === agentId);
  if (at < 0 && agentId !== MAIN_AGENT_ID)
    throw new HearthError('not_found', `no agent "${agentId}": hearth agents list shows the agents there are`);
  return at;
}

export function createAgent(
  section: RosterSection,
  settings: AgentSettings & { name: string; id?: string },
  defaults: RosterDefaults = {},
): { section: RosterSection; agentId: string } {
  const taken = new Set([MAIN_AGENT_ID, ...section.list.map((entry) => entry.id)]);
  const agentId = settings.id ?? agentIdFromName(settings.name, taken);
  if (!isValidAgentId(agentId))
    throw new HearthError(
      'bad_request',
      `agent id "${agentId}" is not valid: 1-64 lowercase letters, digits, "-" or "_", starting with a letter or digit`,
    );
  if (taken.has(agentId)) throw new HearthError('conflict', `an agent "${agentId}" already exists`);
  const entry = applySettings({ id: agentId }, settings, defaults);
  return {
    section: { list: [...section.list, entry], bindings: rebind(section.bindings, agentId, settings.bindings) },
    agentId,
  };
}

export function updateAgent(
  section: RosterSection,
  agentId: string,
  settings: AgentSettings,
  defaults: RosterDefaults = {},
): RosterSection {
  const at = indexOf(section, agentId);
  const list = [...section.list];
  // `main` may have no entry yet: its first setting creates one.
  if (at < 0) list.push(applySettings({ id: agentId }, settings, defaults));
  else list[at] = applySettings(list[at]!, settings, defaults);
  return { list, bindings: rebind(section.bindings, agentId, settings.bindings) };
}

export function removeAgent(
  section: RosterSection,
  agentId: string,
): { section: RosterSection; removed: RosterEntry; removedBindings: number } {
  if (agentId === MAIN_AGENT_ID) throw new HearthError('bad_request', 'the main agent cannot be removed');
  const at = indexOf(section, agentId);
  const removed = section.list[at]!;
  const bindings = section.bindings.filter((binding) => binding.agentId !== agentId);
  return {
    section: { list: section.list.filter((_, index) => index !== at), bindings },
    removed,
    removedBindings: section.bindings.length - bindings.length,
  };
}

/** One agent's settings as the editor shows them (`agents.get`), read from its entry and bindings. */
export interface AgentView {
  agentId: string;
  name: string;
  emoji?: string;
  avatar?: string;
  model?: string;
  fallbacks: string[];
  toolProfile?: AgentSettings['toolProfile'];
  engine: 'hearth' | AgentEngine;
  memoryScope?: 'per-agent' | 'per-user';
  exec?: NonNullable<AgentSettings['exec']>;
  bindings: BindingMatch[];
  isDefault: boolean;
}

export function describeAgent(section: RosterSection, agentId: string): AgentView {
  const at = indexOf(section, agentId);
  const entry: RosterEntry = at < 0 ? { id: agentId } : section.list[at]!;
  const { model, tools } = entry;
  const scope = entry.memory?.scope;
  const exec = tools?.exec
    ? definedOnly({ security: tools.exec.security, ask: tools.exec.ask, askFallback: tools.exec.askFallback })
    : undefined;
  const primary = primaryOf(model);
  const isDefault =
    entry.default === true || (agentId === MAIN_AGENT_ID && !section.list.some((other) => other.default === true));
  return {
    agentId,
    name: typeof entry.name === 'string' && entry.name ? entry.name : agentId,
    ...(typeof entry.emoji === 'string' ? { emoji: entry.emoji } : {}),
    ...(typeof entry.avatar === 'string' ? { avatar: entry.avatar } : {}),
    ...(primary ? { model: primary } : {}),
    fallbacks: typeof model === 'object' && Array.isArray(model.fallbacks) ? model.fallbacks : [],
    ...(tools?.profile ? { toolProfile: tools.profile } : {}),
    engine: entry.engine ?? 'hearth',
    ...(scope === 'per-agent' || scope === 'per-user' ? { memoryScope: scope } : {}),
    ...(exec ? { exec } : {}),
    bindings: section.bindings.filter((binding) => binding.agentId === agentId).map((binding) => binding.match),
    isDefault,
  };
}
