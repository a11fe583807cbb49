import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemClock } from '../base/clock.js';
import { silentLogger } from '../base/logger.js';
import { hearthConfigSchema, openHearthConfig, validateHearthConfigText } from './hearth-config.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hearth-config-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe("hearth.json's schema: every capability's section merged in the host", () => {
  it('hearth.json may carry its own format version (a config written with one still loads)', () => {
    expect(hearthConfigSchema.parse({ version: 1 }).version).toBe(1);
    expect(() => hearthConfigSchema.parse({ version: 'one' })).toThrow(/version/);
  });

  it('reads agents.defaults and agents.list[] slices typed, with no cast', async () => {
    const path = join(dir, 'hearth.json');
    await writeFile(
      path,
      JSON.stringify({
        agents: {
          defaults: { model: 'openai/gpt-5', subagents: { maxDepth: 2 } },
          list: [{ id: 'main', tools: { profile: 'coding' }, memory: { scope: 'per-user' } }],
        },
      }),
    );
    const config = await openHearthConfig({ path, clock: systemClock, log: silentLogger, watch: false });
    try {
      expect(config.current.agents.defaults?.model).toBe('openai/gpt-5');
      expect(config.current.agents.defaults?.subagents?.maxDepth).toBe(2);
      expect(config.current.agents.list[0]?.tools?.profile).toBe('coding');
      expect(config.current.gateway.port).toBe(18_790);
    } finally {
      config.dispose();
    }
  });

  it("names a capability's bad value by its path", () => {
    const result = validateHearthConfigText(JSON.stringify({ plugins: { allow: 'all' }, gateway: { port: -1 } }));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.map((e) => e.path).sort()).toEqual(['gateway.port', 'plugins.allow']);
  });
});
