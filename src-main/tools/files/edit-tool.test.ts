import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFileToolsFixture, type FileToolsFixture } from '../../testing/file-tools-fixture.js';

let fx: FileToolsFixture;
const source = 'function a() {\n  return 1;\n}\n\nfunction b() {\n  return 1;\n}\n';
beforeEach(async () => {
  fx = await createFileToolsFixture();
  await writeFile(join(fx.workspace, 'code.js'), source);
});
afterEach(() => fx.dispose());
const content = () => readFile(join(fx.workspace, 'code.js'), 'utf8');

describe('edit', () => {
  it('replaces text that occurs once', async () => {
    expect(await fx.run('edit', { path: 'code.js', old: 'function b', new: 'function c' })).toEqual({
      output: 'edited code.js: replaced one occurrence (line 5)',
    });
    expect(await content()).toBe(source.replace('function b', 'function c'));
  });

  it('refuses an ambiguous match, names its lines, and changes nothing', async () => {
    const result = await fx.run('edit', { path: 'code.js', old: 'return 1;', new: 'return 2;' });
    expect(result).toEqual({
      output:
        'edit: the old text occurs 2 times in code.js (lines 2, 6); include more surrounding lines so it matches once, or set all to replace every one',
      isError: true,
    });
    expect(await content()).toBe(source);
  });

  it('replaces every occurrence when asked to', async () => {
    expect((await fx.run('edit', { path: 'code.js', old: 'return 1;', new: 'return 2;', all: true })).output).toBe(
      'edited code.js: replaced 2 occurrences (2 places)',
    );
    expect(await content()).toBe(source.replaceAll('return 1;', 'return 2;'));
  });

  it('says clearly when the text is missing, with a hint when whitespace is the reason', async () => {
    expect(await fx.run('edit', { path: 'code.js', old: 'function z', new: 'x' })).toEqual({
      output: 'edit: the old text was not found in code.js; read the file again and copy the text exactly',
      isError: true,
    });
    const spaced = await fx.run('edit', { path: 'code.js', old: 'function a() {\n    return 1;', new: 'x' });
    expect(spaced.output).toMatch(/not found in code\.js \(it matches when whitespace is ignored/);
    expect(await content()).toBe(source);
  });

  it('points at CRLF line endings when they are why', async () => {
    await writeFile(join(fx.workspace, 'win.txt'), 'one\r\ntwo\r\n');
    const result = await fx.run('edit', { path: 'win.txt', old: 'one\ntwo', new: 'x' });
    expect(result.output).toMatch(/CRLF line endings/);
  });

  it('writes replacement text literally ($& and $1 are not patterns)', async () => {
    await fx.run('edit', { path: 'code.js', old: 'function a', new: 'function $&_$1' });
    expect(await content()).toContain('function $&_$1()');
  });

  it('rejects an empty old text and refuses binary files', async () => {
    expect((await fx.run('edit', { path: 'code.js', old: '', new: 'x' })).output).toMatch(/old must not be empty/);
    await writeFile(join(fx.workspace, 'x.bin'), Buffer.from([0, 1, 2, 3]));
    expect((await fx.run('edit', { path: 'x.bin', old: 'a', new: 'b' })).output).toMatch(
      /binary file.*edit works on text only/,
    );
  });
});
