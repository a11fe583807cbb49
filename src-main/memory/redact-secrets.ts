/**
 * Secrets never reach memory files: API keys, bearer tokens, passwords and private keys in
 * text bound for a daily note are replaced with a marker naming what was removed.
 */
const PATTERNS: { kind: string; pattern: RegExp }[] = [
  // "password is …" first, so the value goes whatever its shape; CJK has no \b, hence the lookbehind.
  {
    kind: 'password',
    pattern:
      /(?<![A-Za-z])(password|passwd|pwd|token|secret|api[_ -]?key|密码)(\s*(?:is|[:=：]|是)\s*)("[^"]+"|'[^']+'|[^\s"']+)/gi,
  },
  { kind: 'private-key', pattern: /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----/g },
  { kind: 'api-key', pattern: /\b(?:sk|pk|rk)-(?:[A-Za-z0-9_-]{2,}-)?[A-Za-z0-9_-]{16,}\b/g },
  { kind: 'github-token', pattern: /\bgh[pousr]_[A-Za-z0-9]{20,}\b/g },
  { kind: 'slack-token', pattern: /\bxox[abprs]-[A-Za-z0-9-]{10,}\b/g },
  { kind: 'aws-key', pattern: /\bAKIA[0-9A-Z]{16}\b/g },
  { kind: 'google-key', pattern: /\bAIza[0-9A-Za-z_-]{30,}\b/g },
  { kind: 'jwt', pattern: /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\b/g },
  { kind: 'bearer', pattern: /\b(Bearer)\s+[A-Za-z0-9._~+/-]{16,}=*/gi },
];

export function redactSecrets(text: string): { text: string; redacted: string[] } {
  const redacted: string[] = [];
  let out = text;
  for (const { kind, pattern } of PATTERNS) {
    out = out.replace(pattern, (...match: string[]) => {
      redacted.push(kind);
      if (kind === 'bearer') return `${match[1]} [redacted ${kind}]`;
      if (kind === 'password') return `${match[1]}${match[2]}[redacted]`;
      return `[redacted ${kind}]`;
    });
  }
  return { text: out, redacted };
}
