import { chmod, readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemClock } from '../base/clock.js';
import { createTempHome } from '../testing/temp-home.js';
import { startTestHost } from '../testing/test-host.js';
import { createCliContext } from './cli-context.js';
import { runCli } from './run-cli.js';

let temp: { home: string; cleanup(): Promise<void> };
beforeEach(async () => {
  temp = await createTempHome();
});
afterEach(async () => {
  await temp.cleanup();
});

async function hearth(args: string[], env: Record<string, string> = {}) {
  let stdout = '';
  let stderr = '';
  const context = createCliContext({
    env: { HEARTH_HOME: temp.home, ...env },
    clock: systemClock,
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
    readStdin: async () => '',
  });
  const code = await runCli(args, context);
  return { code, stdout, stderr };
}

describe('hearth config', () => {
  it('sets, gets and validates, naming the bad path and keeping the file intact', async () => {
    expect(await hearth(['config', 'set', 'gateway.port', '18800'])).toMatchObject({ code: 0 });
    expect((await hearth(['config', 'get', 'gateway.port'])).stdout.trim()).toBe('18800');
    const bad = await hearth(['config', 'set', 'gateway.port', '"eighty"']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^hearth: not changed: gateway\.port: expected number/);
    expect(JSON.parse(await readFile(`${temp.home}/hearth.json`, 'utf8'))).toEqual({ gateway: { port: 18800 } });
    await writeFile(`${temp.home}/hearth.json`, '{"gateway": {"prot": 1}}');
    const invalid = await hearth(['config', 'validate']);
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toContain('gateway: unknown key "prot"');
    expect(invalid.stderr).not.toMatch(/\n\s+at /);
  });
});

describe('hearth gateway', () => {
  it('prints the same token every time, kept 0600', async () => {
    const first = await hearth(['gateway', 'token']);
    const second = await hearth(['gateway', 'token']);
    expect(first.stdout).toBe(second.stdout);
    expect(first.stdout.trim().length).toBeGreaterThanOrEqual(24);
  });

  it('reports a busy port in one plain line', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    const result = await hearth(['gateway', 'run', '--port', String(port)]);
    blocker.close();
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `hearth: port ${port} is already in use. Stop the other program, or choose another port with --port or HEARTH_PORT.\n`,
    );
  });

  it('rejects a nonsense port and bind', async () => {
    expect((await hearth(['gateway', 'run', '--port', 'abc'])).stderr).toContain('invalid port "abc"');
    expect((await hearth(['gateway', 'run', '--bind', 'everywhere'])).stderr).toContain('invalid --bind "everywhere"');
  });

  it('calls a method on the running gateway with the stored token', async () => {
    const host = await startTestHost({ home: temp.home });
    const env = { HEARTH_PORT: String(host.port) };
    const health = await hearth(['gateway', 'call', 'health', '--json'], env);
    expect(health.code).toBe(0);
    expect(JSON.parse(health.stdout)).toMatchObject({ ok: true, version: expect.any(String) });
    const unknown = await hearth(['gateway', 'call', 'no.such'], env);
    expect(unknown).toMatchObject({
      code: 1,
      stderr: 'hearth: no.such failed: INVALID_REQUEST: unknown method: no.such\n',
    });
    const badParams = await hearth(['gateway', 'call', 'health', '--params', '{oops'], env);
    expect(badParams.stderr).toMatch(/^hearth: --params is not valid JSON/);
    const wrongToken = await hearth(['gateway', 'call', 'health', '--token', 'nope'], env);
    expect(wrongToken.stderr).toMatch(/refused the connection: unauthorized: gateway token mismatch/);
    await host.dispose();
    const down = await hearth(['gateway', 'call', 'health'], env);
    expect(down.stderr).toMatch(/cannot reach the gateway at ws:\/\/127\.0\.0\.1:\d+: is it running\?/);
  });
});

describe('hearth doctor', () => {
  it('flags a home folder others can read', async () => {
    await hearth(['gateway', 'token']);
    const healthy = await hearth(['doctor'], { HEARTH_SECRET_STORE: 'file' });
    expect(healthy.code).toBe(0);
    // Without a keychain the fallback is announced, never silent.
    expect(healthy.stdout).toMatch(/keychain: Secrets are in an encrypted file/);
    await chmod(temp.home, 0o755);
    const result = await hearth(['doctor']);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/✗ home folder permissions: .* is mode 755; run chmod 700/);
  });
});
