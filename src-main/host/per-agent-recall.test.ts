import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plantRecalls } from '../testing/planted-recalls.js';
import { type ProductFixture, startProductFixture } from '../testing/product-fixture.js';
import { searchOnceIndexed } from '../testing/search-once-indexed.js';

// Active recall is configured per agent: `agents.list[].memory.recall` changes the shared
// `memory.recall` for one agent, and an edit applies from the next turn; model recall and each
// agent's dream diary use that agent's own model.

const NOTE = '- My sailing boat Seabird is moored at pier 7 in Cascais.\n';
const QUESTION = 'Where is my sailing boat Seabird moored?';
let product: ProductFixture;

const agentsWith = (quietRecall: Record<string, unknown>) => ({
  defaults: { model: 'openai/gpt-4o' },
  list: [
    { id: 'main', default: true },
    { id: 'quiet', model: 'openai/gpt-4o-mini', memory: { recall: quietRecall } },
  ],
});

beforeAll(async () => {
  product = await startProductFixture({
    config: { agents: agentsWith({ enabled: false }) },
    before: async (home) => {
      for (const workspace of ['workspace', 'workspace-quiet']) {
        await mkdir(join(home, workspace, 'memory'), { recursive: true });
        await writeFile(join(home, workspace, 'memory', '2026-11-28.md'), NOTE);
      }
    },
  });
  for (const agentId of ['main', 'quiet']) {
    await searchOnceIndexed(product.socket, { agentId, query: 'sailing boat Seabird' }, 'pier 7');
  }
});
afterAll(async () => {
  await product?.close();
});

/** The user message the model received, hidden recall prefix included. */
async function userMessageSeen(key: string, sessionKey: string): Promise<string> {
  product.llm.script([{ type: 'text', text: 'Sure.' }]);
  expect(await product.turn(key, QUESTION, sessionKey)).toMatchObject({ state: 'final' });
  return product.llm.requests.at(-1)!.lastUserText;
}

describe('active recall per agent', () => {
  it('an agent with recall turned off gets no memory prefix, while the others do', async () => {
    expect(await userMessageSeen('main-1', 'main')).toMatch(/^Memory: .*pier 7/);
    expect(await userMessageSeen('quiet-1', 'agent:quiet:main')).toBe(QUESTION);
  });

  it('an edit of the agent’s recall settings applies from the next turn', async () => {
    const patched = await product.socket.request('config.patch', {
      patch: { agents: agentsWith({ enabled: true, style: 'recall-heavy' }) },
    });
    expect(patched.ok).toBe(true);
    let seen = '';
    for (let attempt = 0; attempt < 20 && !seen.startsWith('Memory:'); attempt++) {
      seen = await userMessageSeen(`quiet-2-${attempt}`, 'agent:quiet:main');
    }
    expect(seen).toMatch(/^Memory: .*pier 7/);
  });

  it('model recall asks the agent’s own model, and its summary reaches the turn', async () => {
    // The wiring of memory/model-recall.ts (tested there): the agent's primary model, the host's completion.
    const patched = await product.socket.request('config.patch', {
      patch: { agents: agentsWith({ enabled: true, style: 'strict', model: true }) },
    });
    expect(patched.ok).toBe(true);
    product.llm.script([
      { type: 'text', text: 'RECALL-MARKER: the boat is at pier 7 in Cascais.' },
      { type: 'text', text: 'It is at pier 7.' },
    ]);
    const before = product.llm.requests.length;
    const end = await product.turn('quiet-model-1', 'where did I leave the boat last weekend?', 'agent:quiet:main');
    expect(end).toMatchObject({ state: 'final' });
    const requests = product.llm.requests.slice(before);
    expect(requests).toHaveLength(2);
    expect(requests[0]).toMatchObject({ model: 'gpt-4o-mini' });
    expect(JSON.stringify(requests[0]!.body)).toContain('Memory notes:');
    expect(requests[1]!.lastUserText).toMatch(/^RECALL-MARKER/);
  });

  it('refuses a recall setting that does not exist, naming where', async () => {
    const refused = await product.socket.request('config.patch', {
      patch: { agents: agentsWith({ mode: 'sometimes' }) },
    });
    expect(refused.ok).toBe(false);
    expect(JSON.stringify(refused.error)).toMatch(/agents\.list\.1\.memory\.recall\.mode/);
  });

  it('writes each agent’s dream diary with that agent’s model', async () => {
    // A run that finds nothing writes nothing: give this agent's Dreaming a note to promote.
    await plantRecalls(
      join(product.home, 'workspace-quiet'),
      [{ text: NOTE.slice(2).trim(), path: 'memory/2026-11-28.md', line: 1 }],
      new Date(),
    );
    product.llm.script([{ type: 'text', text: 'Tonight I wandered through a harbour of notes.' }]);
    const run = await product.socket.request('dreams.run', { agentId: 'quiet', apply: true });
    expect(run.ok).toBe(true);
    expect(product.llm.requests.at(-1)!.model).toBe('gpt-4o-mini');
    const diary = await readFile(join(product.home, 'workspace-quiet', 'DREAMS.md'), 'utf8');
    expect(diary).toContain('harbour of notes');
  });
});
