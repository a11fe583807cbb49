import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ProductFixture, startProductFixture } from '../testing/product-fixture.js';

// Memory settings changed while Hearth runs (the Settings view, `hearth config set`, a hand edit
// of hearth.json) apply at once: nightly Dreaming turned on starts its schedule, per-user scope
// starts refusing searches that name no person, and turning the memory slot off removes the
// methods and the model's memory tools — and turning it back on restores them, index intact.

let product: ProductFixture;

beforeAll(async () => {
  product = await startProductFixture({
    before: async (home) => {
      await mkdir(join(home, 'workspace', 'memory'), { recursive: true });
      await writeFile(
        join(home, 'workspace', 'memory', '2026-11-28.md'),
        '- The spare key is under the blue flowerpot.\n',
      );
    },
  });
});
afterAll(async () => {
  await product?.close();
});

/** Patches hearth.json over the wire, then waits until the memory has been reopened with it. */
async function patchMemorySettings(patch: Record<string, unknown>) {
  const { socket } = product;
  const mark = socket.frames.length;
  const patched = await socket.request('config.patch', { patch });
  expect(patched.ok).toBe(true);
  await socket.next(
    (f) =>
      socket.frames.indexOf(f) >= mark &&
      f.event === 'memory.changed' &&
      (f.payload as { reason?: string }).reason === 'config',
    15_000,
  );
}

async function search(params: Record<string, unknown> = {}) {
  for (let attempt = 0; attempt < 50; attempt++) {
    const reply = await product.socket.request('memory.search', { query: 'spare key', ...params });
    if (!reply.ok || JSON.stringify(reply.payload).includes('flowerpot')) return reply;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the note was never found');
}

describe('memory settings changed while running', () => {
  it('turning Dreaming on starts the schedule without a restart', async () => {
    const { socket } = product;
    const mark = socket.frames.length;
    await patchMemorySettings({ memory: { dreaming: { enabled: true, cron: '* * * * * *' } } });
    const dreamt = await socket.next(
      (f) =>
        socket.frames.indexOf(f) >= mark &&
        f.event === 'dreams.changed' &&
        (f.payload as { reason?: string }).reason === 'scheduled',
      15_000,
    );
    expect(dreamt.payload).toMatchObject({ agentId: 'main' });
    await patchMemorySettings({ memory: { dreaming: { enabled: false } } });
  });

  it('per-user scope applies to the next search', async () => {
    expect((await search()).ok).toBe(true);
    await patchMemorySettings({ memory: { scope: 'per-user' } });
    const refused = await search();
    expect(refused.ok).toBe(false);
    expect(JSON.stringify(refused.error)).toContain('per-user but no user identity');
    await patchMemorySettings({ memory: { scope: 'per-agent' } });
    expect(JSON.stringify((await search()).payload)).toContain('flowerpot');
  });

  it('the memory slot turned off removes memory from the agent, and back on restores it', async () => {
    await patchMemorySettings({ plugins: { slots: { memory: 'none' } } }).catch(() => undefined);
    // With memory off there is nothing to announce; wait for the methods to go instead.
    let off = await product.socket.request('memory.status', {});
    for (let attempt = 0; attempt < 50 && off.ok; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      off = await product.socket.request('memory.status', {});
    }
    expect(off.ok).toBe(false);
    product.llm.script([{ type: 'text', text: 'Sure.' }]);
    await product.turn('off-1', 'hello');
    const offered = JSON.stringify(product.llm.requests.at(-1)!.body);
    expect(offered).not.toContain('memory_search');

    await patchMemorySettings({ plugins: { slots: { memory: 'memory-lancedb' } } });
    expect(JSON.stringify((await search()).payload)).toContain('flowerpot');
    product.llm.script([{ type: 'text', text: 'Sure.' }]);
    await product.turn('on-1', 'hello again');
    expect(JSON.stringify(product.llm.requests.at(-1)!.body)).toContain('memory_search');
  });
});
