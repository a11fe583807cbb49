import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeTelegramServer, startFakeTelegramServer } from '../../src-main/testing/fake-telegram-server.js';
import { TelegramApi } from './telegram-api.js';
import { startTelegramStream } from './telegram-stream.js';

// How a streamed reply looks in Telegram: one message, edited in place at a bounded rate.

let telegram: FakeTelegramServer;
let api: TelegramApi;
const errors: unknown[] = [];
beforeEach(async () => {
  telegram = await startFakeTelegramServer();
  api = new TelegramApi({ baseUrl: telegram.url, token: telegram.token, fetch, signal: new AbortController().signal });
  errors.length = 0;
});
afterEach(async () => {
  await telegram.close();
});

const chat = { peerKind: 'direct' as const, peerId: '42' };

describe('a streamed Telegram reply', () => {
  it('coalesces a burst of updates into few edits of one message, ending with the whole text', async () => {
    const stream = startTelegramStream(api, chat, { editIntervalMs: 200, onError: (e) => errors.push(e) });
    let text = '';
    for (let i = 0; i < 200; i++) {
      text += `word${i} `;
      stream.update(text);
    }
    await stream.end(`${text.trim()}.`);
    const [message] = telegram.botMessages(42);
    expect(telegram.botMessages(42)).toHaveLength(1);
    expect(message!.text).toBe(`${text.trim()}\\.`);
    // The first send, perhaps one coalesced edit, the final edit: never one call per update.
    expect(message!.versions.length).toBeLessThanOrEqual(4);
    expect(errors).toEqual([]);
  });

  it('still lands the final text when an edit is rate limited', async () => {
    const stream = startTelegramStream(api, chat, { editIntervalMs: 50, onError: (e) => errors.push(e) });
    stream.update('Thinking');
    await telegram.waitForCall('sendMessage');
    telegram.rateLimitNext('editMessageText', 1);
    stream.update('Thinking about it');
    await stream.end('Thinking about it: done!');
    expect(telegram.calls.some((c) => c.method === 'editMessageText' && c.status === 429)).toBe(true);
    expect(telegram.botMessages(42).map((m) => m.text)).toEqual(['Thinking about it: done\\!']);
  });

  it('continues a reply longer than one message in further messages, each accepted by Telegram', async () => {
    const stream = startTelegramStream(api, chat, { editIntervalMs: 50, onError: (e) => errors.push(e) });
    const long = Array.from({ length: 120 }, (_, i) => `Paragraph ${i}: some text. With dots!`).join('\n\n');
    stream.update(long.slice(0, 100));
    await stream.end(long);
    const messages = telegram.botMessages(42);
    expect(messages.length).toBeGreaterThanOrEqual(2);
    for (const message of messages) {
      expect(message.text.length).toBeLessThanOrEqual(4096);
      expect(message.parseMode).toBe('MarkdownV2');
    }
    expect(messages.at(-1)!.text).toContain('Paragraph 119');
    expect(telegram.calls.filter((c) => c.status !== 200)).toEqual([]);
  });
});
