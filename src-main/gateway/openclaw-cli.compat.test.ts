import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeLlmServer, startFakeLlmServer } from '../testing/fake-llm/index.js';
import { connectRaw } from '../testing/raw-gateway-socket.js';
import { createTempHome } from '../testing/temp-home.js';
import { startTestHost, type TestHost } from '../testing/test-host.js';

// The real OpenClaw CLI (npm `openclaw`, Node >= 24.16) against our gateway, with the fake LLM
// behind it. It needs a scratch install, so it runs only when HEARTH_OPENCLAW_DIR points at one;
// `npm run test:e2e` makes that install (scripts/openclaw-cli.mjs, cached outside the repo) and
// runs this file, so CI always runs it. By hand:
//   node scripts/openclaw-cli.mjs   # prints the folder
//   HEARTH_OPENCLAW_DIR=<folder> npx vitest run src-main/gateway/openclaw-cli.compat.test.ts
const dir = process.env.HEARTH_OPENCLAW_DIR;
const node = dir ? join(dir, 'node_modules/.bin/node') : '';
const cli = dir ? join(dir, 'node_modules/.bin/openclaw') : '';
const available = Boolean(dir && existsSync(node) && existsSync(cli));
if (!available)
  console.log(
    'skipping the OpenClaw CLI compatibility test: set HEARTH_OPENCLAW_DIR to a folder with node@24 and openclaw installed',
  );

const run = promisify(execFile);
let host: TestHost;
let llm: FakeLlmServer;
let hearthHome: { home: string; cleanup(): Promise<void> };
let cliHome: { home: string; cleanup(): Promise<void> };

describe.skipIf(!available)('OpenClaw CLI → Hearth gateway', () => {
  beforeAll(async () => {
    llm = await startFakeLlmServer();
    llm.setDefault({ type: 'text', text: 'Hello from the fake model.' });
    hearthHome = await createTempHome();
    await writeFile(
      join(hearthHome.home, 'hearth.json'),
      JSON.stringify({
        providers: { openai: { kind: 'openai', baseURL: llm.baseUrlFor('openai') } },
        agents: { defaults: { model: 'openai/gpt-4o' } },
      }),
    );
    host = await startTestHost({ home: hearthHome.home, env: { HEARTH_SECRET_STORE: 'file' } });
    const { socket } = await connectRaw(host.wsUrl, { token: host.token, scopes: ['operator.admin'] });
    await socket.request('auth.profiles.set', { id: 'k', provider: 'openai', type: 'api_key', secret: 'sk-compat' });
    socket.close();
    cliHome = await createTempHome();
  }, 60_000);
  afterAll(async () => {
    await host?.close();
    await llm?.close();
    await hearthHome?.cleanup();
    await cliHome?.cleanup();
  });

  // Without the test runner's own variables: OpenClaw's CLI goes quiet when it thinks it is under Vitest.
  const cliEnv = (token: string) => ({
    PATH: process.env.PATH,
    HOME: cliHome.home,
    OPENCLAW_GATEWAY_URL: host.wsUrl,
    OPENCLAW_GATEWAY_TOKEN: token,
  });
  const call = (method: string, token: string, params?: Record<string, unknown>) =>
    run(
      node,
      [
        cli,
        'gateway',
        'call',
        method,
        '--url',
        host.wsUrl,
        '--token',
        token,
        '--json',
        ...(params ? ['--params', JSON.stringify(params)] : []),
      ],
      { env: cliEnv(token), timeout: 60_000 },
    );

  it('answers `openclaw gateway call health` and `status`', async () => {
    const health = JSON.parse((await call('health', host.token)).stdout);
    expect(health).toMatchObject({ ok: true });
    const status = JSON.parse((await call('status', host.token)).stdout);
    expect(status).toMatchObject({ protocol: 4 });
  }, 120_000);

  it('refuses a wrong token in a way the CLI reports', async () => {
    await expect(call('health', 'wrong-token')).rejects.toMatchObject({ code: expect.any(Number) });
  }, 120_000);

  it('runs a turn with `openclaw agent` on a named session key, then lists and reads it', async () => {
    const sessionKey = 'agent:main:compat-check';
    const agent = await run(
      node,
      [cli, 'agent', '--session-key', sessionKey, '--message', 'hi from the OpenClaw CLI', '--json'],
      { env: cliEnv(host.token), timeout: 120_000 },
    );
    // The model's answer reaches the CLI, and the fake model saw the CLI's message.
    expect(agent.stdout).toContain('Hello from the fake model.');
    expect(llm.requests.at(-1)?.lastUserText).toContain('hi from the OpenClaw CLI');

    const sessions = JSON.parse((await call('sessions.list', host.token)).stdout) as {
      sessions: { key: string }[];
    };
    expect(sessions.sessions.map((session) => session.key)).toContain(sessionKey);

    const history = JSON.parse((await call('chat.history', host.token, { sessionKey })).stdout) as {
      messages: { role: string; content: unknown }[];
    };
    const said = JSON.stringify(history.messages);
    expect(said).toContain('hi from the OpenClaw CLI');
    expect(said).toContain('Hello from the fake model.');
  }, 180_000);
});
