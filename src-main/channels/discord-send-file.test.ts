import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitForChannelConnected } from '../testing/channel-ready.js';
import { type FakeDiscordServer, startFakeDiscordServer } from '../testing/fake-discord-server.js';
import { type ProductFixture, startProductFixture } from '../testing/product-fixture.js';
import { storeTestSecrets } from '../testing/test-secrets.js';

// Media out: the agent sends a file from its workspace into the Discord chat its run answers,
// with `channel_send_file`. The bytes arrive in a multipart message create; a path outside the
// workspace and a file over Discord's 10 MB bot limit are refused with the reason, sending nothing.

const OWNER = { id: '4242000000000000001', username: 'olive', global_name: 'Olive' };
const REPORT = new Uint8Array(Buffer.from('%PDF-1.4\nthe quarterly report\n%%EOF\n'));
const PNG = new Uint8Array(
  Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
    'base64',
  ),
);

let discord: FakeDiscordServer;
let product: ProductFixture;
const dm = () => discord.dmChannelOf(OWNER.id);

beforeAll(async () => {
  discord = await startFakeDiscordServer();
  product = await startProductFixture({
    config: {
      memory: { recall: { enabled: false } },
      channels: { discord: { apiBaseUrl: discord.url, editIntervalMs: 50, allowFrom: [OWNER.id] } },
    },
    before: async (home) => {
      await storeTestSecrets(home, { 'channels.discord.token': discord.token });
      await mkdir(join(home, 'workspace', 'out'), { recursive: true });
      await writeFile(join(home, 'workspace', 'out', 'report.pdf'), REPORT);
      await writeFile(join(home, 'workspace', 'chart.png'), PNG);
      await writeFile(join(home, 'workspace', 'huge.bin'), new Uint8Array(11 * 1024 * 1024));
      await writeFile(join(home, 'secret.txt'), 'not for the channel');
    },
  });
  await waitForChannelConnected(product.socket, 'discord');
}, 60_000);

afterAll(async () => {
  await product?.close();
  await discord?.close();
});

/** The owner asks; the model calls channel_send_file with `input`, then says `after`. Resolves with the tool's answer. */
async function askToSend(input: Record<string, unknown>, after: string) {
  product.llm.script([
    { type: 'tool_calls', calls: [{ name: 'channel_send_file', input }] },
    { type: 'text', text: after },
  ]);
  discord.sendUserMessage({ author: OWNER, content: 'send it to me please' });
  await discord.waitForBotMessage(dm(), (m) => m.content === after);
  return JSON.stringify(product.llm.requests.at(-1)!.body);
}

describe('files out to Discord (channel_send_file)', () => {
  it('sends a document from the workspace: the bytes arrive, with the caption', async () => {
    const told = await askToSend({ path: 'out/report.pdf', caption: 'Here is **the report**' }, 'Sent the report.');
    const sent = discord.botMessages(dm()).find((m) => m.files.length > 0 && m.files[0]!.name === 'report.pdf')!;
    expect(Buffer.from(sent.files[0]!.bytes).equals(Buffer.from(REPORT))).toBe(true);
    expect(sent.files[0]!.type).toBe('application/pdf');
    expect(sent.content).toBe('Here is **the report**');
    expect(told).toContain('sent report.pdf');
  });

  it('sends a photo', async () => {
    await askToSend({ path: 'chart.png' }, 'There is the chart.');
    const sent = discord.botMessages(dm()).find((m) => m.files[0]?.name === 'chart.png')!;
    expect(sent.files[0]!.type).toBe('image/png');
    expect(Buffer.from(sent.files[0]!.bytes).equals(Buffer.from(PNG))).toBe(true);
  });

  it('refuses a path outside the workspace, naming why, and sends nothing', async () => {
    const before = discord.botMessages(dm()).filter((m) => m.files.length > 0).length;
    const told = await askToSend({ path: '../secret.txt' }, 'I could not send that.');
    expect(told).toContain('outside the workspace');
    expect(discord.botMessages(dm()).filter((m) => m.files.length > 0).length).toBe(before);
  });

  it("refuses a file over Discord's 10 MB limit with the sizes", async () => {
    const before = discord.calls.filter((c) => c.files?.length).length;
    const told = await askToSend({ path: 'huge.bin' }, 'It is too big for Discord.');
    expect(told).toContain("huge.bin is 11 MB, over Discord's limit of 10 MB");
    expect(discord.calls.filter((c) => c.files?.length).length).toBe(before);
  });
});
