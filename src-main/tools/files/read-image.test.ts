import { truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { toModelMessages } from '../../agent/loop/to-model-messages.js';
import { runToolCall } from '../../agent/loop/tool-calls.js';
import { silentLogger } from '../../base/logger.js';
import { createFileToolsFixture, type FileToolsFixture } from '../../testing/file-tools-fixture.js';
import { IMAGE_MAX_BYTES } from './image-file.js';

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

  it('tells a text-only model what the image is instead of sending it', async () => {
    fx = await createFileToolsFixture({ modelTakesImages: false });
    await writeFile(join(fx.workspace, 'logo.png'), png);
    const result = await fx.run('read', { path: 'logo.png' });
    expect(result).toEqual({
      output: `logo.png: PNG image, ${png.length} bytes. Not shown: this agent's model takes text only (pick a model that takes images to see it)`,
    });
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
