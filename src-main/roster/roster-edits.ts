import { HearthError } from '../base/errors.js';
import { isValidAgentId } from '../sessions/index.js';

/**
 * The agents a person keeps in hearth.json (`agents.list[]`, `agents.bindings[]`), edited as data:
 * each edit takes the file's own section and returns the next one, so the caller writes it in one
 * config patch and nothing is ever half-changed. `main` always exists (it needs no entry) and
 * cannot be removed.
 */

/** One `agents.list[]` entry as the file holds it: Hearth's keys plus whatever other capabilities keep there. */
export type RosterEntry = { id: string; name?: string; [key: string]: unknown };
export type RosterBinding = { agentId: string; [key: string]: unknown };

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
  toolProfile?: string;
  emoji?: string;
  avatar?: string;
}

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

function applySettings(entry: RosterEntry, settings: AgentSettings): RosterEntry {
  const next: RosterEntry = { ...entry };
  if (settings.name !== undefined) {
    const name = settings.name.trim();
    if (!name) throw new HearthError('bad_request', 'agent name must not be empty');
    next.name = name;
  }
  if (settings.workspace !== undefined) next.workspace = settings.workspace;
  if (settings.emoji !== undefined) next.emoji = settings.emoji;
  if (settings.avatar !== undefined) next.avatar = settings.avatar;
  if (settings.model === null) delete next.model;
  else if (settings.model !== undefined || settings.fallbacks !== undefined) {
    const current = next.model;
    const primary =
      settings.model ??
      (typeof current === 'string' ? current : (current as { primary?: string } | undefined)?.primary);
    if (!primary) throw new HearthError('bad_request', 'fallbacks need a model: set model as well');
    next.model = settings.fallbacks?.length ? { primary, fallbacks: settings.fallbacks } : primary;
  }
  if (settings.toolProfile !== undefined) {
    const tools = (next.tools ?? {}) as Record<string, unknown>;
    next.tools = { ...tools, profile: settings.toolProfile };
  }
  return next;
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
): { section: RosterSection; agentId: string } {
  const taken = new Set([MAIN_AGENT_ID, ...section.list.map((entry) => entry.id)]);
  const agentId = settings.id ?? agentIdFromName(settings.name, taken);
  if (!isValidAgentId(agentId))
    throw new HearthError(
      'bad_request',
      `agent id "${agentId}" is not valid: 1-64 lowercase letters, digits, "-" or "_", starting with a letter or digit`,
    );
  if (taken.has(agentId)) throw new HearthError('conflict', `an agent "${agentId}" already exists`);
  const entry = applySettings({ id: agentId }, settings);
  return { section: { ...section, list: [...section.list, entry] }, agentId };
}

export function updateAgent(section: RosterSection, agentId: string, settings: AgentSettings): RosterSection {
  const at = indexOf(section, agentId);
  const list = [...section.list];
  // `main` may have no entry yet: its first setting creates one.
  if (at < 0) list.push(applySettings({ id: agentId }, settings));
  else list[at] = applySettings(list[at]!, settings);
  return { ...section, list };
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
