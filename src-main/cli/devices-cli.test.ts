import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../base/clock.js';
import { decodeSetupCode } from '../protocol/index.js';
import { connectRaw, createTestDeviceKey } from '../testing/raw-gateway-socket.js';
import { startTestHost, type TestHost } from '../testing/test-host.js';
import { createCliContext } from './cli-context.js';
import { runCli } from './run-cli.js';

// Issue 17: the id `hearth devices approve` prints is one `revoke`, `show` and `remove`
// accept — through the CLI's own code path, as a person would type it.

let desktop: TestHost;
beforeAll(async () => {
  desktop = await startTestHost({ lanBind: '127.0.0.1', capabilities: false });
});
afterAll(async () => {
  await desktop.close();
});

async function cli(args: string[]) {
  const out = { stdout: '', stderr: '' };
  const context = createCliContext({
    env: { HEARTH_HOME: desktop.paths.home, HEARTH_PORT: String(desktop.port) },
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

/** A phone asks to pair with a fresh setup code; returns its pending request id. */
async function phoneAsks(): Promise<{ requestId: string; deviceId: string }> {
  const setup = JSON.parse((await cli(['pair', 'qr', '--json'])).stdout) as { code: string; urls: string[] };
  const cert = await readFile(join(desktop.paths.identityDir, 'tls-cert.pem'), 'utf8');
  const key = createTestDeviceKey();
  const { socket, hello } = await connectRaw(setup.urls[0]!, {
    bootstrapToken: decodeSetupCode(setup.code).bootstrapToken,
    device: key,
    scopes: ['operator.read', 'operator.write', 'operator.approvals'],
    ca: cert,
  });
  socket.close();
  expect(hello.error?.details).toMatchObject({ code: 'PAIRING_REQUIRED' });
  return { requestId: (hello.error!.details as { requestId: string }).requestId, deviceId: key.id };
}

describe('hearth devices', () => {
  it('prints device ids that revoke, show and remove accept', async () => {
    const { requestId, deviceId } = await phoneAsks();
    const approved = await cli(['devices', 'approve', requestId]);
    expect(approved.code).toBe(0);
    const printed = /\(([0-9a-f]+)\)/.exec(approved.stdout)?.[1];
    expect(printed).toBe(deviceId);

    const listed = await cli(['devices', 'list']);
    expect(listed.stdout).toContain(printed);

    const shown = await cli(['devices', 'show', printed!]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain(printed);
    const shownJson = JSON.parse((await cli(['devices', 'show', printed!, '--json'])).stdout) as { deviceId: string };
    expect(shownJson.deviceId).toBe(deviceId);

    const revoked = await cli(['devices', 'revoke', printed!]);
    expect(revoked).toMatchObject({ code: 0, stderr: '' });
    expect(revoked.stdout).toContain(`revoked operator token of ${deviceId}`);

    const removed = await cli(['devices', 'remove', printed!]);
    expect(removed).toMatchObject({ code: 0, stdout: `removed ${deviceId}\n` });
  });

  it('accepts an unambiguous prefix (what older versions printed) and names the problem otherwise', async () => {
    const { requestId, deviceId } = await phoneAsks();
    expect((await cli(['devices', 'approve', requestId])).code).toBe(0);
    const revoked = await cli(['devices', 'revoke', deviceId.slice(0, 16)]);
    expect(revoked.code).toBe(0);
    expect(revoked.stdout).toContain(deviceId);

    const unknown = await cli(['devices', 'revoke', 'ffffffffffffffff0000']);
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toMatch(/unknown device: ffffffffffffffff0000/);
    const empty = await cli(['devices', 'show', ' ']);
    expect(empty.code).not.toBe(0);
    expect(empty.stderr).toMatch(/a device id is required/);
  });
});
