import { link, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../base/logger.js';
import type { ToolContext, ToolDefinition, ToolOutput } from '../tool.js';
import { createCanvasTools } from './canvas-tools.js';

let workspace: string;
let outside: string;
let context: ToolContext;
const [write, read, clear] = createCanvasTools() as [ToolDefinition, ToolDefinition, ToolDefinition];

function call(tool: ToolDefinition, input: unknown): Promise<ToolOutput> {
  return tool.execute(tool.inputSchema.parse(input), context);
}

beforeEach(async () => {
  workspace = await mkdtemp(join(tmpdir(), 'hearth-canvas-'));
  outside = await mkdtemp(join(tmpdir(), 'hearth-canvas-outside-'));
  await writeFile(join(outside, 'secret.txt'), 'the key');
  context = {
    agentId: 'main',
    sessionKey: 'agent:main:main',
    workspaceDir: workspace,
    signal: new AbortController().signal,
    log: silentLogger,
  };
});
afterEach(async () => {
  await rm(workspace, { recursive: true, force: true });
  await rm(outside, { recursive: true, force: true });
});

describe('canvas tools', () => {
  it('writes pages and images into the canvas folder, reads and lists them, and clears them', async () => {
    expect(await call(write, { path: 'index.html', content: '<h1>Plan</h1>' })).toEqual({
      output: 'Wrote canvas/index.html (13 bytes).',
    });
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    await call(write, { path: 'img/dot.png', content: png.toString('base64'), encoding: 'base64' });
    expect(await readFile(join(workspace, 'canvas', 'index.html'), 'utf8')).toBe('<h1>Plan</h1>');
    expect(await readFile(join(workspace, 'canvas', 'img', 'dot.png'))).toEqual(png);

    expect((await call(read, { path: 'index.html' })).output).toBe('<h1>Plan</h1>');
    expect((await call(read, { path: 'img/dot.png' })).output).toBe('img/dot.png: png image, 8 bytes');
    expect((await call(read, {})).output).toBe('img/dot.png (8 bytes)\nindex.html (13 bytes)');

    expect((await call(clear, { path: 'img' })).output).toBe('Removed canvas/img.');
    expect((await call(read, {})).output).toBe('index.html (13 bytes)');
    expect((await call(clear, {})).output).toBe('Cleared the canvas (1 entries).');
    expect((await call(read, {})).output).toBe('The canvas is empty.');
  });

  it('refuses paths that leave the folder, hidden names, other file types and images sent as text', async () => {
    for (const path of ['../escape.html', '/etc/passwd.txt', 'a/../../b.html', '.env.txt', 'x\\y.html']) {
      const result = await call(write, { path, content: 'x' });
      expect(result.isError, path).toBe(true);
      expect(result.output).toMatch(/^refused: /);
    }
    expect((await call(write, { path: 'run.sh', content: 'rm -rf /' })).output).toContain('the canvas takes .html');
    expect((await call(write, { path: 'a.png', content: 'not base64 bytes' })).output).toContain('encoding "base64"');
    expect((await call(read, { path: 'missing.html' })).output).toBe(
      'refused: no such file on the canvas: missing.html',
    );
  });

  it('never follows a symlink or a hard link out of the canvas', async () => {
    const canvas = join(workspace, 'canvas');
    await mkdir(canvas, { recursive: true });
    await symlink(outside, join(canvas, 'out'));
    await symlink(join(outside, 'secret.txt'), join(canvas, 'secret.txt'));
    await link(join(outside, 'secret.txt'), join(canvas, 'hard.txt'));

    const through = await call(write, { path: 'out/page.html', content: 'x' });
    expect(through).toMatchObject({ isError: true, output: 'refused: out is a symbolic link: refused on the canvas' });
    expect((await call(read, { path: 'secret.txt' })).output).toBe(
      'refused: secret.txt is a symbolic link: refused on the canvas',
    );
    expect((await call(read, { path: 'hard.txt' })).output).toContain('a hard link');
    expect((await call(write, { path: 'secret.txt', content: 'overwritten' })).isError).toBe(true);
    // Writing over a hard-linked name replaces the canvas's name only; the other file is untouched.
    await call(write, { path: 'hard.txt', content: 'new page text' });
    expect(await readFile(join(outside, 'secret.txt'), 'utf8')).toBe('the key');
    expect((await call(read, {})).output).toContain('secret.txt (0 bytes, symbolic link, not served)');

    // Clearing removes the links themselves, never what they point to.
    await call(clear, {});
    expect(await readFile(join(outside, 'secret.txt'), 'utf8')).toBe('the key');
  });
});
