import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFakeClock } from '../testing/fake-clock.js';
import { PAIRING_TTL_MS, PairingCodeError, PairingStore } from './pairing-store.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hearth-pairing-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('DM pairing codes', () => {
  it('gives each unknown sender one 8-character code, at most 3 pending per channel', async () => {
    const clock = createFakeClock();
    const store = await PairingStore.open(join(dir, 'pairing.json'), clock);
    const first = await store.ask('telegram', { id: '1', name: 'Ann' }, '1');
    expect(first.kind).toBe('new');
    const code = first.kind === 'new' ? first.request.code : '';
    expect(code).toMatch(/^[A-HJ-NP-Z2-9]{8}$/);
    expect(await store.ask('telegram', { id: '1' }, '1')).toMatchObject({ kind: 'pending', request: { code } });
    await store.ask('telegram', { id: '2' }, '2');
    await store.ask('telegram', { id: '3' }, '3');
    expect(await store.ask('telegram', { id: '4' }, '4')).toEqual({ kind: 'full' });
    // Another channel has its own three.
    expect((await store.ask('discord', { id: '4' }, '4')).kind).toBe('new');
  });

  it('expires a code after 1 hour: it can no longer be approved, and the sender gets a new one', async () => {
    const clock = createFakeClock();
    const store = await PairingStore.open(join(dir, 'pairing.json'), clock);
    const asked = await store.ask('telegram', { id: '1' }, '1');
    const code = asked.kind === 'new' ? asked.request.code : '';
    clock.advance(PAIRING_TTL_MS);
    await expect(store.approve(code)).rejects.toBeInstanceOf(PairingCodeError);
    expect(store.pending()).toEqual([]);
    const again = await store.ask('telegram', { id: '1' }, '1');
    expect(again.kind).toBe('new');
  });

  it('keeps approvals across a restart, and forgets a rejected request', async () => {
    const clock = createFakeClock();
    const file = join(dir, 'pairing.json');
    const store = await PairingStore.open(file, clock);
    const a = await store.ask('telegram', { id: '1', name: 'Ann' }, '1');
    const b = await store.ask('telegram', { id: '2' }, '2');
    await store.approve(a.kind === 'new' ? a.request.code.toLowerCase() : '');
    await store.reject(b.kind === 'new' ? b.request.code : '');
    const reopened = await PairingStore.open(file, clock);
    expect(reopened.isPaired('telegram', '1')).toBe(true);
    expect(reopened.isPaired('telegram', '2')).toBe(false);
    expect(reopened.isPaired('discord', '1')).toBe(false);
    expect(reopened.pending()).toEqual([]);
    expect(reopened.paired()).toMatchObject([{ channel: 'telegram', senderId: '1', senderName: 'Ann' }]);
  });

  it('refuses a file that is not one, naming it and the field, and leaves it as it is', async () => {
    const clock = createFakeClock();
    const file = join(dir, 'pairing.json');
    const store = await PairingStore.open(file, clock);
    const asked = await store.ask('telegram', { id: '1' }, '1');
    await store.approve(asked.kind === 'new' ? asked.request.code : '');
    const saved = JSON.parse(await readFile(file, 'utf8'));
    const edited = JSON.stringify({ ...saved, paired: [{ ...saved.paired[0], approvedAt: 'today' }] });
    await writeFile(file, edited);
    await expect(PairingStore.open(file, clock)).rejects.toThrow(
      /cannot read channel pairings at .*pairing\.json \(paired\.0\.approvedAt: /,
    );
    expect(await readFile(file, 'utf8')).toBe(edited);
    await writeFile(file, '{"version": 1, "pending": []');
    await expect(PairingStore.open(file, clock)).rejects.toThrow(/pairing\.json: not JSON/);
    await writeFile(file, '{"version": 1, "pending": []}');
    await expect(PairingStore.open(file, clock)).rejects.toThrow(/\(paired: /);
  });
});
