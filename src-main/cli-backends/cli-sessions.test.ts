import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCliSessionStore } from './cli-sessions.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hearth-cli-sessions-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const open = () => createCliSessionStore({ agentDir: (agentId) => join(dir, agentId), now: () => 7 });

describe('CLI session ids kept beside an agent', () => {
  it('resume the same backend across instances, not another one', async () => {
    await mkdir(join(dir, 'main'));
    await open().set('main', 's1', 'claude', 'cli-1');
    expect(await open().get('main', 's1', 'claude')).toBe('cli-1');
    expect(await open().get('main', 's1', 'codex')).toBeUndefined();
    expect(await open().get('main', 's2', 'claude')).toBeUndefined();
  });

  it('a file that is not one fails naming it and the field, is left as it is, and is read again once fixed', async () => {
    await mkdir(join(dir, 'main'));
    const file = join(dir, 'main', 'cli-sessions.json');
    const body = '{"version": 1, "sessions": {"s1": {"backend": "claude", "id": 5, "updatedAt": 1}}}\n';
    await writeFile(file, body);
    const store = open();
    await expect(store.get('main', 's1', 'claude')).rejects.toThrow(
      `${file} is not a CLI sessions file (sessions.s1.id: Invalid input: expected string, received number); it was left as it is`,
    );
    await expect(store.set('main', 's2', 'claude', 'cli-2')).rejects.toThrow(/sessions\.s1\.id/);
    expect(await readFile(file, 'utf8')).toBe(body);

    await writeFile(file, '{"version": 1, "sessions": {"s1": {"backend": "claude", "id": "cli-1", "updatedAt": 1}}}\n');
    expect(await store.get('main', 's1', 'claude')).toBe('cli-1');
  });
});
