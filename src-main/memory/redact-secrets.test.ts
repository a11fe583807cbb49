import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CREDENTIALS } from '../testing/credential-samples.js';
import { createMemoryFixture, type MemoryFixture } from '../testing/memory-test-fixture.js';
import { runDreaming } from './dreaming/dreaming.js';
import { ingestTranscripts } from './dreaming/transcript-ingest.js';
import { redactSecrets } from './redact-secrets.js';

let fixture: MemoryFixture | undefined;
afterEach(async () => {
  await fixture?.engine.close();
  fixture = undefined;
});

const readOrEmpty = (path: string) => readFile(path, 'utf8').catch(() => '');

describe('secrets never reach memory files', () => {
  it('counts what it removed, by kind', () => {
    const result = redactSecrets('key sk-proj-abcdefghijklmnop1234 and my password is hunter2!');
    expect(result.text).toBe('key [redacted api-key] and my password is [redacted]');
    expect(result.redacted.sort()).toEqual(['api-key', 'named-secret']);
  });

  it('keeps every credential format typed into chat out of the recall log (the query is the message)', async () => {
    fixture = await createMemoryFixture();
    await fixture.engine.open();
    const scope = fixture.engine.defaultScope();
    await fixture.write('memory/2026-11-29.md', '- The deploy key lives in the vault under deploy\n');
    await fixture.engine.sync();
    for (const [, secret] of CREDENTIALS) {
      const hits = await fixture.engine.search(`where does the deploy key live? mine is ${secret}`, { scope });
      expect(hits.length).toBeGreaterThan(0);
    }
    const log = await readFile(join(fixture.workspace, 'memory/.dreams/recalls.jsonl'), 'utf8');
    expect(log.trim().split('\n')).toHaveLength(CREDENTIALS.length);
    for (const [format, secret] of CREDENTIALS)
      expect({ format, leaked: log.includes(secret) }).toEqual({ format, leaked: false });
  });

  it('keeps a secret that sits in a note out of the recall log when the note is recalled', async () => {
    fixture = await createMemoryFixture();
    await fixture.engine.open();
    const scope = fixture.engine.defaultScope();
    const secret = '7213456890:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw1';
    await fixture.write('memory/2026-11-29.md', `- Telegram bot token for the family bot: ${secret}\n`);
    await fixture.engine.sync();
    expect((await fixture.engine.search('family bot telegram', { scope })).length).toBeGreaterThan(0);
    const log = await readOrEmpty(join(fixture.workspace, 'memory/.dreams/recalls.jsonl'));
    expect(log).toContain('family bot');
    expect(log).not.toContain(secret);
  });

  it('transcript ingestion files what the user said, every credential format redacted, without duplicates', async () => {
    fixture = await createMemoryFixture();
    await fixture.engine.open();
    const scope = fixture.engine.defaultScope();
    await fixture.engine.appendDaily(scope, 'I prefer tea in the evening', { category: 'preference' });
    const result = await ingestTranscripts(
      fixture.engine,
      scope,
      [
        { role: 'user', text: 'I prefer tea in the evening' },
        { role: 'user', text: 'Remember the staging token is sk-live-abcdefghijklmnopqrstu' },
        ...CREDENTIALS.map(([format, secret]) => ({
          role: 'user' as const,
          text: `Remember my ${format} key: ${secret}`,
        })),
        { role: 'assistant', text: 'I always remember everything you say' },
        { role: 'user', text: 'thanks!' },
      ],
      fixture.clock.now(),
    );
    expect(result.redacted).toBeGreaterThanOrEqual(1 + CREDENTIALS.length);
    const daily = await readFile(join(fixture.workspace, 'memory/2026-11-30.md'), 'utf8');
    expect(daily).toContain('- 10:00 [preference] I prefer tea in the evening\n');
    expect(daily).toContain('Remember the staging token is [redacted]');
    for (const [format, secret] of CREDENTIALS)
      expect({ format, leaked: daily.includes(secret) }).toEqual({ format, leaked: false });
  });

  it("Dreaming's reports and the diary keep no secret, even one the diary writer repeats", async () => {
    fixture = await createMemoryFixture();
    const secret = 'sk-ant-api03-Qw3rTy7uIo9pAs1dFg5hJk2lZx8cVb4nM6';
    await fixture.write(
      'memory/2026-11-29.md',
      `- 09:00 [preference] Prefers oat milk in coffee\n- 09:05 [fact] The staging Anthropic key is ${secret}\n`,
    );
    await fixture.engine.open();
    await fixture.engine.sync();
    const scope = fixture.engine.defaultScope();
    for (const query of [
      'oat milk coffee',
      'how does the user take coffee',
      'milk preference',
      `coffee order ${secret}`,
    ]) {
      await fixture.engine.search(query, { scope });
      fixture.clock.advance(86_400_000);
    }
    const f = fixture;
    await runDreaming(
      {
        workspaceDir: f.workspace,
        scope,
        embedder: f.engine.deps.embedder,
        now: () => f.clock.now(),
        lock: { pid: 4242, now: () => f.clock.now(), isAlive: () => false },
        writeDiary: async () => `Tonight I kept the staging key ${secret} close.`,
      },
      { apply: true },
    );
    const written = [
      await readOrEmpty(join(f.workspace, 'DREAMS.md')),
      await readOrEmpty(join(f.workspace, 'memory/.dreams/recalls.jsonl')),
      ...(await Promise.all(
        ['light', 'rem', 'deep'].map((phase) =>
          readOrEmpty(join(f.workspace, `memory/dreaming/${phase}/2026-12-04.md`)),
        ),
      )),
    ];
    expect(written[0]).toContain('Tonight I kept the staging key');
    for (const text of written) expect(text).not.toContain(secret);
  });
});
