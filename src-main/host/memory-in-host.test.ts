import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ProductFixture, startProductFixture } from '../testing/product-fixture.js';
import { searchOnceIndexed } from '../testing/search-once-indexed.js';

// Memory in the composed product: hand-written notes get indexed, the Control UI's search
// finds them, active recall hands the model what it needs, and "remember …" is captured.

let product: ProductFixture;
let llm: ProductFixture['llm'];
let socket: ProductFixture['socket'];
let temp: { home: string };

beforeAll(async () => {
  product = await startProductFixture({
    before: async (home) => {
      const memoryDir = join(home, 'workspace', 'memory');
      await mkdir(memoryDir, { recursive: true });
      await writeFile(
        join(memoryDir, '2026-11-29.md'),
        "# Notes\n\n- The user's favourite colour is teal.\n- The user lives in Lisbon.\n",
      );
    },
  });
  ({ llm, socket } = product);
  temp = { home: product.home };
});
afterAll(async () => {
  await product?.close();
});

async function searchUntilFound(query: string): Promise<string> {
  const result = await searchOnceIndexed(socket, { query }, 'teal');
  return JSON.stringify(result.payload ?? result.error);
}

describe('memory through the gateway', () => {
  it('indexes a hand-written note and finds it', async () => {
    const text = await searchUntilFound('favourite colour');
    expect(text).toContain('memory/2026-11-29.md');
  });

  it('recalls the note for the model as a hidden prefix, without showing it in the transcript', async () => {
    llm.script([{ type: 'text', text: 'Your favourite colour is teal.' }]);
    await socket.request('chat.send', {
      sessionKey: 'main',
      message: "what's my favourite colour?",
      idempotencyKey: 'm-1',
    });
    await socket.next(
      (f) =>
        f.event === 'chat' &&
        (f.payload as { runId: string; state: string }).runId === 'm-1' &&
        (f.payload as { state: string }).state === 'final',
      20_000,
    );
    const sent = JSON.stringify(llm.requests.at(-1)!.body);
    expect(sent).toMatch(/teal/);
    const history = await socket.request('chat.history', { sessionKey: 'main' });
    const userTurns = (
      history.payload as { messages: { role: string; content: { text: string }[] }[] }
    ).messages.filter((m) => m.role === 'user');
    expect(userTurns.at(-1)!.content[0]!.text).toBe("what's my favourite colour?");
  });

  it('serves DREAMS.md and phase reports read-only, and nothing outside memory', async () => {
    await writeFile(join(temp.home, 'workspace', 'DREAMS.md'), '# Dreams\n\nI noticed teal again.\n');
    const diary = await socket.request('memory.file.get', { path: 'DREAMS.md' });
    expect(diary.payload).toMatchObject({ content: expect.stringContaining('I noticed teal again.') });
    const outside = await socket.request('memory.file.get', { path: '../hearth.json' });
    expect(outside.ok).toBe(false);
    const write = await socket.request('memory.file.set', { path: 'DREAMS.md', content: 'overwritten' });
    expect(write.ok).toBe(false);
  });

  it('captures "remember …" into today\'s daily file', async () => {
    llm.script([{ type: 'text', text: 'Noted.' }]);
    await socket.request('chat.send', {
      sessionKey: 'main',
      message: 'remember that my dog is called Biscuit',
      idempotencyKey: 'm-2',
    });
    await socket.next(
      (f) =>
        f.event === 'chat' &&
        (f.payload as { runId: string; state: string }).runId === 'm-2' &&
        (f.payload as { state: string }).state === 'final',
      20_000,
    );
    const memoryDir = join(temp.home, 'workspace', 'memory');
    let found = '';
    for (let attempt = 0; attempt < 50 && !found.includes('Biscuit'); attempt++) {
      const files = (await readdir(memoryDir)).filter(
        (f) => /^\d{4}-\d{2}-\d{2}\.md$/.test(f) && f !== '2026-11-29.md',
      );
      found = (await Promise.all(files.map((f) => readFile(join(memoryDir, f), 'utf8')))).join('\n');
      if (!found.includes('Biscuit')) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(found).toContain('Biscuit');
  });
});

describe('/new', () => {
  it('starts a fresh session and archives the old one into memory', async () => {
    const sent = await socket.request('chat.send', { sessionKey: 'main', message: '/new', idempotencyKey: 'new-1' });
    const command = (sent.payload as { command: { ok: boolean; reply: string } }).command;
    expect(command.ok).toBe(true);
    const archived = /memory\/\d{4}-\d{2}-\d{2}-[a-z0-9-]+\.md/.exec(command.reply)?.[0];
    expect(archived).toBeDefined();
    const text = await readFile(join(temp.home, 'workspace', archived!), 'utf8');
    expect(text).toContain("what's my favourite colour?");
    expect(text).toContain('Your favourite colour is teal.');
    const history = await socket.request('chat.history', { sessionKey: 'main' });
    expect((history.payload as { messages: unknown[] }).messages).toEqual([]);
  });
});
