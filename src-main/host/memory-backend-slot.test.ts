import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryLogger } from '../base/logger.js';
import { createHearthPaths } from '../paths/index.js';
import { bundledPluginsDir, loadInstalledPlugins, type PluginsConfig } from '../plugins/index.js';
import { createTempHome } from '../testing/temp-home.js';
import { resolveMemoryBackend } from './memory-backend-slot.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Loads the bundled plugins and HOME/extensions as the gateway and the CLI do, then fills the memory slot. */
async function choose(plugins: Partial<PluginsConfig>, userPlugins: Record<string, string> = {}) {
  const { home, cleanup } = await createTempHome('hearth-memory-slot-');
  cleanups.push(cleanup);
  const paths = createHearthPaths(home);
  for (const [id, source] of Object.entries(userPlugins)) {
    const dir = join(paths.userExtensionsDir, id);
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'hearth.plugin.json'), JSON.stringify({ id, main: 'index.js' }));
    await writeFile(join(dir, 'index.js'), source);
    await chmod(dir, 0o755);
    await chmod(join(dir, 'hearth.plugin.json'), 0o644);
    await chmod(join(dir, 'index.js'), 0o644);
  }
  const config: PluginsConfig = { enabled: true, allow: [], deny: [], slots: {}, entries: {}, ...plugins };
  const log = createMemoryLogger();
  const installed = await loadInstalledPlugins({
    bundledDir: bundledPluginsDir(),
    userExtensionsDir: paths.userExtensionsDir,
    config: () => config,
    home,
    log,
    uid: process.getuid?.(),
  });
  // The registry holds every plugin's registrations, as the host's does until it stops.
  cleanups.push(async () => installed.registry.dispose());
  const backend = resolveMemoryBackend({
    plugins: installed.registry,
    slots: config.slots,
    pluginContext: installed.contextFor,
    log,
    report: installed.report,
  });
  return { backend, log, home };
}

describe('resolveMemoryBackend', () => {
  it('defaults to the bundled LanceDB backend', async () => {
    expect((await (await choose({})).backend)?.id).toBe('memory-lancedb');
  });

  it('"none" turns memory off and says so in the log', async () => {
    const { backend, log } = await choose({ slots: { memory: 'none' } });
    expect(await backend).toBeUndefined();
    expect(log.entries).toContainEqual(
      expect.objectContaining({ message: 'memory is off (plugins.slots.memory is "none")' }),
    );
  });

  it("hands a user plugin's backend its own config and HEARTH_HOME", async () => {
    const { backend, home } = await choose(
      { slots: { memory: 'memory-echo' }, entries: { 'memory-echo': { enabled: true, config: { label: 'mine' } } } },
      {
        'memory-echo': `export default { id: 'memory-echo', register(api) {
          api.registerMemoryBackend({ id: 'memory-echo', create: (context) => ({
            id: 'memory-echo:' + context.config.label + ':' + context.home, openStore: async () => { throw new Error('unused'); },
          }) });
        } };`,
      },
    );
    expect((await backend)?.id).toBe(`memory-echo:mine:${home}`);
  });

  it('a slot naming a backend that did not load says why', async () => {
    const broken = await choose({ slots: { memory: 'memory-broken' } }, { 'memory-broken': 'export default {' });
    await expect(broken.backend).rejects.toThrow(
      /^plugins\.slots\.memory is "memory-broken", but no plugin provides it \(available: memory-lancedb\); plugin memory-broken failed to load: /,
    );
    const unknown = await choose({ slots: { memory: 'memory-acme' } });
    await expect(unknown.backend).rejects.toThrow(
      /^plugins\.slots\.memory is "memory-acme", but no plugin provides it \(available: memory-lancedb\)$/,
    );
  });
});
