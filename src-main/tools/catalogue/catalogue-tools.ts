import { z } from 'zod';
import type { ToolDefinition } from '../tool.js';
import { TOOLS_LOAD_NAME } from './loaded-tools.js';
import type { CatalogueEntry } from './tool-catalogue.js';

export const TOOLS_SEARCH = 'tools_search';
export const TOOLS_LOAD = TOOLS_LOAD_NAME;

const MAX_RESULTS = 12;

function words(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 0);
}

/** Name words weigh most, then description words; a query word may be a prefix ("sched" finds "schedule"). */
export function scoreEntry(entry: CatalogueEntry, query: readonly string[]): number {
  const nameWords = words(entry.name);
  const descriptionWords = words(`${entry.tool.description} ${entry.source}`);
  let score = 0;
  for (const word of query) {
    if (nameWords.includes(word)) score += 4;
    else if (nameWords.some((candidate) => candidate.startsWith(word) || word.startsWith(candidate))) score += 2;
    if (descriptionWords.includes(word)) score += 2;
    else if (word.length >= 3 && descriptionWords.some((candidate) => candidate.startsWith(word))) score += 1;
  }
  return score;
}

function row(entry: CatalogueEntry): string {
  const source = entry.source === 'builtin' ? '' : ` [${entry.source}]`;
  return `${entry.name}${source}: ${entry.summary}`;
}

/** `tools_search` and `tools_load` over one turn's non-core tools. */
export function createCatalogueTools(input: {
  entries: readonly CatalogueEntry[];
  core: ReadonlySet<string>;
}): ToolDefinition[] {
  const { entries, core } = input;
  const byName = new Map(entries.map((entry) => [entry.name, entry]));

  const searchInput = z
    .object({
      query: z.string().max(200).describe('what the tool should do, e.g. "schedule a reminder"; "" lists all'),
    })
    .strict();
  const search: ToolDefinition<z.infer<typeof searchInput>> = {
    name: TOOLS_SEARCH,
    description:
      'Find tools not loaded yet (cron, canvas, past sessions, web, plugins, MCP…) by what they do. Returns names and one-line descriptions; load them with tools_load.',
    inputSchema: searchInput,
    async execute({ query }) {
      const asked = words(query);
      const ranked =
        asked.length === 0
          ? [...entries].sort((a, b) => a.name.localeCompare(b.name))
          : entries
              .map((entry) => ({ entry, score: scoreEntry(entry, asked) }))
              .filter(({ score }) => score > 0)
              .sort((a, b) => b.score - a.score || a.entry.name.localeCompare(b.entry.name))
              .map(({ entry }) => entry);
      if (ranked.length === 0) {
        return { output: `No tool matches "${query}". ${entries.length} tools can be loaded; search "" to list them.` };
      }
      const shown = ranked.slice(0, MAX_RESULTS);
      const more = ranked.length > shown.length ? `\n(+${ranked.length - shown.length} more; narrow the query)` : '';
      return { output: `${shown.map(row).join('\n')}${more}\nLoad with tools_load {"names": [...]}.` };
    },
  };

  const loadInput = z
    .object({ names: z.array(z.string().min(1)).min(1).max(32).describe('tool names from tools_search') })
    .strict();
  const load: ToolDefinition<z.infer<typeof loadInput>> = {
    name: TOOLS_LOAD,
    description: 'Load tools by name; they can be called from your next step on.',
    inputSchema: loadInput,
    async execute({ names }) {
      const unique = [...new Set(names)];
      const found = unique.filter((name) => byName.has(name));
      const already = unique.filter((name) => core.has(name));
      const unknown = unique.filter((name) => !byName.has(name) && !core.has(name));
      const parts: string[] = [];
      if (found.length > 0) parts.push(`Loaded: ${found.join(', ')}. Call them from your next step.`);
      if (already.length > 0) parts.push(`Already available: ${already.join(', ')}.`);
      if (unknown.length > 0) {
        const hints = unknown.map((name) => {
          const close = entries
            .map((entry) => ({ entry, score: scoreEntry(entry, words(name)) }))
            .filter(({ score }) => score > 0)
            .sort((a, b) => b.score - a.score)[0]?.entry.name;
          return close ? `${name} (did you mean ${close}?)` : name;
        });
        parts.push(`No such tool: ${hints.join(', ')}. Find names with tools_search.`);
      }
      return { output: parts.join('\n'), isError: found.length === 0 && already.length === 0 };
    },
  };
  return [search, load] as ToolDefinition[];
}
