import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatTurn } from '../testing/chat-turn.js';
import { type FakeLlmServer, startFakeLlmServer } from '../testing/fake-llm/index.js';
import { fakeOpenAiConfig } from '../testing/product-fixture.js';
import { connectRaw, type RawGatewaySocket } from '../testing/raw-gateway-socket.js';
import { createTempHome } from '../testing/temp-home.js';
import { startTestHost, type TestHost } from '../testing/test-host.js';

// Per-user memory and a long conversation on a small context window: before compaction forgets
// the words, the durable facts go to the person's own daily file (users/<id>/memory/), never the
// shared one; in a group chat, where no person is known, nothing is written anywhere (that case
// is tested in host/session-person.test.ts and agent/context/compact-session.test.ts; here the
// wiring, one person's long chat).

let llm: FakeLlmServer;
let temp: { home: string; cleanup(): Promise<void> };
let host: TestHost;
let socket: RawGatewaySocket;

beforeAll(async () => {
  llm = await startFakeLlmServer();
  llm.setDefault({ type: 'text', text: 'SUMMARY-MARKER: we went through the itinerary.' });
  temp = await createTempHome();
  await writeFile(
    join(temp.home, 'hearth.json'),
    JSON.stringify({
      ...fakeOpenAiConfig(llm, { contextWindow: 8_000 }),
      // Only the flush may write the facts down: no capture, no recall.
      memory: { scope: 'per-user', capture: { enabled: false }, recall: { enabled: false } },
    }),
  );
  host = await startTestHost({ home: temp.home, env: { HEARTH_SECRET_STORE: 'file' } });
  socket = (await connectRaw(host.wsUrl, { token: host.token, scopes: ['operator.admin'] })).socket;
  await socket.request('auth.profiles.set', { id: 'k', provider: 'openai', type: 'api_key', secret: 'sk-flush' });
});
afterAll(async () => {
  socket?.close();
  await host?.dispose();
  await llm?.close();
  await temp?.cleanup();
});

async function longChat(prefix: string, route: Record<string, string>, first: string) {
  const filler = 'We talked about the itinerary in great detail. '.repeat(120);
  for (let i = 0; i < 8; i++) {
    const key = `${prefix}-${i}`;
    const message = i === 0 ? first : `${prefix.toUpperCase()}-${i} ${filler}`;
    expect(await chatTurn(socket, { key, message, route })).toMatchObject({ state: 'final' });
  }
}

async function dailyText(dir: string): Promise<string> {
  const files = (await readdir(dir).catch(() => [] as string[])).filter((f) => /^\d{4}-\d{2}-\d{2}\.md$/.test(f));
  return (await Promise.all(files.map((f) => readFile(join(dir, f), 'utf8')))).join('\n');
}

describe('the pre-compaction flush with per-user memory', () => {
  it('writes a person’s durable facts to their own daily file', async () => {
    await longChat(
      'alice',
      { channel: 'telegram', peerKind: 'direct', peerId: '1' },
      'Please remember that my locker code is 4417.',
    );
    const own = await dailyText(join(temp.home, 'workspace', 'users', 'telegram_1', 'memory'));
    expect(own).toContain('## Saved before compaction');
    expect(own).toContain('my locker code is 4417');
    expect(await dailyText(join(temp.home, 'workspace', 'memory'))).not.toContain('4417');
  }, 120_000);
});
