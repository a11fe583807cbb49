import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { channelStorageAt } from './channel-storage.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hearth-channel-storage-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('a channel storage document', () => {
  it('reads back what it wrote; a missing file is an empty document', async () => {
    const storage = channelStorageAt(join(dir, 'channels', 'telegram.json'));
    expect(await storage.read()).toEqual({});
    await storage.write({ offset: 42 });
    expect(await channelStorageAt(join(dir, 'channels', 'telegram.json')).read()).toEqual({ offset: 42 });
  });

  it('refuses a file that is not a JSON object, naming it, and leaves it as it is', async () => {
    const file = join(dir, 'telegram.json');
    const storage = channelStorageAt(file);
    await writeFile(file, '{"offset": 4');
    await expect(storage.read()).rejects.toThrow(/channel storage .*telegram\.json cannot be read \(not JSON: /);
    await writeFile(file, '[42]');
    await expect(storage.read()).rejects.toThrow(/telegram\.json cannot be read \(not a JSON object: .*left as it is/);
    expect(await readFile(file, 'utf8')).toBe('[42]');
  });
});
