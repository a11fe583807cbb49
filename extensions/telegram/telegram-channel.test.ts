import { afterEach, describe, expect, it } from 'vitest';
import type {
  ChannelHealth,
  ChannelInboundMessage,
  ChannelStartContext,
  RunningChannel,
} from '../../src-main/plugins/sdk/index.js';
import { type FakeTelegramServer, startFakeTelegramServer } from '../../src-main/testing/fake-telegram-server.js';
import { normaliseUpdate, telegramChannel } from './telegram-channel.js';
import { validateTelegramConfig } from './telegram-config.js';

// The plugin alone, as the channel host drives it through the SDK contract, against the fake Bot API.

const silentLogger: ChannelStartContext<unknown>['log'] = {
  debug() {},
  info() {},
  warn() {},
  error() {},
  child: () => silentLogger,
};

let telegram: FakeTelegramServer | undefined;
let running: RunningChannel | undefined;
afterEach(async () => {
  await running?.dispose();
  running = undefined;
  await telegram?.close();
  telegram = undefined;
});

async function start(
  token: string | undefined,
  onHealth: (health: ChannelHealth) => void,
  received: ChannelInboundMessage[] = [],
) {
  telegram = await startFakeTelegramServer();
  let stored: Record<string, unknown> = {};
  const controller = new AbortController();
  running = await telegramChannel.start({
    channelId: 'telegram',
    accountId: 'default',
    config: validateTelegramConfig({ apiBaseUrl: telegram.url, pollTimeoutSeconds: 1, editIntervalMs: 50 }),
    secret: async () => token ?? telegram!.token,
    storage: {
      read: async () => stored,
      write: async (value) => {
        stored = value;
      },
    },
    log: silentLogger,
    fetch,
    signal: controller.signal,
    receive: async (message) => void received.push(message),
    reportHealth: onHealth,
  });
  return { received, stored: () => stored };
}

const until = (test: () => boolean) =>
  new Promise<void>((resolve) => {
    const check = () => (test() ? resolve() : setTimeout(check, 10));
    check();
  });

describe('the telegram channel plugin', () => {
  it('reports a wrong token as an error that says what to do, and stops asking', async () => {
    const health: ChannelHealth[] = [];
    await start('999:wrong', (h) => health.push(h));
    await until(() => health.some((h) => h.state === 'error'));
    expect(health.at(-1)?.error).toMatch(/rejected the bot token \(401 Unauthorized\).*hearth channels token telegram/);
    expect(health.at(-1)?.error).not.toContain('999:wrong');
    expect(telegram!.calls.filter((c) => c.method === 'getUpdates')).toHaveLength(0);
  });

  it('refuses to start without a token, naming the secret store entry', async () => {
    telegram = await startFakeTelegramServer();
    await expect(
      telegramChannel.start({
        channelId: 'telegram',
        accountId: 'default',
        config: validateTelegramConfig({ apiBaseUrl: telegram.url }),
        secret: async () => undefined,
        storage: { read: async () => ({}), write: async () => {} },
        log: silentLogger,
        fetch,
        signal: new AbortController().signal,
        receive: async () => {},
        reportHealth: () => {},
      }),
    ).rejects.toThrow('store the token from @BotFather in the secret store as "channels.telegram.token"');
  });

  it('skips malformed updates and keeps going, acknowledging each one once', async () => {
    const health: ChannelHealth[] = [];
    const { received, stored } = await start(undefined, (h) => health.push(h));
    await until(() => health.some((h) => h.state === 'connected'));
    telegram!.pushUpdate({ message: { message_id: 1, chat: { id: 5, type: 'private' }, date: 0 } as never });
    telegram!.pushUpdate({ edited_message: {} } as never);
    const last = telegram!.sendUserMessage({ chatId: 5, from: { id: 5, first_name: 'Pat' }, text: 'still works' });
    await until(() => received.length === 1 && stored().offset === last + 1);
    expect(received[0]).toMatchObject({ text: 'still works', target: { peerKind: 'direct', peerId: '5' } });
    await telegram!.waitForCall('getUpdates', (c) => Number(c.params.offset) === last + 1);
    expect(telegram!.confirmedOffset).toBe(last + 1);
  });

  it('refuses the token in hearth.json, and bad settings by name', () => {
    expect(() => validateTelegramConfig({ token: '123:abc' })).toThrow(
      /channels\.telegram\.token is not a Telegram setting.*secret store/,
    );
    expect(() => validateTelegramConfig({ pollTimeoutSeconds: 90 })).toThrow(
      'channels.telegram.pollTimeoutSeconds must be an integer from 1 to 50, got 90',
    );
    expect(() => validateTelegramConfig({ apiBaseUrl: 'ftp://x' })).toThrow(/apiBaseUrl must be an http\(s\) URL/);
  });

  it('marks group messages addressed to the bot (mention or reply) and strips the mention', () => {
    const bot = { id: 1, username: 'hearth_bot' };
    const group = { id: -5, type: 'supergroup' };
    const from = { id: 9, first_name: 'Ann' };
    const mention = normaliseUpdate(
      { update_id: 1, message: { message_id: 3, chat: group, from, date: 1, text: '@Hearth_Bot what time is it?' } },
      bot,
    );
    expect(mention).toMatchObject({
      message: { addressedToBot: true, text: 'what time is it?', target: { peerKind: 'group', peerId: '-5' } },
    });
    const reply = normaliseUpdate(
      {
        update_id: 2,
        message: { message_id: 4, chat: group, from, date: 1, text: 'and now?', reply_to_message: { from: { id: 1 } } },
      },
      bot,
    );
    expect(reply).toMatchObject({ message: { addressedToBot: true } });
    const chatter = normaliseUpdate(
      { update_id: 3, message: { message_id: 5, chat: group, from, date: 1, text: 'lunch?' } },
      bot,
    );
    expect(chatter).toMatchObject({ message: { addressedToBot: false } });
    expect(
      normaliseUpdate(
        { update_id: 4, message: { message_id: 6, chat: group, from: { id: 2, is_bot: true }, date: 1, text: 'beep' } },
        bot,
      ),
    ).toEqual({ skip: 'message from a bot' });
  });
});
