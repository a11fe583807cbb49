import { describe, expect, it } from 'vitest';
import { REDACTED, redactSecrets, redactValue } from './redact.js';

describe('redactSecrets', () => {
  it.each([
    ['OPENAI_API_KEY=sk-proj-abcdefghijklmnopqrstuvwx', 'sk-proj-abcdefghijklmnopqrstuvwx'],
    ['using key sk-ant-api03-abcdefghijklmnop for claude', 'sk-ant-api03-abcdefghijklmnop'],
    ['google AIzaSyA1234567890abcdefghijklmnopqrstu', 'AIzaSyA1234567890abcdefghijklmnopqrstu'],
    ['aws AKIAIOSFODNN7EXAMPLE', 'AKIAIOSFODNN7EXAMPLE'],
    ['gh ghp_abcdefghijklmnopqrstuvwxyz0123456789', 'ghp_abcdefghijklmnopqrstuvwxyz0123456789'],
    ['slack xoxb-1234567890-abcdefghij', 'xoxb-1234567890-abcdefghij'],
    ['bot 123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw1 ready', '123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw1'],
    ['Authorization: Bearer abc.def-ghi_jkl', 'abc.def-ghi_jkl'],
    ['GET /ws?token=s3cr3tvalue&x=1', 's3cr3tvalue'],
    ['{"apiKey": "plain-value-123", "model": "gpt"}', 'plain-value-123'],
    ["{'password': 'hunter2hunter2'}", 'hunter2hunter2'],
    ['gateway_token: 0123456789abcdef', '0123456789abcdef'],
    ['jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N', 'eyJhbGciOiJIUzI1NiJ9'],
    ['-----BEGIN PRIVATE KEY-----\nMIIEvQ\n-----END PRIVATE KEY-----', 'MIIEvQ'],
  ])('removes the secret from %j', (text, secret) => {
    const out = redactSecrets(text);
    expect(out).not.toContain(secret);
    expect(out).toContain(REDACTED);
  });

  it('removes known secrets wherever they appear, whatever their shape', () => {
    expect(redactSecrets('connected with zz9-plural-z-alpha ok', ['zz9-plural-z-alpha'])).toBe(
      `connected with ${REDACTED} ok`,
    );
  });

  it('keeps ordinary text, including words like "tokens" in prose and token counts', () => {
    const text = 'model=gpt-4o used 1200 tokens in 3.2 s; session agent:main:main';
    expect(redactSecrets(text)).toBe(text);
  });

  it('keeps the JSON it redacts parseable', () => {
    const out = redactSecrets(JSON.stringify({ token: 'abc"def\\ghi', n: 1 }));
    expect(JSON.parse(out)).toEqual({ token: REDACTED, n: 1 });
  });
});

describe('redactValue', () => {
  it('redacts secret-named fields and secret-shaped strings in nested values', () => {
    expect(
      redactValue({ apiKey: 'x', nested: { authToken: 42, note: 'key sk-abcdefghijklmnopqrstu' }, list: ['ok'] }),
    ).toEqual({ apiKey: REDACTED, nested: { authToken: REDACTED, note: `key ${REDACTED}` }, list: ['ok'] });
  });
});
