import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readHeartbeatCounters, writeHeartbeatCounters } from './heartbeat-state-file.js';

let dir: string;
let file: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hearth-heartbeat-state-'));
  file = join(dir, 'heartbeat.json');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the heartbeat state file', () => {
  it('keeps the counters and the last result across a restart; none yet is no problem', async () => {
    expect(readHeartbeatCounters(file)).toEqual({});
    const counters = {
      turns: 3,
      quietBeats: 9,
      lastBeatAtMs: 5,
      lastResult: { status: 'ok' as const, atMs: 5, reasons: ['due: inbox'], summary: 'done' },
    };
    await writeHeartbeatCounters(file, counters);
    expect(readHeartbeatCounters(file)).toEqual({ counters });
  });

  it('a file that is not one is named with its field, counting starts from zero, and a copy is kept', async () => {
    const body =
      '{"version": 1, "turns": 3, "quietBeats": 9, "lastResult": {"status": "fine", "atMs": 1, "reasons": []}}';
    await writeFile(file, body);
    expect(readHeartbeatCounters(file)).toEqual({
      problem: `${file} is not a heartbeat state file (lastResult.status: Invalid option: expected one of "quiet"|"inactive"|"ok"|"delivered"|"error"); a copy is in ${file}.unreadable; the beat counters start from zero`,
    });
    expect(await readFile(`${file}.unreadable`, 'utf8')).toBe(body);
    expect(await readFile(file, 'utf8')).toBe(body);

    await writeFile(file, '{"version": 1, "turns": 3,');
    expect(readHeartbeatCounters(file).problem).toMatch(/is not a heartbeat state file \(not JSON: /);
  });
});
