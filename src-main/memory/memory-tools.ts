import { posix } from 'node:path';
import { z } from 'zod';
import type { ToolContext, ToolDefinition } from '../tools/tool.js';
import { classifyCapture } from './capture.js';
import { readMemoryFile } from './memory-files.js';
import type { MemoryService } from './memory-service.js';
import { type QueryRewriter, searchRewritten } from './query-rewrite.js';

const searchInput = z
  .object({ query: z.string().min(1).max(500), k: z.number().int().min(1).max(20).optional() })
  .strict();
const getInput = z
  .object({
    path: z.string().min(1).max(256),
    startLine: z.number().int().min(1).optional(),
    endLine: z.number().int().min(1).optional(),
  })
  .strict();
const writeInput = z
  .object({
    text: z.string().min(3).max(2000),
    category: z.enum(['preference', 'decision', 'entity', 'fact', 'other']).optional(),
  })
  .strict();

export interface MemoryToolsOptions {
  /** An agent's query rewriter (`memory.queryRewrite`), when one is on. */
  rewriter?(agentId: string): QueryRewriter | undefined;
}

/** The model's three memory tools; every call is confined to the caller's scope. */
export function createMemoryTools(memory: MemoryService, options: MemoryToolsOptions = {}): ToolDefinition[] {
  const scoped = async (context: ToolContext) => {
    const engine = await memory.engine(context.agentId);
    return { engine, scope: engine.scopeFor(context.userId) };
  };
  const inScope = (root: string, path: string) => (root ? path.startsWith(`${root}/`) : !path.startsWith('users/'));

  const search: ToolDefinition<z.infer<typeof searchInput>> = {
    name: 'memory_search',
    description: 'Search long-term memory (daily notes, MEMORY.md). Returns path:lines and snippets.',
    inputSchema: searchInput,
    async execute(input, context) {
      const { engine, scope } = await scoped(context);
      const k = input.k ?? 5;
      const variants = (await options.rewriter?.(context.agentId)?.rewrite(input.query, context.signal)) ?? [];
      // Only the query as the model wrote it is recorded for Dreaming; rewrites only widen the net.
      const results = await searchRewritten(input.query, variants, k, (query, original) =>
        engine.search(query, { scope, k, signal: context.signal, record: original }),
      );
      if (results.length === 0) return { output: 'No matching memories.' };
      return {
        output: results
          .map(
            (result) =>
              `${result.path}:${result.startLine}-${result.endLine} (score ${result.score.toFixed(2)})\n${result.snippet}`,
          )
          .join('\n\n'),
      };
    },
  };

  const get: ToolDefinition<z.infer<typeof getInput>> = {
    name: 'memory_get',
    description: 'Read a memory file (MEMORY.md, USER.md, memory/YYYY-MM-DD.md), optionally only some lines.',
    inputSchema: getInput,
    async execute(input, context) {
      const { engine, scope } = await scoped(context);
      // Normalise before the scope check so "../other-user/…" cannot step out of the caller's folder.
      const joined =
        scope.root && !input.path.startsWith(`${scope.root}/`) ? `${scope.root}/${input.path}` : input.path;
      const path = posix.normalize(joined);
      if (path.startsWith('..') || !inScope(scope.root, path))
        return { output: `not your memory file: ${input.path}`, isError: true };
      try {
        const lines = (await readMemoryFile(engine.workspaceDir, path)).replace(/\n$/, '').split('\n');
        const start = input.startLine ?? 1;
        const end = Math.min(lines.length, input.endLine ?? lines.length);
        if (start > end) return { output: `startLine ${start} is after endLine ${end}`, isError: true };
        return { output: lines.slice(start - 1, end).join('\n') };
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        return {
          output: code === 'ENOENT' ? `no such memory file: ${input.path}` : String((error as Error).message),
          isError: true,
        };
      }
    },
  };

  const write: ToolDefinition<z.infer<typeof writeInput>> = {
    name: 'memory_write',
    description: "Save a durable note to today's memory file (preference, decision, entity, fact or other).",
    inputSchema: writeInput,
    async execute(input, context) {
      const { engine, scope } = await scoped(context);
      const path = await engine.appendDaily(scope, input.text, {
        category: input.category ?? classifyCapture(input.text) ?? 'other',
      });
      void engine.sync().catch(() => undefined);
      return { output: `Saved to ${path}.` };
    },
  };

  return [search, get, write] as ToolDefinition[];
}
