import { chmod, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFileToolsFixture, type FileToolsFixture } from '../../testing/file-tools-fixture.js';

let fx: FileToolsFixture;
beforeEach(async () => {
  fx = await createFileToolsFixture();
});
afterEach(() => fx.dispose());

describe('write', () => {
  it('creates a file and the folders it needs', async () => {
    expect(await fx.run('write', { path: 'docs/new/plan.md', content: '# Plan\n' })).toEqual({
      output: 'created docs/new/plan.md (7 bytes)',
    });
    expect(await readFile(join(fx.workspace, 'docs/new/plan.md'), 'utf8')).toBe('# Plan\n');
  });

  it('replaces a file whole and keeps its permissions', async () => {
    const path = join(fx.workspace, 'run.sh');
    await writeFile(path, 'echo old\n');
    await chmod(path, 0o755);
    expect((await fx.run('write', { path: 'run.sh', content: 'echo new\n' })).output).toBe('replaced run.sh (9 bytes)');
    expect(await readFile(path, 'utf8')).toBe('echo new\n');
    expect((await stat(path)).mode & 0o777).toBe(0o755);
  });

  it('leaves nothing behind outside the workspace when the person says no', async () => {
    const result = await fx.run('write', { path: join(fx.outside, 'x.txt'), content: 'x' });
    expect(result.isError).toBe(true);
    await expect(stat(join(fx.outside, 'x.txt'))).rejects.toThrow(/ENOENT/);
  });

  it('refuses to write over a folder', async () => {
    await mkdir(join(fx.workspace, 'src'));
    expect(await fx.run('write', { path: 'src', content: 'x' })).toEqual({
      output: 'src is a folder; give a file path',
      isError: true,
    });
  });
});
