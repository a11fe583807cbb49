import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMemoryLogger } from '../base/logger.js';
import { createHearthPaths, type HearthPaths } from '../paths/index.js';
import { createFakeClock } from '../testing/fake-clock.js';
import { oldHomeFiles, readHomeFiles, writeOldHome } from '../testing/old-home-fixture.js';
import { createTempHome } from '../testing/temp-home.js';
import { NewerFormatError } from './migrate-home.js';
import { listBackups } from './migration-backup.js';
import { prepareStartUpgrade, readUpgradeReport } from './start-upgrade.js';
import { readJsonVersion, type StoreFormat } from './store-format.js';
import { hearthStoreFormats } from './store-formats.js';
import { readStartMarker } from './upgrade-state.js';

// Real files in a temp home; the formats are the product's table, or small ones made here to
// fail on purpose. The clock is fake only so backup folder names are known.

let temp: { home: string; cleanup(): Promise<void> };
let paths: HearthPaths;
const clock = createFakeClock(Date.UTC(2026, 11, 2, 17, 40, 5));
beforeEach(async () => {
  temp = await createTempHome();
  paths = createHearthPaths(temp.home);
});
afterEach(async () => {
  await temp.cleanup();
});

const start = (formats?: readonly StoreFormat[], log = createMemoryLogger()) =>
  prepareStartUpgrade({ paths, clock, log, appVersion: '0.2.0', ...(formats ? { formats } : {}) });

describe('format versions', () => {
  it('reads a version field, treats a file without one as version 1, and names what is wrong', async () => {
    const file = join(temp.home, 'a.json');
    expect(await readJsonVersion(file)).toEqual({ kind: 'missing' });
    await writeFile(file, '{"version": 3, "x": 1}');
    expect(await readJsonVersion(file)).toMatchObject({ kind: 'found', version: 3, explicit: true });
    await writeFile(file, '{"x": 1}');
    expect(await readJsonVersion(file)).toMatchObject({ kind: 'found', version: 1, explicit: false });
    await writeFile(file, '{"version": "two"}');
    expect(await readJsonVersion(file)).toEqual({
      kind: 'unreadable',
      reason: '"version" is "two", not a whole number',
    });
    await writeFile(file, '{oops');
    expect(await readJsonVersion(file)).toMatchObject({
      kind: 'unreadable',
      reason: expect.stringMatching(/^not JSON/),
    });
  });

  it('the approvals step is a pure function of the older lists (same input, same rules)', () => {
    const step = hearthStoreFormats.find((format) => format.id === 'permissions')!.steps[0]!;
    const input = {
      'exec-approvals.json': JSON.parse(oldHomeFiles['state/exec-approvals.json']!),
      'mcp-approvals.json': JSON.parse(oldHomeFiles['state/mcp-approvals.json']!),
    };
    const frozen = structuredClone(input);
    const first = step.migrate(input, { now: 5 });
    expect(step.migrate(input, { now: 5 })).toEqual(first);
    expect(input).toEqual(frozen);
    expect(first['permissions.json']).toEqual({
      version: 1,
      rules: [
        expect.objectContaining({
          kind: 'exec',
          scope: 'binary',
          agentId: 'main',
          pattern: '/usr/bin/git',
          addedAtMs: 5,
        }),
        expect.objectContaining({ kind: 'exec', scope: 'exact', pattern: '/usr/bin/ls', argPattern: '^-la$' }),
        expect.objectContaining({
          kind: 'mcp',
          scope: 'tool',
          tool: 'fixture__write_note',
          addedAtMs: 1_763_000_000_000,
        }),
      ],
    });
  });
});

