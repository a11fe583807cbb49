import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeHermesFixture } from '../../import/testing/hermes-fixture.js';
import { openClawKeys, writeOpenClawFixture } from '../../import/testing/openclaw-fixture.js';
import { runCliCaptured } from '../../testing/cli-run.js';
import { createTempHome } from '../../testing/temp-home.js';

let temp: { home: string; cleanup(): Promise<void> };
let env: Record<string, string>;

beforeEach(async () => {
  temp = await createTempHome('hearth-import-cli-');
  // HOME is the person's home: ~/.openclaw and ~/.hermes are looked for there.
  env = { HOME: temp.home, HEARTH_HOME: join(temp.home, '.hearth'), HEARTH_SECRET_STORE: 'file' };
  // A port nothing listens on, so a gateway someone runs on the default port is not this home's.
  const free = await listen();
  const port = portOf;
  await new Promise((done) => free.close(done));
  await writeConfig({ gateway: { port } });
});

/** The port of the last `listen()`. */
let portOf = 0;
async function listen(): Promise<Server> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  portOf = (server.address() as { port: number }).port;
  return server;
}
async function writeConfig(config: unknown): Promise<void> {
  await mkdir(env.HEARTH_HOME!, { recursive: true });
  await writeFile(join(env.HEARTH_HOME!, 'hearth.json'), `${JSON.stringify(config)}\n`);
}
afterEach(() => temp.cleanup());

describe('hearth import', () => {
  it('shows the plan by default, imports with --apply, and a second run finds everything there', async () => {
    await writeOpenClawFixture(join(temp.home, '.openclaw'));
    const plan = await runCliCaptured(['import', 'openclaw'], env);
    expect(plan.code).toBe(0);
    expect(plan.stdout).toContain(`Import plan (dry run) from openclaw at ${join(temp.home, '.openclaw')}`);
    expect(plan.stdout).toMatch(/Would import \(\d+\):/);
    expect(plan.stdout).toContain('workspace/SOUL.md');
    expect(plan.stdout).toMatch(/Skipped \(\d+\):[\s\S]*OAuth sign-in is not moved/);
    expect(plan.stdout).toContain('Run again with --apply to import.');
    expect(plan.stdout).not.toContain(openClawKeys.anthropic);
    expect(await readFile(join(env.HEARTH_HOME!, 'hearth.json'), 'utf8')).not.toContain('providers');

    const applied = await runCliCaptured(['import', 'openclaw', '--apply'], env);
    expect(applied.code).toBe(0);
    expect(applied.stdout).toMatch(/Imported \(\d+\):/);
    expect(applied.stdout).toMatch(/\d+ imported, 0 failed/);
    expect(await readFile(join(env.HEARTH_HOME!, 'workspace', 'SOUL.md'), 'utf8')).toContain('I am Claw');

    const again = await runCliCaptured(['import', 'openclaw', '--apply', '--json'], env);
    const report = JSON.parse(again.stdout);
    expect(report.counts.imported).toBe(0);
    expect(report.counts.present).toBeGreaterThan(20);
  });

  it('reads --from and imports Hermes', async () => {
    await writeHermesFixture(join(temp.home, 'elsewhere'));
    const result = await runCliCaptured(['import', 'hermes', '--from', join(temp.home, 'elsewhere'), '--apply'], env);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('state.db');
    expect(await readFile(join(env.HEARTH_HOME!, 'workspace', 'MEMORY.md'), 'utf8')).toContain('Debian');
  });

  it('refuses --apply beside a running gateway and names the way through it', async () => {
    await writeOpenClawFixture(join(temp.home, '.openclaw'));
    const gateway = await listen();
    try {
      await writeConfig({ gateway: { port: portOf } });
      const result = await runCliCaptured(['import', 'openclaw', '--apply'], env);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`a Hearth gateway is running on 127.0.0.1:${portOf}`);
      expect(result.stderr).toContain('hearth gateway call import.apply');
      await expect(readFile(join(env.HEARTH_HOME!, 'workspace', 'SOUL.md'), 'utf8')).rejects.toThrow(/ENOENT/);
    } finally {
      await new Promise((done) => gateway.close(done));
    }
  });

  it('says clearly when the folder is not there', async () => {
    const result = await runCliCaptured(['import', 'hermes'], env);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`import hermes: ${join(temp.home, '.hermes')} does not look like a Hermes folder`);
  });
});
