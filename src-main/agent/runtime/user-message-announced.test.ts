import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { SessionChange } from '../../sessions/index.js';
import { type FakeLlmServer, startFakeLlmServer } from '../../testing/fake-llm/index.js';
import { createRuntimeFixture, type RuntimeFixture } from '../../testing/fake-llm/runtime-fixture.js';
import type { ToolDefinition } from '../../tools/tool.js';

// A question sent from one device must reach the others while its turn is still running (the
// answer streams, or a tool waits on an approval), not only when the turn ends: the store's
// `updated` change is what session.message announces (gateway/methods/openclaw-session-messages.ts).

let server: FakeLlmServer;
let f: RuntimeFixture | undefined;
beforeAll(async () => {
  server = await startFakeLlmServer();
});
afterAll(() => server.close());
afterEach(async () => {
  await f?.close();
  f = undefined;
  server.reset();
});

describe('the user message while the turn runs', () => {
  it('is synced and announced before the turn ends (a tool still waits)', async () => {
    let release: () => void = () => {};
    const waiting = new Promise<void>((resolve) => {
      release = resolve;
    });
    let entered: () => void = () => {};
    const inTool = new Promise<void>((resolve) => {
      entered = resolve;
    });
    // A tool that holds the turn open, as a pending approval does.
    const hold: ToolDefinition = {
      name: 'hold',
      description: 'waits until the test lets it go',
      inputSchema: z.object({}),
      async execute() {
        entered();
        await waiting;
        return { output: 'released' };
      },
    };
    f = await createRuntimeFixture({
      server,
      profiles: [{ id: 'openai-a', provider: 'openai', secret: 'sk-key-AAAA' }],
      tools: [hold],
    });
    const changes: SessionChange[] = [];
    const subscription = f.runtime.sessions.onDidChange((change) => changes.push(change));
    server.script([
      { type: 'tool_calls', calls: [{ name: 'hold', input: {} }] },
      { type: 'text', text: 'Done waiting.' },
    ]);
    await f.call('chat.send', { sessionKey: 'main', message: 'sent from the phone', idempotencyKey: 'run-hold' });
    await inTool;
    // The turn has not ended, yet the store said the transcript changed, and it holds the question.
    await expect.poll(() => changes.filter((change) => change.reason === 'updated').length).toBeGreaterThan(0);
    expect(f.chatEvents('run-hold').some((event) => event.state === 'final')).toBe(false);
    const updated = changes.find((change) => change.reason === 'updated')!;
    expect(updated.key).toBe('agent:main:main');
    const read = await f.runtime.sessions.read('main', updated.sessionId!, { limit: 10 });
    expect(read.messages.map((message) => message.kind)).toEqual(['user']);
    release();
    expect(await f.chatEnd('run-hold')).toMatchObject({ state: 'final' });
    subscription.dispose();
  });
});
