import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatTurn } from '../testing/chat-turn.js';
import { type FakeLlmServer, startFakeLlmServer } from '../testing/fake-llm/index.js';
import { fakeOpenAiConfig } from '../testing/product-fixture.js';
import { connectRaw, type RawGatewaySocket } from '../testing/raw-gateway-socket.js';
import { createTempHome } from '../testing/temp-home.js';
import { startTestHost, type TestHost } from '../testing/test-host.js';

// A long conversation on a small context window: history is compacted, the summary is
// written to the transcript, and after a restart the next turn starts from the summary.

let llm: FakeLlmServer;
let temp: { home: string; cleanup(): Promise<void> };

beforeAll(async () => {
  llm = await startFakeLlmServer();
  llm.setDefault({
    type: 'text',
    text: 'SUMMARY-MARKER: we discussed the Lisbon trip; decision: leave on 2026-12-12.',
  });
  temp = await createTempHome();
  await writeFile(
    join(temp.home, 'hearth.json'),
    JSON.stringify({
      ...fakeOpenAiConfig(llm, { contextWindow: 8_000 }),
      memory: { recall: { enabled: false } },
    }),
  );
});
afterAll(async () => {
  await llm?.close();
  await temp?.cleanup();
});

async function turn(socket: RawGatewaySocket, key: string, message: string) {
  return { payload: await chatTurn(socket, { key, message }) };
}

describe('compaction across a restart', () => {
  it('persists the summary and resumes from it', async () => {
    let host: TestHost = await startTestHost({ home: temp.home, env: { HEARTH_SECRET_STORE: 'file' } });
    let socket = (await connectRaw(host.wsUrl, { token: host.token, scopes: ['operator.admin'] })).socket;
    await socket.request('auth.profiles.set', {
      id: 'k',
      provider: 'openai',
      type: 'api_key',
      secret: 'sk-compact-test',
    });
    const filler = 'We talked about the itinerary in great detail. '.repeat(120);
    for (let i = 0; i < 8; i++)
      expect((await turn(socket, `t${i}`, `FIRST-${i} ${filler}`)).payload).toMatchObject({ state: 'final' });

    const sessionsDir = join(temp.home, 'agents', 'main', 'sessions');
    const transcripts = (await readdir(sessionsDir)).filter((f) => f.endsWith('.jsonl'));
    const lines = (await Promise.all(transcripts.map((f) => readFile(join(sessionsDir, f), 'utf8')))).join('\n');
    expect(lines).toContain('"kind":"compaction_summary"');

    socket.close();
    await host.dispose();
    host = await startTestHost({ home: temp.home, env: { HEARTH_SECRET_STORE: 'file' } });
    socket = (await connectRaw(host.wsUrl, { token: host.token, scopes: ['operator.admin'] })).socket;
    const before = llm.requests.length;
    await turn(socket, 'after-restart', 'where were we?');
    const sent = llm.requests
      .slice(before)
      .map((r) => JSON.stringify(r.body))
      .join('\n');
    expect(sent).toContain('SUMMARY-MARKER');
    expect(sent).not.toContain('FIRST-0 ');
    socket.close();
    await host.dispose();
  }, 120_000);
});
