import { readFile } from 'node:fs/promises';
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
});
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
    await expect(readFile(join(env.HEARTH_HOME!, 'hearth.json'), 'utf8')).rejects.toThrow(/ENOENT/);

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

  it('says clearly when the folder is not there', async () => {
    const result = await runCliCaptured(['import', 'hermes'], env);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`import hermes: ${join(temp.home, '.hermes')} does not look like a Hermes folder`);
  });
});
