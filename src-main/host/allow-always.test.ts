import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isChatEnd } from '../testing/chat-turn.js';
import { type ProductFixture, startProductFixture } from '../testing/product-fixture.js';
import type { AnyFrame, RawGatewaySocket } from '../testing/raw-gateway-socket.js';

// "Always allow" remembers the kind of command, not a hash of one command line: with the binary
// scope any use of it runs without asking again; with the exact scope only those arguments do.

let product: ProductFixture;

beforeAll(async () => {
  product = await startProductFixture();
  await writeFile(join(product.home, 'workspace', 'a.txt'), 'alpha');
  await writeFile(join(product.home, 'workspace', 'b.txt'), 'beta');
});
afterAll(async () => {
  await product?.close();
});

/** Runs one exec tool call; answers its approval (if one comes) with `answer`; says whether it asked. */
async function runCommand(
  socket: RawGatewaySocket,
  key: string,
  command: string,
  answer?: Record<string, unknown>,
): Promise<boolean> {
  product.llm.script([
    { type: 'tool_calls', calls: [{ name: 'exec', input: { command } }] },
    { type: 'text', text: 'done' },
  ]);
  const mark = socket.frames.length;
  await socket.request('chat.send', { sessionKey: 'main', message: `run ${command}`, idempotencyKey: key });
  const ended = (f: AnyFrame) => isChatEnd(f, key);
  const first = await socket.next(
    (f) => socket.frames.indexOf(f) >= mark && (f.event === 'exec.approval.requested' || ended(f)),
    20_000,
  );
  if (first.event !== 'exec.approval.requested') return false;
  const { id } = first.payload as { id: string };
  await socket.request('exec.approval.resolve', { id, ...answer });
  await socket.next((f) => socket.frames.indexOf(f) >= mark && ended(f), 20_000);
  return true;
}

describe('allow always', () => {
  it('with the exact scope, remembers only those arguments', async () => {
    const { socket } = product;
    expect(
      await runCommand(socket, 'e-1', 'wc -c a.txt', { decision: 'allow-always', allowAlwaysScope: 'exact' }),
    ).toBe(true);
    expect(await runCommand(socket, 'e-2', 'wc -c a.txt')).toBe(false);
    expect(await runCommand(socket, 'e-3', 'wc -c b.txt', { decision: 'deny' })).toBe(true);
    const saved = await readFile(join(product.home, 'state', 'permissions.json'), 'utf8');
    expect(saved).toMatch(/"argPattern"/);
  });

  it('with the binary scope, any use of the binary runs without asking again', async () => {
    const { socket } = product;
    expect(await runCommand(socket, 'b-1', 'md5sum a.txt', { decision: 'allow-always' })).toBe(true);
    expect(await runCommand(socket, 'b-2', 'md5sum b.txt')).toBe(false);
  });
});
