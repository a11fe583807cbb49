import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFileToolsFixture, type FileToolsFixture } from '../../testing/file-tools-fixture.js';

let fx: FileToolsFixture;
beforeEach(async () => {
  fx = await createFileToolsFixture();
});
afterEach(() => fx.dispose());

const numbered = (count: number) => Array.from({ length: count }, (_, index) => `line ${index + 1}`).join('\n');

describe('read', () => {
  it('returns a whole small file as it is', async () => {
    await writeFile(join(fx.workspace, 'a.txt'), 'one\ntwo\n');
    expect(await fx.run('read', { path: 'a.txt' })).toEqual({ output: 'one\ntwo' });
  });

  it('returns a line range and says where to read on', async () => {
    await writeFile(join(fx.workspace, 'long.txt'), `${numbered(5000)}\n`);
    const result = await fx.run('read', { path: 'long.txt', offset: 10, limit: 3 });
    expect(result.output).toBe('line 10\nline 11\nline 12\n[lines 10–12 of 5000 in long.txt; read on with offset 13]');
    const first = await fx.run('read', { path: 'long.txt' });
    expect(first.output.endsWith('[lines 1–2000 of 5000 in long.txt; read on with offset 2001]')).toBe(true);
    const last = await fx.run('read', { path: 'long.txt', offset: 4999 });
    expect(last.output).toBe('line 4999\nline 5000\n[lines 4999–5000 of 5000 in long.txt]');
  });

  it('says so when the offset is past the end', async () => {
    await writeFile(join(fx.workspace, 'short.txt'), 'a\nb\n');
    expect(await fx.run('read', { path: 'short.txt', offset: 9 })).toEqual({
      output: 'short.txt has 2 lines; offset 9 is past its end',
      isError: true,
    });
  });

  it('refuses a binary file that is not an image and says what it is', async () => {
    await writeFile(join(fx.workspace, 'doc.pdf'), Buffer.from('%PDF-1.7\n\0\0'));
    await writeFile(join(fx.workspace, 'blob.bin'), Buffer.from('abc\0def'));
    expect(await fx.run('read', { path: 'doc.pdf' })).toEqual({
      output: 'refused: doc.pdf is a binary file (PDF document, 11 bytes); read works on text only',
      isError: true,
    });
    expect((await fx.run('read', { path: 'blob.bin' })).output).toMatch(/binary file \(binary data, 7 bytes\)/);
  });

  it('reads UTF-8 text with multi-byte characters, not taking it for binary', async () => {
    const text = '你好，世界。'.repeat(2000);
    await writeFile(join(fx.workspace, 'zh.txt'), text);
    expect((await fx.run('read', { path: 'zh.txt' })).output).toBe(text);
  });

  it('names what was wrong: a folder, a missing file, an empty file', async () => {
    await mkdir(join(fx.workspace, 'src'));
    await writeFile(join(fx.workspace, 'empty.txt'), '');
    expect(await fx.run('read', { path: 'src' })).toEqual({
      output: 'src is a folder; use list to see what is in it',
      isError: true,
    });
    expect(await fx.run('read', { path: 'nope.txt' })).toEqual({
      output: 'nope.txt: no such file or folder',
      isError: true,
    });
    expect(await fx.run('read', { path: 'empty.txt' })).toEqual({ output: '(empty.txt is empty)' });
  });
});
