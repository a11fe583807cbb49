import { chmod, chown, mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { createMemoryLogger } from '../base/logger.js';
import { createTempHome } from '../testing/temp-home.js';
import { bundledPluginsDir } from './installed-plugins.js';
import { discoverPlugins, installPlugin, loadPlugins, PluginInstallRefused } from './plugin-loader.js';
import { PluginRegistry } from './plugin-registry.js';
import { pluginsConfigSchema } from './plugins-config.js';

let temp: { home: string; cleanup(): Promise<void> };
beforeEach(async () => {
  temp = await createTempHome();
});
afterEach(async () => {
  await temp.cleanup();
});

const sdk = join(process.cwd(), 'src-main/plugins/sdk/index.ts');

async function writePlugin(
  dir: string,
  id: string,
  body: string,
  manifest: Record<string, unknown> = {},
): Promise<string> {
  const root = join(dir, id);
  await mkdir(root, { recursive: true });
  await writeFile(join(root, 'hearth.plugin.json'), JSON.stringify({ id, main: 'index.ts', ...manifest }));
  await writeFile(join(root, 'index.ts'), body);
  return root;
}

const goodPlugin = (id: string) => `import { definePlugin } from ${JSON.stringify(sdk)};
export default definePlugin({ id: ${JSON.stringify(id)}, register(api) {
  api.registerMemoryBackend({ id: ${JSON.stringify(id)}, create: () => ({ kind: 'memory' }) });
} });`;

async function load(dir: string, config: Record<string, unknown> = {}) {
  const registry = new PluginRegistry(() => (config.slots as Record<string, string>) ?? {});
  onTestFinished(() => registry.dispose());
  const log = createMemoryLogger();
  const report = await loadPlugins({
    discovered: await discoverPlugins([{ dir, source: 'user' }]),
    config: pluginsConfigSchema.parse(config),
    registry,
    log,
    uid: process.getuid?.(),
  });
  return { registry, report, log };
}

describe('plugin loader', () => {
  it('loads a plugin through its manifest and fills the slot it names', async () => {
    const dir = join(temp.home, 'extensions');
    await writePlugin(dir, 'mem-a', goodPlugin('mem-a'));
    await writePlugin(dir, 'mem-b', goodPlugin('mem-b'));
    const { registry, report } = await load(dir, { slots: { memory: 'mem-b' } });
    expect(report.loaded.map((p) => p.id)).toEqual(['mem-a', 'mem-b']);
    expect(registry.slot('memory', 'memory')?.id).toBe('mem-b');
    const none = await load(dir, { slots: { memory: 'none' } });
    expect(none.registry.slot('memory', 'memory')).toBeUndefined();
    const missing = await load(dir, { slots: { memory: 'mem-z' } });
    expect(() => missing.registry.slot('memory', 'memory')).toThrow(
      /plugins\.slots\.memory is "mem-z", but no plugin provides it \(available: mem-a, mem-b\)/,
    );
  });

  it('refuses an entry that escapes the plugin folder', async () => {
    const dir = join(temp.home, 'extensions');
    await writeFile(join(temp.home, 'evil.ts'), goodPlugin('escape'));
    await writePlugin(dir, 'escape', '', { main: '../../evil.ts' });
    const { report } = await load(dir);
    expect(report.refused).toEqual([
      {
        id: 'escape',
        refusals: [{ file: '../../evil.ts', reason: expect.stringMatching(/escapes the plugin folder/) }],
      },
    ]);
    expect(report.loaded).toEqual([]);
  });

  it('refuses world-writable files and symlinks out, naming the file', async () => {
    const dir = join(temp.home, 'extensions');
    const root = await writePlugin(dir, 'loose', goodPlugin('loose'));
    await chmod(join(root, 'index.ts'), 0o666);
    const linked = await writePlugin(dir, 'linked', goodPlugin('linked'));
    await symlink('/etc/passwd', join(linked, 'data.txt'));
    const { report } = await load(dir);
    expect(report.refused).toContainEqual({
      id: 'loose',
      refusals: [{ file: join(root, 'index.ts'), reason: expect.stringMatching(/world-writable/) }],
    });
    expect(report.refused).toContainEqual({
      id: 'linked',
      refusals: [{ file: join(linked, 'data.txt'), reason: expect.stringMatching(/outside the plugin folder/) }],
    });
  });

  it.skipIf(process.getuid?.() !== 0)('refuses files owned by another user', async () => {
    const dir = join(temp.home, 'extensions');
    const root = await writePlugin(dir, 'foreign', goodPlugin('foreign'));
    await chown(join(root, 'index.ts'), 12345, 12345);
    const { report } = await load(dir);
    expect(report.refused).toEqual([
      { id: 'foreign', refusals: [{ file: join(root, 'index.ts'), reason: 'owned by another user (uid 12345)' }] },
    ]);
  });

  it('reports a broken manifest and a plugin whose id disagrees with it', async () => {
    const dir = join(temp.home, 'extensions');
    await mkdir(join(dir, 'broken'), { recursive: true });
    await writeFile(join(dir, 'broken', 'hearth.plugin.json'), '{"id": "Not Valid"}');
    await writePlugin(dir, 'liar', goodPlugin('someone-else'));
    const { report } = await load(dir);
    expect(report.failed).toContainEqual({
      id: join(dir, 'broken'),
      error: expect.stringMatching(/id: lower-case letters/),
    });
    expect(report.failed).toContainEqual({
      id: 'liar',
      error: expect.stringMatching(/declares id "someone-else" but its manifest says "liar"/),
    });
  });

  it('honours deny and disabled entries', async () => {
    const dir = join(temp.home, 'extensions');
    await writePlugin(dir, 'p1', goodPlugin('p1'));
    await writePlugin(dir, 'p2', goodPlugin('p2'));
    const { report } = await load(dir, { deny: ['p1'], entries: { p2: { enabled: false } } });
    expect(report.skipped).toEqual([
      { id: 'p1', reason: 'denied by plugins.deny' },
      { id: 'p2', reason: 'plugins.entries.p2.enabled is false' },
    ]);
  });
});

describe('where the bundled plugins are', () => {
  // An app folder of each layout: the module asking is plugins/installed-plugins in the sources
  // and the tsc build, a chunk in dist/bundle/ for the bundled CLI.
  const url = (...parts: string[]) => pathToFileURL(join(temp.home, 'app', ...parts)).href;
  beforeEach(async () => {
    await mkdir(join(temp.home, 'app', 'dist', 'bundle'), { recursive: true });
    await writeFile(join(temp.home, 'app', 'package.json'), JSON.stringify({ name: 'hearth' }));
  });

  it('reads extensions/ from the sources', () => {
    expect(bundledPluginsDir(url('src-main', 'plugins', 'installed-plugins.ts'))).toBe(
      join(temp.home, 'app', 'extensions'),
    );
  });

  it('reads the tsc build of the plugins from the tsc build (the desktop app)', () => {
    expect(bundledPluginsDir(url('dist', 'src-main', 'plugins', 'installed-plugins.js'))).toBe(
      join(temp.home, 'app', 'dist', 'extensions'),
    );
  });

  it('reads the plugins built into the bundle from the bundled CLI, not the tsc build', async () => {
    await mkdir(join(temp.home, 'app', 'dist', 'bundle', 'extensions'));
    expect(bundledPluginsDir(url('dist', 'bundle', 'chunk-ABC.js'))).toBe(
      join(temp.home, 'app', 'dist', 'bundle', 'extensions'),
    );
    // The app folder a caller names (the host's appRoot) is used for the other layouts.
    expect(bundledPluginsDir(url('src-main', 'host', 'wire-plugins.ts'), join(temp.home, 'other'))).toBe(
      join(temp.home, 'other', 'extensions'),
    );
  });

  it('falls back to the tsc build from a bundle built without plugins', () => {
    expect(bundledPluginsDir(url('dist', 'bundle', 'chunk-ABC.js'))).toBe(join(temp.home, 'app', 'dist', 'extensions'));
  });
});

describe('plugin install scan', () => {
  it.each([
    ["import { exec } from 'node:child_process'; exec('curl x | sh');", /child_process\.exec/],
    ["import { spawn } from 'node:child_process'; spawn('bash', ['-c', x]);", /spawns a shell/],
    ['const code = await (await fetch(url)).text(); eval(code);', /evaluates text fetched/],
    ["readFileSync(homedir() + '/.ssh/id_rsa')", /SSH keys/],
    ["import keytar from 'keytar'; keytar.findCredentials('x')", /keychain/],
  ])('refuses %s', async (code, reason) => {
    const source = await writePlugin(join(temp.home, 'src'), 'bad', code);
    const target = join(temp.home, 'extensions');
    const error = await installPlugin(source, target).catch((e) => e);
    expect(error).toBeInstanceOf(PluginInstallRefused);
    expect((error as PluginInstallRefused).findings[0]).toEqual({
      file: join(source, 'index.ts'),
      reason: expect.stringMatching(reason),
    });
    expect((await discoverPlugins([{ dir: target, source: 'user' }])).length).toBe(0);
  });

  it('installs a clean plugin', async () => {
    const source = await writePlugin(join(temp.home, 'src'), 'clean', goodPlugin('clean'));
    const manifest = await installPlugin(source, join(temp.home, 'extensions'));
    expect(manifest.id).toBe('clean');
    const { report } = await load(join(temp.home, 'extensions'));
    expect(report.loaded).toEqual([{ id: 'clean', source: 'user' }]);
  });
});
