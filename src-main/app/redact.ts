/**
 * Scrubs credentials out of text before it leaves the machine's log folder (the
 * "Copy diagnostics" clipboard, bug reports). Two layers: the exact secrets we know
 * (gateway token, stored keys), then shapes of well-known credentials and any
 * `token=`/`"apiKey": "…"`/`Authorization: …` style assignment.
 */
export const REDACTED = '[redacted]';

const credentialShapes: RegExp[] = [
  /\bsk-ant-[A-Za-z0-9_-]{10,}/g, // Anthropic
  /\bsk-(?:proj-|svcacct-)?[A-Za-z0-9_-]{16,}/g, // OpenAI and compatibles
  /\bAIza[0-9A-Za-z_-]{30,}/g, // Google
  /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g, // AWS access key ids
  /\bgh[pousr]_[A-Za-z0-9]{30,}/g, // GitHub
  /\bxox[abprs]-[A-Za-z0-9-]{10,}/g, // Slack
  /\b\d{8,10}:AA[A-Za-z0-9_-]{30,}/g, // Telegram bot tokens
  /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g, // JWTs
  /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----/g,
];

const secretName =
  '[A-Za-z0-9_-]*(?:token|secret|password|passwd|api[_-]?key|apikey|private[_-]?key|credential|auth)[A-Za-z0-9_-]*';

const assignments: RegExp[] = [
  // Authorization: Bearer value / Basic value
  /(\bauthorization\s*[:=]\s*)(?:bearer|basic|token)?\s*[^\s,;"']+/gi,
  /(\bbearer\s+)[A-Za-z0-9._~+/-]{8,}=*/gi,
  // "apiKey": "value"   'token': 'value'
  new RegExp(String.raw`(["']${secretName}["']\s*:\s*)(["'])(?:(?!\2)[^\\]|\\.)*\2`, 'gi'),
  // token=value  password: value  (env lines, query strings, log fields)
  new RegExp(String.raw`(\b${secretName}\s*[=:]\s*)(?!["'\[])[^\s&,;"']+`, 'gi'),
];

export function redactSecrets(text: string, knownSecrets: readonly string[] = []): string {
  let out = text;
  // Longest first, so a secret containing another is replaced whole.
  for (const secret of [...knownSecrets].filter((s) => s.length >= 6).sort((a, b) => b.length - a.length)) {
    out = out.split(secret).join(REDACTED);
  }
  for (const shape of credentialShapes) out = out.replace(shape, REDACTED);
  for (const assignment of assignments) {
    out = out.replace(assignment, (_match, prefix: string, quote?: string) =>
      typeof quote === 'string' && (quote === '"' || quote === "'")
        ? `${prefix}${quote}${REDACTED}${quote}`
        : `${prefix}${REDACTED}`,
    );
  }
  return out;
}

/** Redacts every string inside a JSON-like value (log fields). */
export function redactValue(value: unknown, knownSecrets: readonly string[] = []): unknown {
  if (typeof value === 'string') return redactSecrets(value, knownSecrets);
  if (Array.isArray(value)) return value.map((item) => redactValue(item, knownSecrets));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      out[key] =
        new RegExp(`^${secretName}$`, 'i').test(key) && item != null ? REDACTED : redactValue(item, knownSecrets);
    }
    return out;
  }
  return value;
}
