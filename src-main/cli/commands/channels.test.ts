import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../base/logger.js';
import { createHearthPaths } from '../../paths/index.js';
import { openSecretStore } from '../../secrets/index.js';
import { runCliCaptured } from '../../testing/cli-run.js';
import { type FakeTelegramServer, startFakeTelegramServer } from '../../testing/fake-telegram-server.js';
import { type ProductFixture, startProductFixture } from '../../testing/product-fixture.js';

// `hearth channels add|remove`: the app's setup wizard from a terminal, against a running
// product and the fake Telegram Bot API.

let telegram: FakeTelegramServer;
let product: ProductFixture;
beforeAll(async () => {
  telegram = await startFakeTelegramServer();
  product = await startProductFixture({ config: { memory: { recall: { enabled: false } } } });
}, 60_000);
afterAll(async () => {
  await product?.close();
  await telegram?.close();
});

const cli = (args: string[], stdin = '') =>
  runCliCaptured(
    args,
    { HEARTH_HOME: product.home, HEARTH_PORT: String(product.host.port), HEARTH_SECRET_STORE: 'file' },
    stdin,
  );
const config = async () =>
  JSON.parse(await readFile(join(product.home, 'hearth.json'), 'utf8')) as {
    channels?: Record<string, Record<string, unknown> | undefined>;
  };
const secret = async (account: string) => {
  const { store } = await openSecretStore({
    paths: createHearthPaths(product.home),
    log: silentLogger,
    env: { HEARTH_SECRET_STORE: 'file' },
  });
  return store.get(account);
};

describe('hearth channels add / remove', () => {
  it('--show prints what to do first and each setting', async () => {
    const shown = await cli(['channels', 'add', 'telegram', '--show']);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(/BotFather/);
    expect(shown.stdout).toMatch(/token {2}secret \(required\)/);
    expect(shown.stdout).toMatch(/pollTimeoutSeconds {2}number/);
  });

  it('refuses an unknown setting, a wrong kind and a secret on argv, and writes nothing', async () => {
    const unknown = await cli(['channels', 'add', 'telegram', '--set', 'colour=blue']);
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toMatch(/telegram has no setting "colour" \(settings: token, mode/);
    const wrong = await cli(['channels', 'add', 'telegram', '--set', 'pollTimeoutSeconds=soon']);
    expect(wrong.stderr).toMatch(/pollTimeoutSeconds takes a number, got "soon"/);
    const leaked = await cli(['channels', 'add', 'telegram', '--set', `token=${telegram.token}`]);
    expect(leaked.stderr).toMatch(/token is a secret; pass it on stdin with --secret-stdin token/);
    expect((await config()).channels).toBeUndefined();
  });

  it('adds Telegram with the token from stdin: connected, the token in the secret store, not in hearth.json', async () => {
    const added = await cli(
      [
        'channels',
        'add',
        'telegram',
        '--set',
        `apiBaseUrl=${telegram.url}`,
        '--set',
        'pollTimeoutSeconds=1',
        '--secret-stdin',
        'token',
      ],
      `${telegram.token}\n`,
    );
    expect(added.stderr).toBe('');
    expect(added.stdout).toMatch(/^added telegram \(secrets stored: /);
    expect(added.stdout).toMatch(/telegram {2}Telegram: connected/);
    const written = await config();
    expect(written.channels?.telegram).toMatchObject({ apiBaseUrl: telegram.url, pollTimeoutSeconds: 1 });
    expect(JSON.stringify(written)).not.toContain(telegram.token);
    expect(await secret('channels.telegram.token')).toBe(telegram.token);
  });

  it('removes it: the block leaves hearth.json, the channel stops, --forget-secrets deletes the token', async () => {
    const removed = await cli(['channels', 'remove', 'telegram', '--forget-secrets']);
    expect(removed.code).toBe(0);
    expect(removed.stdout).toContain('removed channels.telegram from hearth.json');
    expect(removed.stdout).toContain('channels.telegram.token');
    expect((await config()).channels?.telegram).toBeUndefined();
    expect(await secret('channels.telegram.token')).toBeUndefined();
    const again = await cli(['channels', 'remove', 'telegram']);
    expect(again.stderr).toMatch(/telegram is not set up/);
  });
});
