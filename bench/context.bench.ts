import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { zodSchema } from 'ai';
import { z } from 'zod';
import { buildSystemPrompt, createBootstrapLoader, seedWorkspace } from '../src-main/agent/bootstrap/index.js';
import {
  computePromptBudget,
  countRawTokens,
  createCompactionPolicy,
  createRunContextHooks,
  estimateTokens,
  LinearContextEngine,
  type Summarizer,
} from '../src-main/agent/context/index.js';
import { silentLogger } from '../src-main/base/index.js';
import { createFakeClock } from '../src-main/testing/fake-clock.js';
import { type BenchResult, percentile } from './bench-result.js';

/**
 * Prompt tokens per turn (issue 4): the fixed 5-turn conversation with the default workspace
 * and a representative tool set, counted as the fake LLM counts them (o200k over the JSON the
 * AI SDK sends), split by part; then a 300-turn run under compaction.
 */

const templatesDir = resolve(import.meta.dirname, '../resources/workspace');

/** The default tool set, with descriptions as short as the tool contract asks. */
const tools: Record<string, { description: string; schema: z.ZodType<Record<string, unknown>> }> = {
  exec: {
    description: 'Run a shell command in the workspace; returns stdout, stderr and exit code.',
    schema: z.object({
      command: z.string().describe('shell command'),
      cwd: z.string().optional().describe('working folder'),
      timeoutSec: z.number().int().optional(),
    }),
  },
  memory_search: {
    description: 'Search long-term memory (notes, past conversations). Use before answering about the past.',
    schema: z.object({ query: z.string(), limit: z.number().int().optional() }),
  },
  memory_get: {
    description: 'Read a memory file or a line range of it.',
    schema: z.object({ path: z.string(), from: z.number().int().optional(), lines: z.number().int().optional() }),
  },
  memory_write: {
    description: 'Save a durable fact (preference, decision, name, date) to memory.',
    schema: z.object({
      text: z.string(),
      category: z.enum(['preference', 'decision', 'entity', 'fact', 'other']).optional(),
    }),
  },
  read_file: {
    description: 'Read a text file.',
    schema: z.object({ path: z.string(), offset: z.number().int().optional(), limit: z.number().int().optional() }),
  },
  write_file: {
    description: 'Create or overwrite a text file.',
    schema: z.object({ path: z.string(), content: z.string() }),
  },
};

async function toolPayload(): Promise<unknown[]> {
  // The shape @ai-sdk/openai sends for chat completions.
  return Promise.all(
    Object.entries(tools).map(async ([name, tool]) => ({
      type: 'function',
      function: { name, description: tool.description, parameters: await zodSchema(tool.schema).jsonSchema },
    })),
  );
}

type WireMessage = { role: string; content: string | null; tool_calls?: unknown[]; tool_call_id?: string };

