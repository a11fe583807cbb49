import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitForChannelConnected } from '../testing/channel-ready.js';
import { type FakeTelegramServer, startFakeTelegramServer } from '../testing/fake-telegram-server.js';
import { type ProductFixture, startProductFixture } from '../testing/product-fixture.js';
import { storeTestSecrets } from '../testing/test-secrets.js';

// Media out on Telegram: `channel_send_file` uploads a photo with sendPhoto and a document with
// sendDocument (multipart, as the Bot API takes files); the fake checks the upload limits and
// keeps the bytes. A path outside the workspace is refused and nothing is uploaded.

const OWNER = { id: 4242, first_name: 'Olive', username: 'olive' };
const NOTES = new Uint8Array(Buffer.from('line one\nline two\n'));
const PNG = new Uint8Array(
  Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
    'base64',
  ),
);

let telegram: FakeTelegramServer;
let product: ProductFixture;

beforeAll(async () => {
  telegram = await startFakeTelegramServer();
  product = await startProductFixture({
    config: {
      memory: { recall: { enabled: false } },
      channels: { telegram: { apiBaseUrl: telegram.url, pollTimeoutSeconds: 1, allowFrom: [String(OWNER.id)] } },
    },
    before: async (home) => {
      await storeTestSecrets(home, { 'channels.telegram.token': telegram.token });
      await mkdir(join(home, 'workspace'), { recursive: true });
      await writeFile(join(home, 'workspace', 'notes.txt'), NOTES);
      await writeFile(join(home, 'workspace', 'photo.png'), PNG);
    },
  });
  await waitForChannelConnected(product.socket, 'telegram');
}, 60_000);

afterAll(async () => {
  await product?.close();
  await telegram?.close();
});

async function askToSend(input: Record<string, unknown>, after: string) {
  product.llm.script([
    { type: 'tool_calls', calls: [{ name: 'channel_send_file', input }] },
    { type: 'text', text: after },
  ]);
  telegram.sendUserMessage({ chatId: OWNER.id, from: OWNER, text: 'send it please' });
  await telegram.waitForBotMessage(OWNER.id, (m) => m.text === after);
  return JSON.stringify(product.llm.requests.at(-1)!.body);
}

describe('files out to Telegram (channel_send_file)', () => {
  it('uploads a photo with sendPhoto and a document with sendDocument; the bytes arrive', async () => {
    await askToSend({ path: 'photo.png', caption: 'the photo' }, 'Sent the photo');
    const photo = telegram.botMessages(OWNER.id).find((m) => m.file?.via === 'photo')!;
    expect(Buffer.from(photo.file!.bytes).equals(Buffer.from(PNG))).toBe(true);
    expect(photo.text).toBe('the photo');

    await askToSend({ path: 'notes.txt' }, 'Sent the notes');
    const document = telegram.botMessages(OWNER.id).find((m) => m.file?.via === 'document')!;
    expect(document.file!.name).toBe('notes.txt');
    expect(Buffer.from(document.file!.bytes).equals(Buffer.from(NOTES))).toBe(true);
  });

  it('refuses a path outside the workspace and uploads nothing', async () => {
    const before = telegram.botMessages(OWNER.id).filter((m) => m.file).length;
    const told = await askToSend({ path: '/etc/hostname' }, 'Could not send it');
    expect(told).toContain('outside the workspace');
    expect(telegram.botMessages(OWNER.id).filter((m) => m.file).length).toBe(before);
  });
});
