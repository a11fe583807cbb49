import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFileToolsFixture, type FileToolsFixture } from '../../testing/file-tools-fixture.js';

let fx: FileToolsFixture;
beforeEach(async () => {
  fx = await createFileToolsFixture();
  await mkdir(join(fx.workspace, '.git'));
  await mkdir(join(fx.workspace, 'src'));
  await mkdir(join(fx.workspace, 'node_modules'));
  await writeFile(join(fx.workspace, '.gitignore'), 'node_modules/\n*.log\n');
  await writeFile(join(fx.workspace, 'debug.log'), '');
  await writeFile(join(fx.workspace, 'README.md'), '');
  await symlink(join(fx.workspace, 'src'), join(fx.workspace, 'source'));
});
afterEach(() => fx.dispose());

describe('list', () => {
  it('lists the workspace, folders marked, .gitignored entries hidden', async () => {
    expect((await fx.run('list', {})).output).toBe(['.gitignore', 'README.md', 'source/ (link)', 'src/'].join('\n'));
  });

  it('shows everything with all', async () => {
    expect((await fx.run('list', { all: true })).output.split('\n')).toEqual([
      '.git/',
      '.gitignore',
      'README.md',
      'debug.log',
      'node_modules/',
      'source/ (link)',
      'src/',
    ]);
  });

  it('honours the repository .gitignore in a subfolder', async () => {
    await writeFile(join(fx.workspace, 'src', 'app.ts'), '');
    await writeFile(join(fx.workspace, 'src', 'trace.log'), '');
    expect((await fx.run('list', { path: 'src' })).output).toBe('app.ts');
  });

  it('never shows ~/.ssh, even when the person allowed listing home', async () => {
    fx.answers.push('allow-once');
    const result = await fx.run('list', { path: '~' });
    expect(result.output.split('\n')).toEqual(['.aws/', 'workspace/']);
  });

  it('says what was wrong with a file path', async () => {
    expect(await fx.run('list', { path: 'README.md' })).toEqual({
      output: 'README.md is a file, not a folder; use read',
      isError: true,
    });
  });
});
