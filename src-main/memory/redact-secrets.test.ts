import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ingestTranscripts } from './dreaming/transcript-ingest.js';
import { createMemoryFixture } from './memory-test-fixture.js';
import { redactSecrets } from './redact-secrets.js';

describe('redactSecrets', () => {
  it('removes keys, tokens and passwords, naming what it removed', () => {
    const result = redactSecrets(
      'remember my key sk-proj-abcdefghijklmnop1234 and ghp_abcdefghijklmnopqrstuvwx12 and my password is hunter2!',
    );
    expect(result.text).toBe(
      'remember my key [redacted api-key] and [redacted github-token] and my password is [redacted]',
    );
    expect(result.redacted).toEqual(['password', 'api-key', 'github-token']);
    expect(redactSecrets('记住：wifi 密码是 abc12345').text).toBe('记住：wifi 密码是 [redacted]');
    expect(redactSecrets('Authorization: Bearer abcdefghijklmnopqrstuvwxyz').text).toBe(
      'Authorization: Bearer [redacted bearer]',
    );
  });

  it('transcript ingestion captures the user notes capture missed, redacted and without duplicates', async () => {
    const fixture = await createMemoryFixture();
    await fixture.engine.open();
    const scope = fixture.engine.defaultScope();
    await fixture.engine.appendDaily(scope, 'I prefer tea in the evening', { category: 'preference' });
    const result = await ingestTranscripts(
      fixture.engine,
      scope,
      [
        { role: 'user', text: 'I prefer tea in the evening' },
        { role: 'user', text: 'Remember the staging token is sk-live-abcdefghijklmnopqrstu' },
        { role: 'assistant', text: 'I always remember everything you say' },
        { role: 'user', text: 'thanks!' },
      ],
      fixture.clock.now(),
    );
    expect(result).toEqual({ added: 1, redacted: 1 });
    expect(await readFile(join(fixture.workspace, 'memory/2026-11-30.md'), 'utf8')).toBe(
      '- 10:00 [preference] I prefer tea in the evening\n- 10:00 [fact] Remember the staging token is [redacted]\n',
    );
    await fixture.engine.close();
  });
});
