import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMemoryLogger } from '../../base/logger.js';
import { createFakeClock } from '../../testing/fake-clock.js';
import { CACHE_TRACE_STAGES, type CacheTraceSnapshot, createCacheTraceWriter } from './cache-trace.js';
import { readCacheTraceRecords, showCacheTrace } from './cache-trace-reader.js';
import { createCallTrace } from './call-trace.js';
import { redactSecrets } from './redact-secrets.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hearth-trace-'));
});
afterEach(() => rm(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 }));

const tools = [{ name: 'exec', description: 'run a command', parameters: { type: 'object' } }];

async function traceCall(
  writer: ReturnType<typeof createCacheTraceWriter>,
  callId: string,
  snapshot: CacheTraceSnapshot,
  sessionKey = 'agent:main:main',
) {
  for (const stage of CACHE_TRACE_STAGES) await writer.record({ sessionKey, callId, stage, snapshot });
}

describe('cache trace', () => {
  it('explains hits and the first stage that broke the cached prefix', async () => {
    const writer = createCacheTraceWriter({ dir, clock: createFakeClock() });
    const m1 = { role: 'user', content: 'hi' };
    const m2 = { role: 'assistant', content: 'hello' };
    const m3 = { role: 'user', content: "what's 2+2?" };
    await traceCall(writer, 'c1', { system: 'S', tools, messages: [m1] });
    await traceCall(writer, 'c2', { system: 'S', tools, messages: [m1, m2, m3] });
    await traceCall(writer, 'c3', { system: 'S changed', tools, messages: [m1, m2, m3] });
    await traceCall(writer, 'c4', {
      system: 'S changed',
      tools,
      messages: [{ role: 'user', content: 'edited' }, m2, m3],
    });
    await traceCall(writer, 'other', { system: 'X', tools, messages: [] }, 'agent:main:other');

    const shown = await showCacheTrace(dir, 'agent:main:main');
    expect(shown.calls.map((c) => c.verdict)).toEqual(['first_call', 'prefix_stable', 'cache_miss', 'cache_miss']);
    expect(shown.calls[2]).toMatchObject({ missStage: 'session_loaded', reason: 'system prompt changed' });
    expect(shown.calls[3]?.reason).toMatch(/^message 1 changed/);
    expect(shown.calls[0]?.stages.map((s) => s.stage)).toEqual([...CACHE_TRACE_STAGES]);
    expect((await showCacheTrace(dir, 'agent:main:main', 1)).calls).toHaveLength(1);
  });

  it('skips, by design, a line torn by a crash and a line that is not a record, and keeps the rest', async () => {
    const writer = createCacheTraceWriter({ dir, clock: createFakeClock() });
    await traceCall(writer, 'c1', { system: 'S', tools, messages: [] });
    const file = join(dir, 'cache-trace.jsonl');
    const good = await readFile(file, 'utf8');
    const [first] = good.split('\n');
    const notARecord = JSON.stringify({ ...JSON.parse(first!), callId: 'c0', stage: 'someday' });
    await writeFile(file, `${notARecord}\n${good}{"v":1,"ts":`);
    const records = await readCacheTraceRecords(dir);
    expect(records.map((record) => record.callId)).toEqual(CACHE_TRACE_STAGES.map(() => 'c1'));
    // The reader changes nothing: the file keeps every line as it was.
    expect(await readFile(file, 'utf8')).toBe(`${notARecord}\n${good}{"v":1,"ts":`);
  });

  it('writes sizes and hashes only, unless debug; secrets never', async () => {
    const secret = 'sk-proj-abcdefghijklmnopqrstuvwx';
    const snapshot = { system: `key ${secret}`, messages: [{ role: 'user', content: `my token is ${secret}` }] };
    await traceCall(createCacheTraceWriter({ dir, clock: createFakeClock() }), 'c1', snapshot);
    const plain = await readFile(join(dir, 'cache-trace.jsonl'), 'utf8');
    expect(plain).not.toContain('my token');
    expect(plain).not.toContain(secret);

    const debugDir = join(dir, 'debug');
    await traceCall(createCacheTraceWriter({ dir: debugDir, clock: createFakeClock(), debug: true }), 'c1', snapshot);
    const debug = await readFile(join(debugDir, 'cache-trace.jsonl'), 'utf8');
    expect(debug).toContain('my token is [redacted]');
    expect(debug).not.toContain(secret);
  });

  it('rotates by size and keeps a bounded number of files', async () => {
    const writer = createCacheTraceWriter({ dir, clock: createFakeClock(), maxBytes: 2_000, maxFiles: 3 });
    for (let i = 0; i < 20; i += 1)
      await traceCall(writer, `c${i}`, { system: 'S', messages: [{ text: 'x'.repeat(50) }] });
    const files = (await readdir(dir)).sort();
    expect(files).toEqual(['cache-trace.1.jsonl', 'cache-trace.2.jsonl', 'cache-trace.jsonl']);
    const shown = await showCacheTrace(dir, 'agent:main:main', 1000);
    expect(shown.calls.at(-1)?.callId).toBe('c19');
  });

  it('rejects bad options and an empty session key by name', async () => {
    expect(() => createCacheTraceWriter({ dir, clock: createFakeClock(), maxBytes: 0 })).toThrow(/maxBytes/);
    expect(() => createCacheTraceWriter({ dir, clock: createFakeClock(), maxFiles: 0 })).toThrow(/maxFiles/);
    await expect(showCacheTrace(dir, ' ')).rejects.toThrow(/sessionKey/);
  });
});

describe('redactSecrets', () => {
  it.each([
    ['Authorization: Bearer abcdefghijklmnop1234', 'Bearer [redacted bearer]'],
    ['api_key=supersecretvalue', 'api_key=[redacted]'],
    ['"token": "abcdef123456"', '"token": "[redacted]"'],
    ['bot 123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsawQ here', 'bot [redacted telegram-token] here'],
    ['ghp_abcdefghijklmnopqrstuvwxyz123456', '[redacted github-token]'],
    ['AKIAABCDEFGHIJKLMNOP', '[redacted aws-key]'],
  ])('redacts %s', (input, expected) => {
    expect(redactSecrets(input)).toContain(expected);
  });

  it('leaves ordinary text alone', () => {
    expect(redactSecrets('the token budget is 8000 tokens')).toBe('the token budget is 8000 tokens');
  });
});

describe('createCallTrace', () => {
  it('records stages in the background and never throws when the disk refuses', async () => {
    const log = createMemoryLogger();
    const good = createCallTrace({
      writer: createCacheTraceWriter({ dir, clock: createFakeClock() }),
      sessionKey: 's',
      callId: 'c1',
      log,
    });
    for (const stage of CACHE_TRACE_STAGES) good.stage(stage, { messages: [] });
    await good.flush();
    expect((await readFile(join(dir, 'cache-trace.jsonl'), 'utf8')).trim().split('\n')).toHaveLength(7);

    // A file where the folder should be: every write fails.
    const blocked = join(dir, 'cache-trace.jsonl', 'sub');
    const bad = createCallTrace({
      writer: createCacheTraceWriter({ dir: blocked, clock: createFakeClock() }),
      sessionKey: 's',
      callId: 'c2',
      log,
    });
    bad.stage('session_loaded', { messages: [] });
    bad.stage('sanitized', { messages: [] });
    await bad.flush();
    expect(log.entries.filter((e) => e.message === 'cache trace write failed')).toHaveLength(1);
  });
});
