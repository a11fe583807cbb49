import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CREDENTIALS } from '../testing/credential-samples.js';
import { createFileLogger } from './create-logger.js';

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
  dir = undefined;
});

/** The file as it is once pino's asynchronous destination has written `lines` lines. */
async function readLines(path: string, lines: number): Promise<string> {
  for (;;) {
    const text = await readFile(path, 'utf8').catch(() => '');
    if (text.split('\n').filter(Boolean).length >= lines) return text;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe('gateway log', () => {
  it('writes no credential of any format, in messages, fields, nested fields or child bindings', async () => {
    dir = await mkdtemp(join(tmpdir(), 'hearth-log-'));
    const gatewayToken = 'Zq3xW9vK2mN8pR4tY6uI0oPaSdFgHjKl';
    const log = createFileLogger(dir, 'gateway', 'debug', () => [gatewayToken]);
    for (const [format, secret] of CREDENTIALS) {
      log.info(`provider call failed for ${format}: key ${secret} rejected`, {
        url: `https://api.example.com/v1?key=${secret}`,
        request: { headers: { authorization: `Bearer ${secret}` }, body: `{"apiKey":"${secret}"}` },
      });
    }
    log.child({ connectUrl: `ws://127.0.0.1:1/#token=${gatewayToken}` }).warn(`client sent ${gatewayToken}`);
    log.error('telegram', { update: { text: 'my bot token is 123456:AAFk2lQwErTyUiOpAsDfGhJkLzXcVbNm123' } });
    const text = await readLines(join(dir, 'gateway.log'), CREDENTIALS.length + 2);
    for (const [format, secret] of CREDENTIALS)
      expect({ format, leaked: text.includes(secret) }).toEqual({ format, leaked: false });
    expect(text).not.toContain(gatewayToken);
    expect(text).not.toContain('AAFk2lQwErTyUiOpAsDfGhJkLzXcVbNm123');
    expect(text).toContain('provider call failed for Anthropic');
  });

  it('skips work below the level', async () => {
    dir = await mkdtemp(join(tmpdir(), 'hearth-log-'));
    const log = createFileLogger(dir, 'gateway', 'warn');
    log.debug('not written');
    log.warn('written');
    expect(await readLines(join(dir, 'gateway.log'), 1)).not.toContain('not written');
  });
});