/** The fixed conversation; the "remember" turn saves with memory_write, as the system prompt asks. */
const conversation: { user: string; reply: WireMessage[] }[] = [
  { user: 'hi', reply: [{ role: 'assistant', content: 'Hi! What can I do for you?' }] },
  { user: "what's 2+2?", reply: [{ role: 'assistant', content: '4.' }] },
  {
    user: 'remember that my favourite colour is teal',
    reply: [
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_1',
            type: 'function',
            function: { name: 'memory_write', arguments: '{"text":"Favourite colour: teal","category":"preference"}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: 'Saved to memory/2026-11-30.md' },
      { role: 'assistant', content: "Got it: your favourite colour is teal. I'll remember." },
    ],
  },
  { user: "what's my favourite colour?", reply: [{ role: 'assistant', content: 'Teal.' }] },
  { user: 'thanks', reply: [{ role: 'assistant', content: "You're welcome!" }] },
];

const tokensOf = (value: unknown) => countRawTokens(typeof value === 'string' ? value : JSON.stringify(value));

async function fiveTurns(): Promise<BenchResult[]> {
  const workspaceDir = await mkdtemp(join(tmpdir(), 'hearth-bench-context-'));
  try {
    await seedWorkspace({ workspaceDir, templatesDir });
    const loader = createBootstrapLoader({ workspaceDir });
    const payload = await toolPayload();
    const toolTokens = tokensOf(payload);
    const results: BenchResult[] = [];
    const history: WireMessage[] = [];
    let previousPrefix: string | undefined;
    const cacheShares: number[] = [];
    const totals: number[] = [];
    for (const [index, turn] of conversation.entries()) {
      const bootstrap = await loader.load({
        agentId: 'main',
        runKind: 'default',
        sessionKind: 'main',
        sessionKey: 'agent:main:main',
      });
      const core = buildSystemPrompt({
        bootstrapText: '',
        memoryTools: { search: 'memory_search', write: 'memory_write' },
        skillNames: ['weather', 'calendar', 'summarize'],
      });
      const system = buildSystemPrompt({
        bootstrapText: bootstrap.text,
        memoryTools: { search: 'memory_search', write: 'memory_write' },
        skillNames: ['weather', 'calendar', 'summarize'],
      });
      history.push({ role: 'user', content: turn.user });
      const messages = [{ role: 'system', content: system }, ...history];
      const systemTokens = tokensOf(core);
      const bootstrapTokens = tokensOf(system) - systemTokens;
      const historyTokens = tokensOf(history);
      const total = tokensOf({ messages, tools: payload });
      // A provider cache reuses the longest unchanged prefix: the previous request minus its end.
      const wire = JSON.stringify({ tools: payload, messages });
      const prefix = previousPrefix !== undefined && wire.startsWith(previousPrefix) ? previousPrefix : '';
      const share = prefix ? countRawTokens(prefix) / countRawTokens(wire) : 0;
      previousPrefix = wire.slice(0, -2); // everything up to the closing "]}"
      cacheShares.push(share);
      totals.push(total);
      const n = index + 1;
      results.push(
        { name: `5-turn: turn ${n} prompt tokens`, value: total, unit: 'tokens', budget: '≤ 5 000 (OpenClaw ~13 600)' },
        {
          name: `5-turn: turn ${n} split`,
          value: historyTokens,
          unit: 'history tokens',
          note: `system ${systemTokens}, bootstrap files ${bootstrapTokens}, tool schemas ${toolTokens}, history ${historyTokens}; cacheable prefix ${(share * 100).toFixed(0)}%`,
        },
      );
      history.push(...turn.reply);
    }
    results.push({
      name: '5-turn: mean prompt tokens per turn',
      value: Math.round(totals.reduce((a, b) => a + b, 0) / totals.length),
      unit: 'tokens',
      budget: '≤ 5 000',
    });
    results.push({
      name: '5-turn: mean cacheable prefix share (turns 2-5)',
      value: Math.round((cacheShares.slice(1).reduce((a, b) => a + b, 0) / (cacheShares.length - 1)) * 100),
      unit: '%',
    });
    return results;
  } finally {
    await rm(workspaceDir, { recursive: true, force: true });
  }
}

const planted = (i: number) =>
  [
    `/home/user/projects/app-${i}/main.ts`,
    `https://docs.example.com/ref/${i}`,
    `renderWidget${i}`,
    `BUILD_${i}_FLAG`,
    `7${i}4031`,
  ][i % 5] ?? '';

async function longRun(): Promise<BenchResult[]> {
  const workspaceDir = await mkdtemp(join(tmpdir(), 'hearth-bench-context-long-'));
  try {
    let id = 0;
    const clock = createFakeClock();
    // A careless summarizer (keeps nothing specific) so survival is down to verification.
    const summarizer: Summarizer = async ({ messages }) =>
      `- ${messages.length} earlier messages about routine project work.`;
    const engine = new LinearContextEngine({
      agentId: 'main',
      sessionKey: 'agent:main:main',
      workspaceDir,
      summarizer,
      clock,
      newId: () => `m${++id}`,
      log: silentLogger,
    });
    const contextWindow = 32_000;
    const prompt = computePromptBudget({ contextWindow, reserveTokens: 4_000 });
    const hooks = createRunContextHooks({ engine, policy: createCompactionPolicy(), log: silentLogger, contextWindow });
    const fixedTokens = estimateTokens('x'.repeat(4_000)); // system prompt + tools, roughly as measured above
    const sent: number[] = [];
    const assembleMs: number[] = [];
    let compactions = 0;
    for (let turn = 0; turn < 300; turn += 1) {
      const plant = turn % 6 === 0 && turn / 6 < 50 ? ` Keep ${planted(turn / 6)} in mind.` : '';
      await engine.ingest({
        kind: 'user',
        id: `m${++id}`,
        ts: turn,
        text: `Turn ${turn}: next step of the project.${plant} ${'detail '.repeat(80)}`,
      });
      const before = engine.history()[0]?.id;
      const start = performance.now();
      const messages = await hooks.transformContext(engine.history(), {
        promptTokens: prompt.promptTokens,
        contextWindow,
        fixedTokens,
      });
      assembleMs.push(performance.now() - start);
      if (engine.history()[0]?.id !== before && engine.history()[0]?.kind === 'compaction_summary') compactions += 1;
      sent.push(fixedTokens + countRawTokens(JSON.stringify(messages)));
      await engine.ingest({
        kind: 'assistant',
        id: `m${++id}`,
        ts: turn,
        text: `Done with turn ${turn}. ${'result '.repeat(80)}`,
      });
    }
    const visible = engine
      .history()
      .map((m) => (m.kind === 'compaction_summary' ? m.summary : 'text' in m ? m.text : ''))
      .join('\n');
    const surviving = Array.from({ length: 50 }, (_, i) => planted(i)).filter((p) => visible.includes(p)).length;
    const sorted = [...sent].sort((a, b) => a - b);
    const ms = [...assembleMs].sort((a, b) => a - b);
    return [
      {
        name: '300-turn: max prompt tokens per turn',
        value: sorted.at(-1) ?? 0,
        unit: 'tokens',
        budget: `≤ ${prompt.promptTokens} (32k window, 4k reserve)`,
      },
      { name: '300-turn: median prompt tokens per turn', value: percentile(sorted, 50), unit: 'tokens' },
      { name: '300-turn: compactions', value: compactions, unit: 'count' },
      { name: '300-turn: planted identifiers surviving', value: surviving, unit: 'of 50', budget: '50' },
      { name: '300-turn: transformContext p95', value: Number(percentile(ms, 95).toFixed(2)), unit: 'ms' },
    ];
  } finally {
    await rm(workspaceDir, { recursive: true, force: true });
  }
}

export async function run(): Promise<BenchResult[]> {
  return [...(await fiveTurns()), ...(await longRun())];
}
