import { truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { toModelMessages } from '../../agent/loop/to-model-messages.js';
import { runToolCall } from '../../agent/loop/tool-calls.js';
import { silentLogger } from '../../base/logger.js';
import { createFileToolsFixture, type FileToolsFixture } from '../../testing/file-tools-fixture.js';
import { IMAGE_MAX_BYTES, imageDimensions } from './image-file.js';

// A 1×1 PNG, and the first bytes of the other kinds read shows (told by bytes, not by names).
const png = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0]);
const gif = Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1');
const webp = Buffer.concat([Buffer.from('RIFF'), Buffer.from([26, 0, 0, 0]), Buffer.from('WEBPVP8 ')]);

let fx: FileToolsFixture;
afterEach(() => fx.dispose());

describe('read of an image', () => {
  it('returns PNG, JPEG, GIF and WebP as images, by their bytes whatever the name', async () => {
    fx = await createFileToolsFixture();
    const files: [string, Buffer, string][] = [
      ['logo.png', png, 'image/png'],
      ['photo.jpg', jpeg, 'image/jpeg'],
      ['anim.gif', gif, 'image/gif'],
      ['pic.webp', webp, 'image/webp'],
      ['misnamed.txt', png, 'image/png'],
    ];
    for (const [name, bytes, mediaType] of files) {
      await writeFile(join(fx.workspace, name), bytes);
      const result = await fx.run('read', { path: name });
      expect(result.isError).toBeUndefined();
      expect(result.images).toEqual([{ mediaType, data: bytes.toString('base64') }]);
    }
    expect((await fx.run('read', { path: 'logo.png' })).output).toBe(`logo.png: PNG image, ${png.length} bytes`);
  });

  it('reaches the model as an image part of the tool result (AI SDK content output)', async () => {
    fx = await createFileToolsFixture();
    await writeFile(join(fx.workspace, 'logo.png'), png);
    const call = {
      kind: 'tool_call' as const,
      id: 'c1',
      ts: 1,
      toolCallId: 't1',
      toolName: 'read',
      input: { path: 'logo.png' },
    };
    const result = await runToolCall({
      call,
      tools: new Map(fx.tools.map((tool) => [tool.name, tool])),
      hooks: {},
      context: { agentId: 'main', sessionKey: 'agent:main:main', workspaceDir: fx.workspace, log: silentLogger },
      signal: new AbortController().signal,
      log: silentLogger,
      newId: () => 'r1',
      now: () => 2,
    });
    const [, tool] = toModelMessages([call, result]);
    expect(tool).toEqual({
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 't1',
          toolName: 'read',
          output: {
            type: 'content',
            value: [
              { type: 'text', text: `logo.png: PNG image, ${png.length} bytes` },
              { type: 'image-data', mediaType: 'image/png', data: png.toString('base64') },
            ],
          },
        },
      ],
    });
  });

  it('tells a text-only model what the image is (name, size, pixels) instead of sending it', async () => {
    fx = await createFileToolsFixture({ modelTakesImages: false });
    await writeFile(join(fx.workspace, 'logo.png'), png);
    const result = await fx.run('read', { path: 'logo.png' });
    expect(result).toEqual({
      output: `logo.png: PNG image, ${png.length} bytes, 1×1 pixels. Not shown: this agent's model takes text only; you cannot see this image, so say so rather than guess what is in it`,
    });
  });

  it('reads the dimensions from the header of each kind, and says nothing when the header is cut', () => {
    const u16be = (n: number) => [n >> 8, n & 0xff];
    const u16le = (n: number) => [n & 0xff, n >> 8];
    const jpegWithExif = Buffer.from([
      0xff,
      0xd8,
      0xff,
      0xe1,
      ...u16be(8),
      0x45,
      0x78,
      0x69,
      0x66,
      0,
      0, // APP1 (EXIF) before the frame
      0xff,
      0xc2,
      ...u16be(17),
      8,
      ...u16be(480),
      ...u16be(640),
      3, // progressive SOF2: height, width
    ]);
    const gif320 = Buffer.from([...Buffer.from('GIF89a'), ...u16le(320), ...u16le(200), 0, 0, 0]);
    const riff = (chunk: string, body: number[]) =>
      Buffer.from([
        ...Buffer.from('RIFF'),
        0,
        0,
        0,
        0,
        ...Buffer.from('WEBP'),
        ...Buffer.from(chunk),
        0,
        0,
        0,
        0,
        ...body,
      ]);
    const lossy = riff('VP8 ', [0, 0, 0, 0x9d, 0x01, 0x2a, ...u16le(800), ...u16le(600)]);
    const bits = (1024 - 1) | ((768 - 1) << 14);
    const lossless = riff('VP8L', [
      0x2f,
      bits & 0xff,
      (bits >> 8) & 0xff,
      (bits >> 16) & 0xff,
      bits >>> 24,
      0,
      0,
      0,
      0,
    ]);
    const extended = riff('VP8X', [0, 0, 0, 0, 1919 & 0xff, 1919 >> 8, 0, 1079 & 0xff, 1079 >> 8, 0]);
    expect(imageDimensions(png, 'image/png')).toEqual({ width: 1, height: 1 });
    expect(imageDimensions(jpegWithExif, 'image/jpeg')).toEqual({ width: 640, height: 480 });
    expect(imageDimensions(gif320, 'image/gif')).toEqual({ width: 320, height: 200 });
    expect(imageDimensions(lossy, 'image/webp')).toEqual({ width: 800, height: 600 });
    expect(imageDimensions(lossless, 'image/webp')).toEqual({ width: 1024, height: 768 });
    expect(imageDimensions(extended, 'image/webp')).toEqual({ width: 1920, height: 1080 });
    expect(imageDimensions(jpeg, 'image/jpeg')).toBeUndefined();
    expect(imageDimensions(png.subarray(0, 20), 'image/png')).toBeUndefined();
  });

  it('refuses an image over the size cap, saying how to shrink it', async () => {
    fx = await createFileToolsFixture();
    const path = join(fx.workspace, 'huge.png');
    await writeFile(path, png);
    await truncate(path, IMAGE_MAX_BYTES + 1);
    const result = await fx.run('read', { path: 'huge.png' });
    expect(result).toEqual({
      output:
        'refused: huge.png is a PNG image of 3.8 MB, over the 3.8 MB an image may be; make a smaller copy with exec (e.g. convert -resize 50%) and read that',
      isError: true,
    });
  });
});
