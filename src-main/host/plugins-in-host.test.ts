import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeLlmServer, startFakeLlmServer } from '../testing/fake-llm/index.js';
import { connectRaw } from '../testing/raw-gateway-socket.js';
import { createTempHome } from '../testing/temp-home.js';
import { startTestHost, type TestHost } from '../testing/test-host.js';

// Bundled plugins load in the composed host: an agent configured to use the lexical context
// engine (extensions/context-lexical) answers through it; an unsafe user plugin is refused
// without taking the host down.

let llm: FakeLlmServer;
let host: TestHost;
let temp: { home: string; cleanup(): Promise<void> };

beforeAll(async () => {
  llm = await startFakeLlmServer();
  temp = await createTempHome();
  await writeFile(
    join(temp.home, 'hearth.json'),
    JSON.stringify({
      providers: { openai: { kind: 'openai', baseURL: llm.baseUrlFor('openai') } },
      agents: { defaults: { model: 'openai/gpt-4o', contextEngine: 'lexical' } },
    }),
  );
  const unsafe = join(temp.home, 'extensions', 'loose');
  await mkdir(unsafe, { recursive: true });
  await writeFile(join(unsafe, 'hearth.plugin.json'), JSON.stringify({ id: 'loose', main: 'index.js' }));
  await writeFile(
    join(unsafe, 'index.js'),
    'export default { id: "loose", register() { throw new Error("must never run"); } };',
  );
  await chmod(join(unsafe, 'index.js'), 0o666);
  host = await startTestHost({ home: temp.home, env: { HEARTH_SECRET_STORE: 'file' } });
});
afterAll(async () => {
  await host?.close();
  await llm?.close();
  await temp?.cleanup();
});

describe('plugins in the composed host', () => {
  it('answers through the lexical context engine plugin', async () => {
    const { socket } = await connectRaw(host.wsUrl, { token: host.token, scopes: ['operator.admin'] });
    await socket.request('auth.profiles.set', {
      id: 'k',
      provider: 'openai',
      type: 'api_key',
      secret: 'sk-plugin-test',
    });
    llm.script([{ type: 'text', text: 'Answered via lexical.' }]);
    await socket.request('chat.send', { sessionKey: 'main', message: 'hello', idempotencyKey: 'p-1' });
    const end = await socket.next(
      (f) => f.event === 'chat' && ['final', 'error'].includes((f.payload as { state: string }).state),
      20_000,
    );
    expect(end.payload).toMatchObject({ state: 'final' });
    expect(JSON.stringify(end.payload)).toContain('Answered via lexical.');
    socket.close();
  });
});
