import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentPausePath } from '../agent/index.js';
import { systemClock } from '../base/clock.js';
import { connectRaw } from '../testing/raw-gateway-socket.js';
import { createTempHome } from '../testing/temp-home.js';
import { startTestHost, type TestHost } from '../testing/test-host.js';
import { createCliContext } from './cli-context.js';
import { runCli } from './run-cli.js';

// `hearth agent pause|resume|status` against a real gateway, as a person types them, and the
// pause outliving a restart of the host: a new start on the same home comes back paused.

const patient = 30_000;
let temp: { home: string; cleanup(): Promise<void> };
let host: TestHost | undefined;
beforeAll(async () => {
  temp = await createTempHome('hearth-agent-cli-');
});
afterAll(async () => {
  await host?.close();
  await temp?.cleanup();
});

async function cli(args: string[]) {
  const out = { stdout: '', stderr: '' };
  const context = createCliContext({
    env: { HEARTH_HOME: temp.home, HEARTH_PORT: String(host!.port) },
    clock: systemClock,
    stdout: (t) => {
      out.stdout += t;
    },
    stderr: (t) => {
      out.stderr += t;
    },
    readStdin: async () => '',
  });
  const code = await runCli(args, context);
  return { code, ...out };
}

describe('hearth agent', () => {
  it('pauses with a reason, stays paused across a restart, and resumes', async () => {
    host = await startTestHost({ home: temp.home, env: { ...process.env, HEARTH_SECRET_STORE: 'file' } });
    expect(await cli(['agent', 'status'])).toMatchObject({ code: 0, stdout: expect.stringMatching(/^running/) });

    const paused = await cli(['agent', 'pause', '--reason', 'on holiday']);
    expect(paused).toMatchObject({ code: 0, stderr: '' });
    expect(paused.stdout).toMatch(
      /^paused since \d{4}-\d\d-\d\dT.* \(on holiday\): new messages, heartbeats and cron runs wait/,
    );
    const saved = JSON.parse(await readFile(agentPausePath(host.paths.stateDir), 'utf8'));
    expect(saved).toMatchObject({ version: 1, paused: true, reason: 'on holiday' });

    await host.close();
    host = await startTestHost({ home: temp.home, env: { ...process.env, HEARTH_SECRET_STORE: 'file' } });
    const status = JSON.parse((await cli(['agent', 'status', '--json'])).stdout);
    expect(status).toEqual({ paused: true, since: saved.since, reason: 'on holiday' });
    // A new turn on the restarted host is refused, saying why.
    const { socket } = await connectRaw(host.wsUrl, { token: host.token, scopes: ['operator.admin'] });
    const refused = await socket.request(
      'chat.send',
      { sessionKey: 'agent:main:main', message: 'there?', idempotencyKey: 'after-restart' },
      patient,
    );
    socket.close();
    expect(refused).toMatchObject({ ok: false, error: { code: 'UNAVAILABLE' } });
    expect((refused as { error: { message: string } }).error.message).toContain('Reason given: on holiday.');

    expect(await cli(['agent', 'resume'])).toMatchObject({ code: 0, stdout: expect.stringMatching(/^running/) });
    expect(JSON.parse(await readFile(agentPausePath(host.paths.stateDir), 'utf8'))).toEqual({
      version: 1,
      paused: false,
    });
    expect(await cli(['agent', 'pause', '--reason', 'x'.repeat(501)])).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/reason/),
    });
  }, 120_000);
});
