import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DockStore } from './channel-identity.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hearth-docks-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the channel docks file', () => {
  it('reads back what it saved; a missing file is empty', async () => {
    const file = join(dir, 'docks.json');
    const store = await DockStore.open(file);
    expect(store.docks()).toEqual({});
    const dock = { sessionKey: 'agent:main:main', channel: 'telegram', userId: '42', dockedAt: 5 };
    await store.dock('owner', dock);
    await store.sawDirect('telegram:42', '42');
    expect(await store.firstNotice('cap:day')).toBe(true);
    const reopened = await DockStore.open(file);
    expect(reopened.dockOf('owner')).toEqual(dock);
    expect(reopened.direct('telegram:42')).toBe('42');
    expect(await reopened.firstNotice('cap:day')).toBe(false);
  });

  it('refuses a file that is not one, naming it and the field, and leaves it as it is', async () => {
    const file = join(dir, 'docks.json');
    const store = await DockStore.open(file);
    await store.dock('owner', { sessionKey: 'agent:main:main', channel: 'telegram', userId: '42', dockedAt: 5 });
    const saved = JSON.parse(await readFile(file, 'utf8'));
    const edited = JSON.stringify({ ...saved, docks: { owner: { ...saved.docks.owner, userId: 42 } } });
    await writeFile(file, edited);
    await expect(DockStore.open(file)).rejects.toThrow(
      /cannot read channel docks at .*docks\.json \(docks\.owner\.userId: /,
    );
    expect(await readFile(file, 'utf8')).toBe(edited);
    await writeFile(file, '{"version": 1,');
    await expect(DockStore.open(file)).rejects.toThrow(/docks\.json: not JSON/);
  });
});
