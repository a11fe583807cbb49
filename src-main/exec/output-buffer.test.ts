import { describe, expect, it } from 'vitest';
import { buildChildEnv } from './child-env.js';
import { execConfigSchema } from './exec-config.js';
import { OutputBuffer } from './output-buffer.js';

describe('output buffer', () => {
  it('keeps everything under the cap', () => {
    const buffer = new OutputBuffer(100);
    buffer.append('hello ');
    buffer.append('world');
    expect(buffer.text()).toBe('hello world');
    expect(buffer.truncated).toBe(false);
  });

  it('keeps the start and the end of long output and says how much was cut', () => {
    const buffer = new OutputBuffer(20);
    for (let index = 0; index < 100; index++) buffer.append(`${index % 10}`);
    expect(buffer.truncated).toBe(true);
    expect(buffer.text()).toBe(
      '0123456789\n[… 80 bytes of output cut; to see them, send the output to a file (`… > out.txt`) and read it in parts …]\n0123456789',
    );
  });

  it('never splits a multi-byte character', () => {
    const buffer = new OutputBuffer(9);
    buffer.append('ééééé');
    buffer.append('ààààà');
    expect(buffer.text()).not.toContain('\uFFFD');
  });
});

describe('child environment', () => {
  it('passes only the allowlisted variables and the configured extras', () => {
    const env = buildChildEnv(
      {
        PATH: '/bin',
        HOME: '/h',
        LC_ALL: 'C',
        OPENAI_API_KEY: 'sk',
        AWS_SECRET_ACCESS_KEY: 'x',
        NPM_CONFIG_CACHE: '/c',
        FOO: '1',
      },
      ['NPM_CONFIG_*', 'FOO'],
      { PWD: '/w' },
    );
    expect(env).toEqual({ PATH: '/bin', HOME: '/h', LC_ALL: 'C', NPM_CONFIG_CACHE: '/c', FOO: '1', PWD: '/w' });
  });
});

describe('exec config schema', () => {
  it('fills defaults', () => {
    expect(execConfigSchema.parse({})).toMatchObject({
      security: 'allowlist',
      ask: 'on-miss',
      askFallback: 'deny',
      approvals: { mode: 'human', timeoutMs: 10_000 },
      sandbox: { mode: 'local', network: false },
      approvalTimeoutMs: 1_800_000,
    });
  });

  it.each([
    [{ security: 'sometimes' }, 'security'],
    [{ allowlist: [{ pattern: '' }] }, 'allowlist.0.pattern'],
    [{ allowlist: [{ pattern: 'ls', argPattern: '[' }] }, 'allowlist.0.argPattern'],
    [{ sandbox: { mode: 'vm' } }, 'sandbox.mode'],
    [{ approvals: { mode: 'smart', timeoutMs: -1 } }, 'approvals.timeoutMs'],
    [{ envPassthrough: ['A B'] }, 'envPassthrough.0'],
    [{ surprise: true }, ''],
  ])('rejects %j at %s', (input, path) => {
    const result = execConfigSchema.safeParse(input);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path.join('.')).toBe(path);
  });
});
