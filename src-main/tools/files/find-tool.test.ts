import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFileToolsFixture, type FileToolsFixture } from '../../testing/file-tools-fixture.js';

let fx: FileToolsFixture;
const files = {
  '.gitignore': 'dist/\n*.tmp\n',
  'src/app.ts': '',
  'src/app.test.ts': '',
  'src/lib/util.ts': '',
  'src/lib/.gitignore': 'generated.ts\n!keep.tmp\n',
  'src/lib/generated.ts': '',
  'src/lib/keep.tmp': '',
  'src/lib/drop.tmp': '',
  'dist/app.js': '',
  '.git/HEAD': 'ref: refs/heads/main\n',
  'README.md': '',
};
beforeEach(async () => {
  fx = await createFileToolsFixture();
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(fx.workspace, path)), { recursive: true });
    await writeFile(join(fx.workspace, path), text);
  }
});
afterEach(() => fx.dispose());

describe('find', () => {
  it('finds by name anywhere below, as rg --files would list them (.gitignore, nested rules, negation)', async () => {
    expect((await fx.run('find', { pattern: '*.ts' })).output.split('\n')).toEqual([
      'src/app.test.ts',
      'src/app.ts',
      'src/lib/util.ts',
    ]);
    expect((await fx.run('find', { pattern: '*.tmp' })).output).toBe('src/lib/keep.tmp');
  });

  it('matches a path glob from the search folder', async () => {
    expect((await fx.run('find', { pattern: 'src/**/*.ts' })).output.split('\n')).toEqual([
      'src/app.test.ts',
      'src/app.ts',
      'src/lib/util.ts',
    ]);
    expect((await fx.run('find', { pattern: '*.{md,js}' })).output).toBe('README.md');
    expect((await fx.run('find', { pattern: 'lib', type: 'folder' })).output).toBe('src/lib/');
    expect((await fx.run('find', { pattern: '*.ts', path: 'src/lib' })).output).toBe('[under src/lib]\nutil.ts');
  });

  it('does not follow symbolic links out of the folder', async () => {
    await writeFile(join(fx.outside, 'secret.ts'), '');
    await symlink(fx.outside, join(fx.workspace, 'src', 'elsewhere'));
    expect((await fx.run('find', { pattern: 'secret.ts' })).output).toBe('no paths under . match secret.ts');
  });

  it('rejects a broken glob by name', async () => {
    expect(await fx.run('find', { pattern: '{a,b' })).toEqual({
      output: 'find: glob pattern has an unclosed "{": {a,b',
      isError: true,
    });
  });
});
