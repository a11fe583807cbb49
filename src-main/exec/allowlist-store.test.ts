import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { approvalsFilePath, openAllowlistStore } from './allowlist-store.js';

let stateDir: string;
beforeEach(async () => {
  stateDir = await mkdtemp(join(tmpdir(), 'hearth-allowlist-'));
});
afterEach(async () => {
  await rm(stateDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
});

describe('allowlist store', () => {
  it('persists entries per agent, once each, and reads them back after a restart', async () => {
    const store = await openAllowlistStore(stateDir);
    await Promise.all([
      store.add('main', { pattern: '/usr/bin/touch' }),
      store.add('main', { pattern: '/usr/bin/make', argPattern: '^test$' }),
      store.add('main', { pattern: '/usr/bin/touch' }),
      store.add('work', { pattern: '/usr/bin/ls' }),
    ]);
    const reopened = await openAllowlistStore(stateDir);
    expect(reopened.entries('main')).toEqual([
      { pattern: '/usr/bin/touch' },
      { pattern: '/usr/bin/make', argPattern: '^test$' },
    ]);
    expect(reopened.entries('work')).toEqual([{ pattern: '/usr/bin/ls' }]);
    expect(reopened.entries('other')).toEqual([]);
    expect(JSON.parse(await readFile(approvalsFilePath(stateDir), 'utf8')).version).toBe(1);
  });

  it('names the file and the problem when it is damaged', async () => {
    await mkdir(stateDir, { recursive: true });
    await writeFile(approvalsFilePath(stateDir), '{not json');
    await expect(openAllowlistStore(stateDir)).rejects.toThrow(`${approvalsFilePath(stateDir)} is not valid JSON`);
    await writeFile(approvalsFilePath(stateDir), JSON.stringify({ version: 1, agents: { main: { allowlist: [{}] } } }));
    await expect(openAllowlistStore(stateDir)).rejects.toThrow(/exec-approvals\.json is not an exec approvals file/);
  });
});
