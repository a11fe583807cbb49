import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatTurn } from '../testing/chat-turn.js';
import { type ProductFixture, startProductFixture } from '../testing/product-fixture.js';

// With memory.scope "per-user", the MEMORY.md and USER.md in the system prompt are the person's
// own (users/<id>/). The owner's main session also gets the root files the owner wrote; nobody
// else ever sees them, nor another person's, and a group chat (no known person) sees none.
// Which folders a session gets is tested in host/session-person.test.ts, what the loader makes of
// them in agent/bootstrap/bootstrap.test.ts; here the wiring, one person's turns.

let product: ProductFixture;

beforeAll(async () => {
  product = await startProductFixture({
    config: { memory: { scope: 'per-user' } },
    before: async (home) => {
      const workspace = join(home, 'workspace');
      await mkdir(workspace, { recursive: true });
      await writeFile(join(workspace, 'MEMORY.md'), '# Memory\n- ROOT-MEMORY-MARKER: the owner’s boat is Seabird.\n');
      await writeFile(join(workspace, 'USER.md'), '# User\n- ROOT-USER-MARKER\n');
      for (const [id, marker] of [
        ['telegram_1', 'ALICE'],
        ['telegram_2', 'BOB'],
      ] as const) {
        await mkdir(join(workspace, 'users', id), { recursive: true });
        await writeFile(join(workspace, 'users', id, 'MEMORY.md'), `# Memory\n- ${marker}-PRIVATE-MARKER\n`);
        await writeFile(join(workspace, 'users', id, 'USER.md'), `# User\n- ${marker}-PROFILE-MARKER\n`);
      }
    },
  });
});
afterAll(async () => {
  await product?.close();
});

/** Sends one turn and returns the system prompt the model received. */
async function systemPromptFor(key: string, target: { route?: Record<string, string>; sessionKey?: string }) {
  const { llm, socket } = product;
  llm.script([{ type: 'text', text: 'Noted.' }]);
  const before = llm.requests.length;
  expect(await chatTurn(socket, { key, message: 'what do you know about me?', ...target })).toMatchObject({
    state: 'final',
  });
  const body = llm.requests[before]!.body as { messages?: { role?: string; content?: unknown }[] };
  return JSON.stringify((body.messages ?? []).filter((m) => m.role === 'system').map((m) => m.content));
}

const direct = (peerId: string) => ({ route: { channel: 'telegram', peerKind: 'direct', peerId } });
const markers = ['ROOT-MEMORY', 'ROOT-USER', 'ALICE-PRIVATE', 'ALICE-PROFILE', 'BOB-PRIVATE', 'BOB-PROFILE'];
const seen = (prompt: string) => markers.filter((marker) => prompt.includes(`${marker}-MARKER`));

describe('the per-user static memory layer', () => {
  it('gives a person their own MEMORY.md and USER.md, nothing of the owner’s or the other’s, byte-identical turn to turn', async () => {
    const first = await systemPromptFor('a-1', direct('1'));
    expect(seen(first)).toEqual(['ALICE-PRIVATE', 'ALICE-PROFILE']);
    expect(await systemPromptFor('a-2', direct('1'))).toBe(first);
  });
});
