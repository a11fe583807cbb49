import type { OnDemandTools, ToolDefinition } from '../tool.js';
import { profileCoreNames, type ToolCatalogueSettings } from './catalogue-config.js';
import { createCatalogueTools, TOOLS_LOAD, TOOLS_SEARCH } from './catalogue-tools.js';
import { loadedToolNames } from './loaded-tools.js';

/** One tool as the catalogue lists it: what `tools_search` answers with. */
export interface CatalogueEntry {
  name: string;
  /** The first sentence of the tool's description, at most 120 characters. */
  summary: string;
  source: NonNullable<ToolDefinition['source']>;
  tool: ToolDefinition;
}

/** The tools of one turn: the core (sent every call) and the rest (found and loaded on demand). */
export interface TurnToolSet {
  core: readonly ToolDefinition[];
  /** Undefined with the `full` profile: everything is already core. */
  onDemand?: OnDemandTools;
  /** Every tool the agent may use this turn, core or not. */
  entries: readonly CatalogueEntry[];
  /** The tools' `promptLine`s, for the system prompt (stable while the tool set is). */
  promptLines: readonly string[];
}

export interface ToolCatalogueDeps {
  /** Every registered tool (built-in, plugin, channel, MCP), read each turn: capabilities add and remove theirs live. */
  tools(): readonly ToolDefinition[];
  settingsFor(agentId: string): ToolCatalogueSettings;
}

export interface ToolCatalogue {
  /** `extra`: this turn's tools from elsewhere (an agent's MCP servers), `mcp` unless they say. */
  forTurn(agentId: string, extra?: readonly ToolDefinition[]): TurnToolSet;
}

export function oneLine(description: string): string {
  const first = description.trim().split('\n')[0] ?? '';
  const sentence = /^(.+?[.!?])(\s|$)/.exec(first)?.[1] ?? first;
  return sentence.length <= 120 ? sentence : `${sentence.slice(0, 119).trimEnd()}…`;
}

/**
 * The catalogue of every tool. Per turn it splits them by the agent's profile into a small core,
 * always sent, and the rest, which the model finds with `tools_search` and loads with
 * `tools_load`. Which tools are loaded is read from the conversation itself (the successful
 * `tools_load` calls in it), so a loaded tool stays for the rest of the session, survives a
 * restart, and the prompt of the next turn starts exactly as the last call of this one ended.
 */
export function createToolCatalogue(deps: ToolCatalogueDeps): ToolCatalogue {
  // A turn's set is the same as the last one of its agent while the tools and settings are: it is
  // kept, so the prompt lines, summaries and the catalogue tools (whose schemas the agent loop
  // converts once per schema object) are not made again every turn.
  const lastSets = new Map<
    string,
    { settings: string; tools: readonly ToolDefinition[]; extra: readonly ToolDefinition[]; set: TurnToolSet }
  >();
  const sameTools = (a: readonly ToolDefinition[], b: readonly ToolDefinition[]) =>
    a.length === b.length && a.every((tool, index) => tool === b[index]);
  return {
    forTurn(agentId, extra = []) {
      const settings = deps.settingsFor(agentId);
      const tools = [...deps.tools()];
      const settingsKey = JSON.stringify(settings);
      const last = lastSets.get(agentId);
      if (last && last.settings === settingsKey && sameTools(last.tools, tools) && sameTools(last.extra, extra)) {
        return last.set;
      }
      const set = buildSet(settings, tools, extra);
      lastSets.set(agentId, { settings: settingsKey, tools, extra: [...extra], set });
      return set;
    },
  };
}

function buildSet(
  settings: ToolCatalogueSettings,
  tools: readonly ToolDefinition[],
  extra: readonly ToolDefinition[],
): TurnToolSet {
  const denied = new Set(settings.deny);
  const seen = new Set<string>([TOOLS_SEARCH, TOOLS_LOAD]);
  const entries: CatalogueEntry[] = [];
  const add = (tool: ToolDefinition, source: CatalogueEntry['source']) => {
    // The first registration of a name wins; a plugin or MCP server cannot shadow a built-in.
    if (seen.has(tool.name) || denied.has(tool.name)) return;
    seen.add(tool.name);
    entries.push({ name: tool.name, summary: oneLine(tool.description), source: tool.source ?? source, tool });
  };
  for (const tool of tools) add(tool, 'builtin');
  for (const tool of extra) add(tool, 'mcp');
  const coreNames = settings.profile === 'full' ? new Set(seen) : profileCoreNames(settings);
  const promptLines = promptLinesOf(entries, coreNames);
  if (settings.profile === 'full') return { core: entries.map((entry) => entry.tool), entries, promptLines };

  const core = entries.filter((entry) => coreNames.has(entry.name)).map((entry) => entry.tool);
  const rest = entries.filter((entry) => !coreNames.has(entry.name));
  if (rest.length === 0) return { core, entries, promptLines };
  const byName = new Map(rest.map((entry) => [entry.name, entry]));
  const catalogueTools = createCatalogueTools({ entries: rest, core: new Set(core.map((tool) => tool.name)) });
  return {
    core: [...core, ...catalogueTools],
    entries,
    promptLines,
    onDemand: {
      callable: rest.map((entry) => entry.tool),
      loaded: (messages) =>
        loadedToolNames(messages)
          .map((name) => byName.get(name)?.tool)
          .filter((tool): tool is ToolDefinition => tool !== undefined),
    },
  };
}

function promptLinesOf(entries: readonly CatalogueEntry[], core: ReadonlySet<string>): string[] {
  const lines: string[] = [];
  for (const { tool } of entries) {
    if (!tool.promptLine) continue;
    const line = core.has(tool.name) ? tool.promptLine : `${tool.promptLine} (load ${tool.name} with tools_load)`;
    if (!lines.includes(line)) lines.push(line);
  }
  return lines;
}
