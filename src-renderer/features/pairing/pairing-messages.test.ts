import { describe, expect, it } from 'vitest';
import { createTranslate } from '../../i18n/translate.js';
import { pairingProblem, problemFromRefusal, problemWords } from './pairing-messages.js';

const en = createTranslate('en');
const zh = createTranslate('zh');

describe('pairing problems in the UI language', () => {
  it('words a problem in English as the store always said it', () => {
    for (const kind of ['expired', 'already-used', 'rejected', 'removed', 'timed-out', 'other'] as const) {
      const problem = pairingProblem(kind);
      expect(problemWords(problem, en)).toEqual({ title: problem.title, message: problem.message });
    }
    const damaged = pairingProblem('invalid-code', 'The code has no "urls".');
    expect(problemWords(damaged, en)).toEqual({ title: damaged.title, message: damaged.message });
  });

  it('words it in Chinese, keeping what the gateway said as the detail', () => {
    expect(problemWords(pairingProblem('expired'), zh)).toEqual({
      title: '此配对码已过期',
      message: '配对码有效期为 10 分钟。请扫描新的配对码：在电脑上打开 Hearth → 设备 → 配对手机。',
    });
    expect(problemWords(pairingProblem('certificate'), zh).message).toBe(
      '网关出示的 TLS 证书不是配对码固定的那一个。 没有向它发送任何内容。',
    );
    expect(problemWords(pairingProblem('signature', 'device nonce mismatch.'), zh).message).toContain(
      'device nonce mismatch.',
    );
  });

  it('says how long a rate limit lasts in either language', () => {
    const limited = problemFromRefusal({
      code: 'UNAUTHORIZED',
      message: 'too many attempts',
      details: { code: 'AUTH_RATE_LIMITED', retryAfterMs: 150_000 },
    });
    expect(limited).toMatchObject({ kind: 'rate-limited', retryMinutes: 3 });
    expect(problemWords(limited, en).message).toBe(limited.message);
    expect(problemWords(limited, zh).message).toContain('请在 3 分钟后重试');
  });
});
