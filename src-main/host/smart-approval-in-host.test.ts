import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
    await socket.request('chat.send', { sessionKey: 'main', message: 'read my notes', idempotencyKey: 's-1' });
    const final = await socket.next(
      (f) =>
        f.event === 'chat' &&
        (f.payload as { runId: string }).runId === 's-1' &&
        ['final', 'error'].includes((f.payload as { state: string }).state),
      20_000,
    );
    expect(final.payload).toMatchObject({ state: 'final' });
    expect(socket.frames.slice(mark).some((f) => f.event === 'exec.approval.requested')).toBe(false);
    expect(JSON.stringify(llm.requests.at(-1)!.body)).toContain('judged-and-run');
    const judged = llm.requests.find((r) => r.model === 'gpt-4o-mini');
    expect(JSON.stringify(judged?.body)).toContain('cat notes.txt');
    const history = await readFile(join(home, 'state', 'approvals-history.jsonl'), 'utf8');
    expect(history).toMatch(/smart|judge/i);
  });
});
