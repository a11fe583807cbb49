import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../base/logger.js';
import { createHearthPaths } from '../paths/index.js';
import type { StatusResult } from '../protocol/methods/gateway.js';
import type { PermissionsListResult } from '../protocol/methods/permissions.js';
import { readHomeFiles, writeOldHome } from '../testing/old-home-fixture.js';
import { connectRaw } from '../testing/raw-gateway-socket.js';
import { createTempHome } from '../testing/temp-home.js';
import { startTestHost } from '../testing/test-host.js';
import { startHearth } from './start-hearth.js';

// The real start path on a home older versions left: migrations run before anything reads it,
// the capabilities then read the upgraded files, and status tells what happened.

let temp: { home: string; cleanup(): Promise<void> };
beforeEach(async () => {
  temp = await createTempHome();
});
afterEach(async () => {
  await temp.cleanup();
});

describe('upgrades in the host', () => {
  it('starts on an old-format home: the older approvals are migrated and used, status says so, the marker goes', async () => {
    await writeOldHome(temp.home);
    const host = await startTestHost({ home: temp.home, env: { HEARTH_SECRET_STORE: 'file' } });
    try {
      const { socket } = await connectRaw(host.wsUrl, { token: host.token, scopes: ['operator.admin'] });
      const permissions = (await socket.request('permissions.list', {})).payload as PermissionsListResult;
      expect(permissions.rules.map((rule) => rule.pattern ?? rule.tool)).toEqual([
        '/usr/bin/git',
        '/usr/bin/ls',
        'fixture__write_note',
      ]);
      const cron = (await socket.request('cron.list', {})).payload as { jobs: { name: string }[] };
      expect(cron.jobs.map((job) => job.name)).toEqual(['Morning note']);
      const status = (await socket.request('status', {})).payload as StatusResult;
      expect(status.upgrades?.lastEvent).toMatchObject({
        kind: 'migrated',
        message: expect.stringContaining('state/permissions.json v0→v1'),
      });
      expect(status.upgrades?.formats.find((format) => format.format === 'permissions')).toMatchObject({
        version: 1,
        current: 1,
      });
      socket.close();
      // The gateway came up: no start marker is left to count as a crashed start.
      expect(await readdir(host.paths.stateDir)).not.toContain('start-marker.json');
      expect(await readdir(join(temp.home, 'backups'))).toHaveLength(1);
    } finally {
      await host.close();
    }
  });

  it('refuses to start on a file a newer Hearth wrote, naming it, and leaves the home as it was', async () => {
    await writeOldHome(temp.home);
    const sessions = 'agents/main/sessions/sessions.json';
    await writeFile(join(temp.home, sessions), '{"version": 2, "sessions": {}, "folders": []}\n');
    const before = await readHomeFiles(temp.home);
    const error = await startHearth({ home: temp.home, port: 0, log: silentLogger }).catch((caught: Error) => caught);
    expect(String(error)).toContain(
      `${sessions} (sessions index) has format version 2, written by a newer Hearth; this one reads up to version 1`,
    );
    expect(await readHomeFiles(temp.home)).toEqual(before);
    expect(await readFile(join(temp.home, sessions), 'utf8')).toBe('{"version": 2, "sessions": {}, "folders": []}\n');
    expect(await readdir(createHearthPaths(temp.home).stateDir)).not.toContain('permissions.json');
  });
});
