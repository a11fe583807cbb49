import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatTurn } from '../testing/chat-turn.js';
import { type ProductFixture, startProductFixture } from '../testing/product-fixture.js';
import { searchOnceIndexed } from '../testing/search-once-indexed.js';

// Two people talk to the same agent from their own chats. With memory.scope "per-user", what one
// of them told it never reaches the other — not through recall, not through the memory tools.
// The wiring, one turn each: a channel's direct chat → its linked person → that person's scope.
// The scoping itself is tested beside memory/ (active-recall, memory-recall-tools) and
// host/session-person.

let product: ProductFixture;

beforeAll(async () => {
  product = await startProductFixture({
    config: { memory: { scope: 'per-user', identityLinks: { alice: ['telegram:alice'], bob: ['telegram:bob'] } } },
    before: async (home) => {
      const aliceDir = join(home, 'workspace', 'users', 'alice', 'memory');
      await mkdir(aliceDir, { recursive: true });
      await writeFile(join(aliceDir, '2026-11-29.md'), '- My locker code is 4417.\n');
      const bobDir = join(home, 'workspace', 'users', 'bob', 'memory');
      await mkdir(bobDir, { recursive: true });
      await writeFile(join(bobDir, '2026-11-29.md'), '- My locker code is 9031.\n');
    },
  });
});
afterAll(async () => {
  await product?.close();
});

async function ask(key: string, peerId: string, message: string): Promise<string> {
  const { llm, socket } = product;
  llm.script([{ type: 'text', text: 'Let me think.' }]);
  const before = llm.requests.length;
  await chatTurn(socket, { key, message, route: { channel: 'telegram', peerKind: 'direct', peerId } });
  return llm.requests
    .slice(before)
    .map((r) => JSON.stringify(r.body))
    .join('\n');
}

describe('per-user memory in the running agent', () => {
  it('recalls the person’s own facts and never the other’s', async () => {
    // The index builds in the background (recall caches a miss for 15 s, so wait for it first).
    await searchOnceIndexed(product.socket, { query: 'locker code', userId: 'telegram:alice' }, '4417');
    const alice = await ask('a-1', 'alice', 'what is my locker code?');
    expect(alice).toContain('4417');
    expect(alice).not.toContain('9031');
  });

  it('keeps the memory tools inside the caller’s scope', async () => {
    const { llm, socket } = product;
    llm.script([
      { type: 'tool_calls', calls: [{ name: 'memory_search', input: { query: 'locker code' } }] },
      { type: 'text', text: 'Done.' },
    ]);
    const before = llm.requests.length;
    await chatTurn(socket, {
      key: 'tool-bob',
      message: 'search my notes',
      route: { channel: 'telegram', peerKind: 'direct', peerId: 'bob' },
    });
    const sent = llm.requests
      .slice(before)
      .map((r) => JSON.stringify(r.body))
      .join('\n');
    expect(sent).toContain('9031');
    expect(sent).not.toContain('4417');
  });
});
