import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFileToolsFixture, type FileToolsFixture } from '../../testing/file-tools-fixture.js';

let fx: FileToolsFixture;
beforeEach(async () => {
  fx = await createFileToolsFixture();
  const files: Record<string, string | Buffer> = {
    '.gitignore': 'build/\n',
    'src/a.ts': 'const token = read();\nexport const TOKEN_NAME = "x";\n',
    'src/b.py': 'token = 1\n',
    'build/out.js': 'const token = 2;\n',
    'img.bin': Buffer.from('token\0\0\0'),
  };
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(fx.workspace, path)), { recursive: true });
    await writeFile(join(fx.workspace, path), text);
  }
});
afterEach(() => fx.dispose());

describe('grep', () => {
  it('lists file:line: text of each match, skipping ignored and binary files', async () => {
    expect((await fx.run('grep', { pattern: 'token' })).output.split('\n')).toEqual([
      'src/a.ts:1: const token = read();',
      'src/b.py:1: token = 1',
    ]);
  });

  it('filters by glob, ignores case, takes literal text', async () => {
    expect((await fx.run('grep', { pattern: 'token', glob: '*.ts', ignoreCase: true })).output.split('\n')).toEqual([
      'src/a.ts:1: const token = read();',
      'src/a.ts:2: export const TOKEN_NAME = "x";',
    ]);
    expect((await fx.run('grep', { pattern: 'read()', literal: true })).output).toBe(
      'src/a.ts:1: const token = read();',
    );
    expect((await fx.run('grep', { pattern: 'token', path: 'src/b.py' })).output).toBe('b.py:1: token = 1');
  });

  it('says when nothing matched, and names a bad pattern', async () => {
    expect(await fx.run('grep', { pattern: 'nowhere' })).toEqual({ output: 'no matches for nowhere in .' });
    const bad = await fx.run('grep', { pattern: 'a(b' });
    expect(bad.isError).toBe(true);
    expect(bad.output).toMatch(/^grep: the pattern is not a valid regular expression/);
  });

  it('never searches ~/.ssh or the identity folder, even in a search of a folder above them', async () => {
    await writeFile(join(fx.home, '.ssh', 'id_ed25519'), 'token PRIVATE\n');
    await writeFile(join(fx.identityDir, 'device.json'), 'token\n');
    fx.answers.push('allow-once', 'allow-once');
    const home = await fx.run('grep', { pattern: 'PRIVATE|token', path: '~' });
    expect(home.output).not.toMatch(/\.ssh|PRIVATE/);
    expect(home.output).toMatch(/workspace\/src\/a\.ts:1:/);
    const all = await fx.run('grep', { pattern: 'token', path: fx.root });
    expect(all.output).not.toMatch(/identity|\.ssh/);
  });
});
