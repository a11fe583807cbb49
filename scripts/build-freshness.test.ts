import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain JavaScript module of bin/ (it runs before any build exists)
import { isBuildCurrent, newestSourceMtime } from '../bin/build-freshness.js';

// `npm start` and the `hearth` command decide from this whether a build may run or must be remade.
let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'hearth-build-freshness-'));
  await mkdir(join(root, 'src-main', 'agent'), { recursive: true });
  await mkdir(join(root, 'dist'), { recursive: true });
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const at = (seconds: number) => new Date(1_700_000_000_000 + seconds * 1000);
async function file(path: string, seconds: number) {
  await writeFile(join(root, path), 'x');
  await utimes(join(root, path), at(seconds), at(seconds));
}

describe('build freshness', () => {
  it('a build stamped after every source is current; a source edited after it makes the build stale', async () => {
    await file('src-main/agent/runtime.ts', 10);
    await file('dist/.build-stamp', 20);
    expect(isBuildCurrent(root, join(root, 'dist/.build-stamp'), ['src-main'])).toBe(true);
    await file('src-main/agent/runtime.ts', 30);
    expect(isBuildCurrent(root, join(root, 'dist/.build-stamp'), ['src-main'])).toBe(false);
  });

  it('no stamp means no usable build', async () => {
    await file('src-main/agent/runtime.ts', 10);
    expect(isBuildCurrent(root, join(root, 'dist/.build-stamp'), ['src-main'])).toBe(false);
  });

  it('counts styles and markup but not other files or installed packages', async () => {
    await file('src-main/agent/runtime.ts', 10);
    await file('src-main/agent/theme.css', 40);
    await file('src-main/agent/notes.txt', 90);
    await mkdir(join(root, 'src-main', 'node_modules'), { recursive: true });
    await file('src-main/node_modules/x.ts', 99);
    expect(newestSourceMtime(root, ['src-main', 'missing-folder'])).toBe(at(40).getTime());
  });
});
