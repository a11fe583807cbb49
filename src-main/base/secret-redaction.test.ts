import { describe, expect, it } from 'vitest';
import { CREDENTIALS } from '../testing/credential-samples.js';
import { isSecretFieldName, REDACTED, redactSecrets, redactValue, scrubSecrets } from './secret-redaction.js';

// The same secret in the places people and programs put it.
const CONTEXTS: ((secret: string) => string)[] = [
  (s) => s,
  (s) => `remember my key ${s} please`,
  (s) => `OPENAI_API_KEY=${s}`,
  (s) => `export TOKEN="${s}"`,
  (s) => JSON.stringify({ apiKey: s, model: 'gpt' }),
  (s) => JSON.stringify({ note: `use ${s} for now` }),
  (s) => `curl -H "Authorization: Bearer ${s}" https://api.example.com`,
  (s) => `GET /v1/models?key=${s}&x=1`,
  (s) => `(${s})`,
  (s) => `my secret is ${s}.`,
  (s) => `密钥是${s}`,
];

describe('secret catalogue', () => {
  for (const [format, secret] of CREDENTIALS) {
    it(`removes a ${format} credential wherever it stands`, () => {
      for (const context of CONTEXTS) {
        const text = context(secret);
        const out = redactSecrets(text);
        expect({ text, leaked: out.includes(secret) }).toEqual({ text, leaked: false });
        // Not even a long piece of it survives (a partial match would leak the rest).
        expect({ text, leakedTail: out.includes(secret.slice(-12)) }).toEqual({ text, leakedTail: false });
      }
    });
  }

  it.each([
    [
      'Telegram API URL',
      'POST https://api.telegram.org/bot7213456890:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw1/getMe',
      'AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw1',
    ],
    ['bearer header', 'Authorization: Bearer abc.def-ghi_jkl', 'abc.def-ghi_jkl'],
    ['basic header', 'Proxy-Authorization: Basic dXNlcjpwYXNzd29yZA==', 'dXNlcjpwYXNzd29yZA'],
    ['bare bearer', 'sent bearer 0123456789abcdefXYZ', '0123456789abcdefXYZ'],
    ['password in a URL query', 'https://db.example.com/login?user=me&password=hunter2hunter2', 'hunter2hunter2'],
    ['password in URL userinfo', 'postgres://admin:Tr0ub4dor&3@db.internal:5432/app', 'Tr0ub4dor&3'],
    ['token in a query', 'GET /ws?token=s3cr3tvalue&x=1', 's3cr3tvalue'],
    ['quoted JSON field', '{"apiKey": "plain-value-123", "model": "gpt"}', 'plain-value-123'],
    ['single-quoted field', "{'password': 'hunter2hunter2'}", 'hunter2hunter2'],
    ['yaml-ish field', 'gateway_token: 0123456789abcdef', '0123456789abcdef'],
    ['env line', 'AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', 'wJalrXUtnFEMI'],
    ['prose', 'my password is hunter2!', 'hunter2'],
    ['prose, token', 'the staging token is abcdefgh1234', 'abcdefgh1234'],
    ['Chinese prose', '记住：wifi 密码是 abc12345', 'abc12345'],
    ['PEM RSA', '-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA\n-----END RSA PRIVATE KEY-----', 'MIIEpAIBAAKCAQEA'],
    [
      'PEM OpenSSH',
      '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk\n-----END OPENSSH PRIVATE KEY-----',
      'b3BlbnNzaC1rZXk',
    ],
    [
      'PEM cut off',
      'key: -----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIBkg4LVWM9nuwNSk3yBx',
      'MHcCAQEEIBkg4LVWM9nuwNSk3yBx',
    ],
    ['PGP block', '-----BEGIN PGP PRIVATE KEY BLOCK-----\nlQOYBF4\n-----END PGP PRIVATE KEY BLOCK-----', 'lQOYBF4'],
  ])('removes a secret given as %s', (_name, text, secret) => {
    const out = redactSecrets(text);
    expect(out).not.toContain(secret);
    expect(out).toMatch(/\[redacted/);
  });

  it('names what it removed, keeping the words around it', () => {
    const result = scrubSecrets(
      'remember my key sk-proj-abcdefghijklmnop1234 and ghp_abcdefghijklmnopqrstuvwx12 and my password is hunter2!',
    );
    expect(result.text).toBe(
      'remember my key [redacted api-key] and [redacted github-token] and my password is [redacted]',
    );
    expect(result.kinds.sort()).toEqual(['api-key', 'github-token', 'named-secret']);
    expect(redactSecrets('Authorization: Bearer abcdefghijklmnopqrstuvwxyz')).toBe(
      'Authorization: Bearer [redacted bearer]',
    );
  });

  it('removes known secrets wherever they appear, whatever their shape', () => {
    expect(redactSecrets('connected with zz9-plural-z-alpha ok', ['zz9-plural-z-alpha'])).toBe(
      `connected with ${REDACTED} ok`,
    );
  });

  it('keeps ordinary text: prose about tokens, token counts, code, URLs without credentials', () => {
    for (const text of [
      'model=gpt-4o used 1200 tokens in 3.2 s; session agent:main:main',
      'the token budget is 8000 tokens',
      'max_tokens: 4096',
      'see https://example.com/docs?page=2 and git@github.com:me/repo.git',
      'a sketch of the task-list component',
      'unauthorized: gateway token mismatch',
      'at 12:30:45 the build finished',
    ]) {
      expect(redactSecrets(text)).toBe(text);
    }
  });

  it('keeps the JSON it redacts parseable', () => {
    const out = redactSecrets(JSON.stringify({ token: 'abc"def\\ghi', n: 1, note: 'sk-ant-api03-abcdefghijklmnop' }));
    expect(JSON.parse(out)).toEqual({ token: REDACTED, n: 1, note: '[redacted api-key]' });
  });
});

describe('redactValue', () => {
  it('redacts secret-named fields and secret-shaped strings in nested values', () => {
    expect(
      redactValue({
        apiKey: 'x',
        nested: { authToken: 42, note: 'key sk-abcdefghijklmnopqrstu' },
        list: ['ok'],
        tokens: ['abcdef', 'ghijkl'],
      }),
    ).toEqual({
      apiKey: REDACTED,
      nested: { authToken: REDACTED, note: 'key [redacted api-key]' },
      list: ['ok'],
      tokens: [REDACTED, REDACTED],
    });
  });

  it('keeps references to stored secrets and counts named after tokens', () => {
    expect(
      redactValue({ auth: { mode: 'password', passwordSecret: 'gateway-password' }, maxTokens: 4096, enabled: true }),
    ).toEqual({ auth: { mode: 'password', passwordSecret: 'gateway-password' }, maxTokens: 4096, enabled: true });
    expect(isSecretFieldName('clientSecret')).toBe(true);
    expect(isSecretFieldName('Authorization')).toBe(true);
    expect(isSecretFieldName('author')).toBe(false);
  });
});