describe('migrations at start', () => {
  it('upgrades an old-format home: backup first, only the older shape changes, a second start changes nothing', async () => {
    await writeOldHome(temp.home);
    const before = await readHomeFiles(temp.home);
    const log = createMemoryLogger();
    const upgrade = await start(undefined, log);

    const permissions = JSON.parse(await readFile(join(paths.stateDir, 'permissions.json'), 'utf8'));
    expect(permissions.version).toBe(1);
    expect(permissions.rules.map((rule: { pattern?: string; tool?: string }) => rule.pattern ?? rule.tool)).toEqual([
      '/usr/bin/git',
      '/usr/bin/ls',
      'fixture__write_note',
    ]);
    // Everything else is byte for byte what it was (a file without a version is version 1).
    expect(await readHomeFiles(temp.home)).toEqual(before);

    const [backup, ...more] = await listBackups(temp.home);
    expect(more).toEqual([]);
    expect(backup!.dir).toBe(join(temp.home, 'backups', '2026-12-02T17-40-05-000Z-v0-v1'));
    expect(backup!.manifest.files).toEqual([
      { path: 'state/exec-approvals.json', existed: true },
      { path: 'state/mcp-approvals.json', existed: true },
      { path: 'state/permissions.json', existed: false },
    ]);
    expect(await readFile(join(backup!.dir, 'files/state/exec-approvals.json'), 'utf8')).toBe(
      oldHomeFiles['state/exec-approvals.json'],
    );

    expect(upgrade.report.lastEvent).toMatchObject({
      kind: 'migrated',
      message: expect.stringContaining('state/permissions.json v0→v1'),
      // The parts a client words the notice from in the person's language.
      files: expect.arrayContaining(['state/permissions.json v0→v1']),
    });
    expect(upgrade.report.formats.every((format) => format.version === format.current)).toBe(true);
    expect(upgrade.report.formats.map((format) => format.format).sort()).toEqual(
      ['auth-profiles', 'config', 'cron', 'memory', 'permissions', 'sessions', 'usage'].sort(),
    );
    expect(log.entries).toContainEqual(expect.objectContaining({ level: 'info', message: 'migrated on-disk formats' }));

    await upgrade.markUp();
    expect(await readStartMarker(paths.stateDir)).toBeUndefined();
    const again = await start();
    await again.markUp();
    expect(await listBackups(temp.home)).toHaveLength(1);
    expect((await readUpgradeReport(paths)).lastGoodAppVersion).toBe('0.2.0');
  });

  it('a failing migration puts every file back from the backup and the start goes on, saying so', async () => {
    const a = join(paths.stateDir, 'a.json');
    const b = join(paths.stateDir, 'b.json');
    await writeOldHome(temp.home, { 'state/a.json': '{"version":1,"n":1}\n', 'state/b.json': '{"version":1,"m":2}\n' });
    const format = (id: string, file: string, migrate: StoreFormat['steps'][number]['migrate']): StoreFormat => ({
      id,
      label: `${id} file`,
      current: 2,
      locate: async () => [{ path: file, version: 1, explicit: true, files: [file] }],
      steps: [{ from: 1, describe: 'test step', migrate }],
    });
    const formats = [
      // The first format migrates fine and is written; the second throws: the first must be undone too.
      format('a', a, (documents) => ({ 'a.json': { ...(documents['a.json'] as object), version: 2 } })),
      format('b', b, () => {
        throw new Error('m cannot be converted');
      }),
    ];
    const log = createMemoryLogger();
    const upgrade = await start(formats, log);

    expect(await readFile(a, 'utf8')).toBe('{"version":1,"n":1}\n');
    expect(await readFile(b, 'utf8')).toBe('{"version":1,"m":2}\n');
    expect(upgrade.report.lastEvent).toMatchObject({
      kind: 'migration-failed',
      error: 'm cannot be converted',
      files: ['state/a.json', 'state/b.json'],
      message: expect.stringMatching(
        /^An upgrade of state\/a\.json, state\/b\.json failed \(m cannot be converted\); every file was restored from backups\/.*-v1-v2 and Hearth started with them as they were$/,
      ),
    });
    expect(log.entries).toContainEqual(
      expect.objectContaining({
        level: 'error',
        message: 'migration failed; restored the backup and starting with the previous files',
      }),
    );
    // The doctor sees the same after the fact.
    expect((await readUpgradeReport(paths, formats)).lastEvent?.kind).toBe('migration-failed');
    expect(await listBackups(temp.home)).toHaveLength(1);
  });

  it('a step that does not leave the new version is a failure too (never a half-upgraded file)', async () => {
    const a = join(paths.stateDir, 'a.json');
    await writeOldHome(temp.home, { 'state/a.json': '{"version":1}\n' });
    const formats: StoreFormat[] = [
      {
        id: 'a',
        label: 'a file',
        current: 2,
        locate: async () => [{ path: a, version: 1, explicit: true, files: [a] }],
        steps: [{ from: 1, describe: 'forgets the version', migrate: () => ({ 'a.json': { other: true } }) }],
      },
    ];
    const upgrade = await start(formats);
    expect(upgrade.report.lastEvent?.error).toMatch(/did not leave .*a\.json at version 2/);
    expect(await readFile(a, 'utf8')).toBe('{"version":1}\n');
  });

  it('refuses a file written by a newer Hearth, naming it and its version, and changes nothing', async () => {
    await writeOldHome(temp.home);
    await writeFile(join(paths.stateDir, 'cron', 'jobs.json'), '{"version": 3, "jobs": []}\n');
    const before = await readHomeFiles(temp.home);
    const error = await start().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(NewerFormatError);
    expect((error as Error).message).toBe(
      `state/cron/jobs.json (cron jobs) has format version 3, written by a newer Hearth; this one reads up to version 1. Nothing was changed: run the newer Hearth, or restore a backup from ${temp.home}/backups (docs/UPGRADES.md)`,
    );
    expect(await readHomeFiles(temp.home)).toEqual(before);
    // Not even the older approvals were migrated: nothing is written before every file is known to be readable.
    expect(await readdir(paths.stateDir)).not.toContain('permissions.json');
    expect(await listBackups(temp.home)).toEqual([]);
  });

  it('a saved pause is a versioned format too: reported at its version, refused when a newer Hearth wrote it', async () => {
    await mkdir(paths.stateDir, { recursive: true });
    const pause = join(paths.stateDir, 'agent-pause.json');
    await writeFile(pause, '{"version":1,"paused":true}\n');
    const upgrade = await start();
    expect(upgrade.report.formats).toContainEqual(
      expect.objectContaining({ format: 'agent-pause', version: 1, current: 1 }),
    );

    await writeFile(pause, '{"version":2,"paused":true}\n');
    const error = await start().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(NewerFormatError);
    expect((error as Error).message).toMatch(/^state\/agent-pause\.json \(agent pause\) has format version 2/);
    expect(await readFile(pause, 'utf8')).toBe('{"version":2,"paused":true}\n');
  });

  it('two starts in a row that never came up: the third restores their migration backup and does not migrate again', async () => {
    await writeOldHome(temp.home);
    await start(); // migrates, then "crashes" (markUp never runs)
    await start(); // nothing left to migrate, crashes again
    expect((await readStartMarker(paths.stateDir))?.attempts).toBe(2);
    const log = createMemoryLogger();
    const third = await start(undefined, log);

    // permissions.json was made by the migration: the restore removes it, the older lists stay.
    expect(await readdir(paths.stateDir)).not.toContain('permissions.json');
    expect(await readHomeFiles(temp.home)).toEqual(oldHomeFiles);
    expect(third.report.lastEvent).toMatchObject({
      kind: 'crash-restored',
      attempts: 2,
      message: expect.stringMatching(
        /^Hearth did not finish starting 2 times in a row after an upgrade; the files the upgrade changed were restored from backups\/.*-v0-v1 and this version will not migrate them again$/,
      ),
    });
    expect(third.report.held).toEqual({
      appVersion: '0.2.0',
      reason: 'its migrated files crashed two starts in a row',
    });
    expect(third.report.formats.find((format) => format.format === 'permissions')).toMatchObject({ version: 0 });
    expect(log.entries).toContainEqual(expect.objectContaining({ level: 'error' }));
    expect((await readStartMarker(paths.stateDir))?.attempts).toBe(1);

    // This start comes up; the next one still does not re-run the migration that crashed this version.
    await third.markUp();
    const fourth = await start();
    expect(await readdir(paths.stateDir)).not.toContain('permissions.json');
    expect(fourth.report.lastEvent?.kind).toBe('crash-restored');
  });

  it('two crashed starts without a migration restore nothing and say so', async () => {
    await writeOldHome(temp.home, { 'hearth.json': '{}\n' });
    await start();
    await start();
    const third = await start();
    expect(third.report.lastEvent).toMatchObject({ kind: 'crash-nothing-to-restore' });
    expect(await readFile(join(temp.home, 'hearth.json'), 'utf8')).toBe('{}\n');
    expect(third.report.held).toBeUndefined();
  });
});

