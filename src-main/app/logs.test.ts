import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { REDACTED } from '../base/secret-redaction.js';
import { createFileLogger, createLogActions, formatDiagnostics, mainLogPath, readLogTail } from './logs.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hearth-logs-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
});

describe('app logs', () => {
  it('writes JSON lines to the log folder with secrets redacted', async () => {
    const file = mainLogPath(join(dir, 'logs'));
    const logger = createFileLogger(file, () => ['gateway-token-123456']);
    logger.info('connected with gateway-token-123456', { apiKey: 'sk-abcdefghijklmnopqrstuvwx', model: 'gpt' });
    logger.child({ component: 'tray' }).warn('hello');
    await logger.flush();
    const lines = (await readFile(file, 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines[0]).toMatchObject({ msg: `connected with ${REDACTED}`, apiKey: REDACTED, model: 'gpt' });
    expect(lines[1]).toMatchObject({ msg: 'hello', component: 'tray' });
    expect(await readFile(file, 'utf8')).not.toContain('sk-abcdefghijklmnopqrstuvwx');
  });

  it('reads the tail of a log in whole lines, and nothing when there is no log yet', async () => {
    const file = join(dir, 'main.log');
    expect(await readLogTail(file)).toBe('');
    await writeFile(file, `${'a'.repeat(100)}\nsecond\nthird\n`);
    expect(await readLogTail(file, 20)).toBe('second\nthird\n');
  });

  it('copies diagnostics without secrets and reveals the log file', async () => {
    const file = join(dir, 'main.log');
    await writeFile(file, '{"msg":"auth ok","token":"abc123abc123"}\n');
    const clipboard: string[] = [];
    const revealed: string[] = [];
    const actions = createLogActions({
      logFile: file,
      showItemInFolder: (p) => void revealed.push(p),
      writeClipboard: (t) => void clipboard.push(t),
      diagnostics: (logTail) =>
        formatDiagnostics({
          appVersion: '0.1.0',
          versions: { electron: '45.5.0', node: '22.0.0', chrome: undefined },
          platform: 'linux',
          arch: 'x64',
          gatewayUrl: 'http://127.0.0.1:18790/?token=gwtoken-secret',
          secretBackend: 'keychain',
          logTail,
          knownSecrets: ['gwtoken-secret'],
        }),
    });
    await actions.copyDiagnostics();
    actions.revealLogs();
    expect(revealed).toEqual([file]);
    expect(clipboard[0]).toContain('Hearth 0.1.0');
    expect(clipboard[0]).toContain('Runtime: electron 45.5.0, node 22.0.0');
    expect(clipboard[0]).toContain('auth ok');
    expect(clipboard[0]).not.toContain('abc123abc123');
    expect(clipboard[0]).not.toContain('gwtoken-secret');
  });
});
