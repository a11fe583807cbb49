import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatTurn } from '../testing/chat-turn.js';
import { type ProductFixture, startProductFixture } from '../testing/product-fixture.js';

// Smart approval in the composed product: the judge model approves a harmless command
// (no human is asked) and every decision is recorded with who decided.

let product: ProductFixture;

beforeAll(async () => {
  product = await startProductFixture({
    config: { tools: { exec: { approvals: { mode: 'smart', model: 'openai/gpt-4o-mini' } } } },
  });
});
afterAll(async () => {
  await product?.close();
});

describe('smart approval through the gateway', () => {
  it('lets the judge model approve a harmless command without asking a person', async () => {
    const { llm, socket, home } = product;
    await writeFile(join(home, 'workspace', 'notes.txt'), 'judged-and-run');
    llm.script([{ type: 'text', text: 'APPROVE' }], { model: 'gpt-4o-mini' });
    llm.script(
      [
        { type: 'tool_calls', calls: [{ name: 'exec', input: { command: 'cat notes.txt' } }] },
        { type: 'text', text: 'Read it.' },
      ],
      { model: 'gpt-4o' },
    );
    const mark = socket.frames.length;
    expect(await chatTurn(socket, { key: 's-1', message: 'read my notes' }, 20_000)).toMatchObject({
      state: 'final',
    });
    expect(socket.frames.slice(mark).some((f) => f.event === 'exec.approval.requested')).toBe(false);
    expect(JSON.stringify(llm.requests.at(-1)!.body)).toContain('judged-and-run');
    const judged = llm.requests.find((r) => r.model === 'gpt-4o-mini');
    expect(JSON.stringify(judged?.body)).toContain('cat notes.txt');
    const history = await readFile(join(home, 'state', 'approvals-history.jsonl'), 'utf8');
    expect(history).toMatch(/smart|judge/i);
  });
});
