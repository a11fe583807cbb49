import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../base/clock.js';
import { silentLogger } from '../../base/logger.js';
import { prepareStartUpgrade } from '../../migrations/index.js';
import { createHearthPaths } from '../../paths/index.js';
import { writeOldHome } from '../../testing/old-home-fixture.js';
import { createTempHome } from '../../testing/temp-home.js';
import { createCliContext } from '../cli-context.js';
import { runCli } from '../run-cli.js';

let temp: { home: string; cleanup(): Promise<void> };
beforeEach(async () => {
  temp = await createTempHome();
});
afterEach(async () => {
  await temp.cleanup();
});

async function doctor(args: string[] = []) {
  let stdout = '';
  const context = createCliContext({
    env: { HEARTH_HOME: temp.home, HEARTH_SECRET_STORE: 'file' },
    clock: systemClock,
    stdout: (text) => {
      stdout += text;
    },
    stderr: () => {},
    readStdin: async () => '',
  });
  const code = await runCli(['doctor', ...args], context);
  return { code, stdout };
}

describe('hearth doctor: formats and upgrades', () => {
  it('lists each format with its version, what will be upgraded, and then what the upgrade did', async () => {
    await writeOldHome(temp.home);
    const before = await doctor();
    expect(before.stdout).toContain(
      '✓ format hearth.json (config): hearth.json: version 1 (no version field), current\n',
    );
    expect(before.stdout).toContain(
      '✓ format sessions index: agents/main/sessions/sessions.json: version 1, current\n',
    );
    expect(before.stdout).toContain(
      '! format approvals (permissions): state/permissions.json: version 0 (no version field); upgraded to version 1 at the next start, after a backup\n',
    );
    expect(before.stdout).toMatch(/✓ upgrades: no migration has run\. no backups yet/);

    const upgrade = await prepareStartUpgrade({
      paths: createHearthPaths(temp.home),
      clock: systemClock,
      log: silentLogger,
      appVersion: '0.2.0',
    });
    await upgrade.markUp();
    const after = await doctor();
    expect(after.stdout).toContain('✓ format approvals (permissions): state/permissions.json: version 1, current\n');
    expect(after.stdout).toMatch(
      /✓ upgrades: \S+ \(0\.2\.0\): Upgraded state\/permissions\.json v0→v1; the files as they were are in backups\/\S+-v0-v1\. 1 backup in .*\/backups, the latest \S+-v0-v1\n/,
    );
    for (const name of ['auth-profile state', 'cron jobs', 'usage ledger', 'memory index'])
      expect(after.stdout).toContain(`✓ format ${name}: `);

    const json = JSON.parse((await doctor(['--json'])).stdout) as { checks: { name: string; ok: boolean }[] };
    expect(json.checks.filter((check) => check.name.startsWith('format ')).every((check) => check.ok)).toBe(true);
  });

  it('fails on a file a newer Hearth wrote', async () => {
    await writeOldHome(temp.home, { 'state/auth-profiles.json': '{"version": 4, "profiles": {}, "stats": {}}' });
    const result = await doctor();
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      '✗ format auth-profile state: state/auth-profiles.json: version 4, written by a newer Hearth (this one reads up to 1); Hearth will not start on it\n',
    );
  });

  it('names a broken upgrades.json as a failed check instead of failing itself', async () => {
    await writeOldHome(temp.home, { 'state/upgrades.json': '{"version": 1, "held": 7}' });
    const result = await doctor();
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/✗ upgrades: .*upgrades\.json.*held.*Hearth will not start until it is fixed\n/);
    expect(result.stdout).toContain('gateway port');
  });

  it('says when a start was undone after crashing twice', async () => {
    await writeOldHome(temp.home);
    const paths = createHearthPaths(temp.home);
    for (let start = 0; start < 3; start++)
      await prepareStartUpgrade({ paths, clock: systemClock, log: silentLogger, appVersion: '0.2.0' });
    await writeFile(join(temp.home, 'unrelated.txt'), 'x');
    const result = await doctor();
    expect(result.stdout).toMatch(
      /! upgrades: .*Hearth did not finish starting 2 times in a row after an upgrade; the files the upgrade changed were restored from backups\/\S+ and this version will not migrate them again\. Migrations are held for 0\.2\.0: its migrated files crashed two starts in a row\./,
    );
    expect(result.stdout).toContain('(held: see upgrades)');
  });
});