describe('bookkeeping files that are not what Hearth wrote', () => {
  it('a broken upgrades.json or start marker stops the start, naming the file and the field, and is left as it is', async () => {
    await mkdir(paths.stateDir, { recursive: true });
    const upgrades = join(paths.stateDir, 'upgrades.json');
    const body = '{"version": 1, "held": {"appVersion": 2, "reason": "crashed"}}\n';
    await writeFile(upgrades, body);
    await expect(start()).rejects.toThrow(
      `${upgrades} cannot be read (held.appVersion: Invalid input: expected string, received number); it was left as it is`,
    );
    expect(await readFile(upgrades, 'utf8')).toBe(body);

    await writeFile(upgrades, '{"version": 1, "lastGoodAppVersion": "0.1.0", "fromANewerHearth": true}\n');
    const marker = join(paths.stateDir, 'start-marker.json');
    await writeFile(marker, '{"attempts": "two", "startedAtMs": 1, "appVersion": "0.2.0", "backups": []}\n');
    await expect(start()).rejects.toThrow(`${marker} cannot be read (attempts: `);
    await writeFile(marker, '{"attempts": 1,');
    await expect(start()).rejects.toThrow(`${marker} cannot be read (not JSON: `);
    expect(await readFile(marker, 'utf8')).toBe('{"attempts": 1,');
  });

  it('a backup without a manifest is incomplete and skipped; a manifest that is not one, or leads out of the home, throws', async () => {
    const backups = join(temp.home, 'backups');
    await mkdir(join(backups, 'cut-off', 'files'), { recursive: true });
    expect(await listBackups(temp.home)).toEqual([]);

    await mkdir(join(backups, 'bad'), { recursive: true });
    const manifest = join(backups, 'bad', 'manifest.json');
    const good = { version: 1, createdAtMs: 1, appVersion: '0.1.0', formats: [] };
    await writeFile(manifest, JSON.stringify({ ...good, files: [{ path: 'state/a.json', existed: 'yes' }] }));
    await expect(listBackups(temp.home)).rejects.toThrow(
      `${manifest} cannot be read as a backup manifest (files.0.existed: Invalid input: expected boolean, received string); the backup was left as it is`,
    );
    await writeFile(manifest, JSON.stringify({ ...good, files: [{ path: '../outside.json', existed: true }] }));
    await expect(listBackups(temp.home)).rejects.toThrow('files.0.path: must be a path inside the Hearth home');
  });
});
