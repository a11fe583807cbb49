import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTempHome } from '../testing/temp-home.js';
import { startTestHost, type TestHost } from '../testing/test-host.js';

// The real OpenClaw CLI (npm `openclaw`, Node >= 24.16) against our gateway. It needs a
// scratch install, so it runs only when HEARTH_OPENCLAW_DIR points at one:
//   mkdir /tmp/oc && cd /tmp/oc && npm init -y && npm i node@24 openclaw@2026.9.6
//   HEARTH_OPENCLAW_DIR=/tmp/oc npx vitest run src-main/gateway/openclaw-cli.compat.test.ts
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
let home: { home: string; cleanup(): Promise<void> };

describe.skipIf(!available)('OpenClaw CLI → Hearth gateway', () => {
  beforeAll(async () => {
    host = await startTestHost();
    home = await createTempHome();
  });
  afterAll(async () => {
    await host?.close();
    await home?.cleanup();
  });

  const call = (method: string, token: string) =>
    run(node, [cli, 'gateway', 'call', method, '--url', host.wsUrl, '--token', token, '--json'], {
      // Without the test runner's own variables: OpenClaw's CLI goes quiet when it thinks it is under Vitest.
      env: { PATH: process.env.PATH, HOME: home.home },
      timeout: 60_000,
    });

  it('answers `openclaw gateway call health` and `status`', async () => {
    const health = JSON.parse((await call('health', host.token)).stdout);
    expect(health).toMatchObject({ ok: true });
    const status = JSON.parse((await call('status', host.token)).stdout);
    expect(status).toMatchObject({ protocol: 4 });
  }, 120_000);

  it('refuses a wrong token in a way the CLI reports', async () => {
    await expect(call('health', 'wrong-token')).rejects.toMatchObject({ code: expect.any(Number) });
  }, 120_000);
});
