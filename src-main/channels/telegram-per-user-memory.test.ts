import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeTelegramServer, startFakeTelegramServer } from '../testing/fake-telegram-server.js';
import { type ProductFixture, startProductFixture } from '../testing/product-fixture.js';
import { storeTestSecrets } from '../testing/test-secrets.js';

// With memory.scope "per-user", each Telegram person's messages run in their own memory: the
// channel's DM session speaks for `telegram:<userId>`, linked to a person by memory.identityLinks.

const ANN = { id: 11, first_name: 'Ann' };
const BEN = { id: 22, first_name: 'Ben' };
let telegram: FakeTelegramServer;
let product: ProductFixture;

beforeAll(async () => {
  telegram = await startFakeTelegramServer();
  product = await startProductFixture({
    config: {
      memory: { scope: 'per-user', identityLinks: { ann: ['telegram:11'] } },
      channels: { telegram: { apiBaseUrl: telegram.url, pollTimeoutSeconds: 1, allowFrom: ['11', '22'] } },
    },
    before: async (home) => {
      await storeTestSecrets(home, { 'channels.telegram.token': telegram.token });
      const workspace = join(home, 'workspace');
      await mkdir(join(workspace, 'users', 'ann'), { recursive: true });
      await writeFile(join(workspace, 'USER.md'), '# User\n- OWNER-MARKER\n');
      await writeFile(join(workspace, 'users', 'ann', 'USER.md'), '# User\n- ANN-MARKER: prefers tea\n');
    },
  });
}, 60_000);

afterAll(async () => {
  await product?.close();
  await telegram?.close();
});

async function systemPromptFor(person: { id: number; first_name: string }, text: string) {
  const before = product.llm.requests.length;
  product.llm.script([{ type: 'text', text: `Hi ${person.first_name}.` }]);
  telegram.sendUserMessage({ chatId: person.id, from: person, text });
  await telegram.waitForBotMessage(person.id, (m) => m.text === `Hi ${person.first_name}\\.`);
  const body = product.llm.requests[before]!.body as { messages?: { role?: string; content?: unknown }[] };
  return JSON.stringify((body.messages ?? []).filter((m) => m.role === 'system').map((m) => m.content));
}

describe('per-user memory through Telegram', () => {
  it("gives a linked person their own USER.md, another person none of it, and neither the owner's", async () => {
    const ann = await systemPromptFor(ANN, 'what do I like?');
    expect(ann).toContain('ANN-MARKER');
    expect(ann).not.toContain('OWNER-MARKER');
    const ben = await systemPromptFor(BEN, 'what do I like?');
    expect(ben).not.toContain('ANN-MARKER');
    expect(ben).not.toContain('OWNER-MARKER');
  });
});
