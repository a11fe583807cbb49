/**
 * The one catalogue of what a secret looks like, and the one redactor, for every file
 * Hearth writes that a person did not ask to hold a secret: logs (gateway and desktop),
 * memory (daily notes, Dreaming's recall log, transcript ingestion), cache traces, and
 * config as shown by config.get / diagnostics. A new credential format is added here once
 * and every writer knows it. See docs/SECURITY.md "Secrets in files".
 *
 * Three layers, in order: exact secrets the caller knows (the gateway token), values named
 * as secrets (`password=…`, `"apiKey": "…"`, `my token is …`, `Authorization: …`), then
 * shapes of well-known credentials wherever they stand.
 */

/** What a value named as a secret becomes. A recognised shape becomes `[redacted <kind>]`. */
export const REDACTED = '[redacted]';

interface Rule {
  kind: string;
  pattern: RegExp;
  /** Group 1 is kept (the name, the scheme) and only the rest is replaced. */
  keepPrefix?: boolean;
  /** Marker for this rule; default `[redacted <kind>]`. */
  marker?: string;
}

// Words that name a secret. "token" alone also names counts (maxTokens: 4096); numbers of up
// to five digits after such a name are left alone below.
const SECRET_WORD =
  '(?:passw(?:or)?d|passphrase|pwd|secret|token|api[_ -]?key|apikey|access[_-]?key|private[_-]?key|credentials?|密码|口令|密钥|令牌)';
const SECRET_NAME = `[A-Za-z0-9_-]*${SECRET_WORD}[A-Za-z0-9_-]*`;
/** A value not already redacted, and not a small count. */
const VALUE_GUARD = String.raw`(?!\[redacted)(?!\d{1,5}(?![\w.-]))`;

/** Named secrets: the value goes whatever its shape. Order matters: the first rule to match a span wins it. */
const NAMED: Rule[] = [
  // PEM private keys (RSA, EC, OPENSSH, ENCRYPTED, PGP blocks); an unterminated block to the end.
  {
    kind: 'private-key',
    pattern:
      /-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----(?:[\s\S]*?-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|[\s\S]*$)/g,
  },
  // scheme://user:password@host
  { kind: 'url-password', pattern: /(\b[a-z][a-z0-9+.-]*:\/\/[^\s:/@]+:)[^\s@/]+(?=@)/gi, keepPrefix: true },
  // Authorization: Bearer …, Proxy-Authorization: Basic …
  {
    kind: 'bearer',
    pattern:
      /(\b(?:proxy-)?authorization["']?\s*[:=]\s*["']?(?:(?:bearer|basic|token|digest)\s+)?)(?!\[redacted)[^\s,;"']+/gi,
    keepPrefix: true,
  },
  { kind: 'bearer', pattern: /(\b(?:bearer|basic)\s+)(?!\[redacted)[A-Za-z0-9._~+/-]{8,}=*/gi, keepPrefix: true },
  // "apiKey": "value"   'password': 'value'  (quotes kept, so JSON stays JSON)
  {
    kind: 'named-secret',
    pattern: new RegExp(String.raw`(["']${SECRET_NAME}["']\s*:\s*["'])${VALUE_GUARD}(?:[^"'\\\n]|\\.)+(?=["'])`, 'gi'),
    keepPrefix: true,
    marker: REDACTED,
  },
  // token=value, password: value, OPENAI_API_KEY=…, "my password is …", 密码是 …
  {
    kind: 'named-secret',
    pattern: new RegExp(
      String.raw`((?<![A-Za-z0-9])${SECRET_NAME}\s*(?:[:=：]|是|\s(?:is|was|are)\s)\s*)${VALUE_GUARD}("[^"\n]*"|'[^'\n]*'|[^\s"',;&}<>]+)`,
      'gi',
    ),
    keepPrefix: true,
    marker: REDACTED,
  },
];

/** Shapes of credentials, recognised anywhere in text. */
const SHAPES: Rule[] = [
  { kind: 'api-key', pattern: /\bsk-ant-[A-Za-z0-9_-]{8,}/g }, // Anthropic
  { kind: 'api-key', pattern: /\bsk-[A-Za-z0-9_-]{16,}/g }, // OpenAI (sk-, sk-proj-, sk-svcacct-), OpenRouter, DeepSeek…
  { kind: 'api-key', pattern: /\b[rs]k_(?:live|test)_[A-Za-z0-9]{16,}/g }, // Stripe
  { kind: 'api-key', pattern: /\bgsk_[A-Za-z0-9]{20,}/g }, // Groq
  { kind: 'api-key', pattern: /\bxai-[A-Za-z0-9]{20,}/g }, // xAI
  { kind: 'api-key', pattern: /\bhf_[A-Za-z0-9]{20,}/g }, // Hugging Face
  { kind: 'api-key', pattern: /\bnpm_[A-Za-z0-9]{30,}/g }, // npm
  { kind: 'github-token', pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})/g },
  { kind: 'gitlab-token', pattern: /\bglpat-[A-Za-z0-9_-]{20,}/g },
  { kind: 'slack-token', pattern: /\bxox[abposre]-[A-Za-z0-9-]{10,}/g },
  { kind: 'slack-webhook', pattern: /https:\/\/hooks\.slack\.com\/services\/[A-Za-z0-9/_-]+/g },
  // 123456789:AA…: also inside https://api.telegram.org/bot<token>/…, hence no word boundary before.
  { kind: 'telegram-token', pattern: /(?<!\d)\d{5,12}:[A-Za-z0-9_-]{30,}/g },
  { kind: 'discord-token', pattern: /\b[MNO][A-Za-z0-9_-]{23,27}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,}/g },
  { kind: 'aws-key', pattern: /\b(?:AKIA|ASIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA)[0-9A-Z]{16}\b/g },
  { kind: 'google-key', pattern: /\bAIza[0-9A-Za-z_-]{30,}/g },
  { kind: 'google-oauth', pattern: /\bya29\.[0-9A-Za-z_-]{20,}/g },
  { kind: 'jwt', pattern: /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*/g },
];

const RULES: readonly Rule[] = [...NAMED, ...SHAPES];

/** Secrets shorter than this are not replaced by value (they would hit ordinary words). */
const MIN_KNOWN_SECRET = 6;

/** Redacts `text`, and says which kinds of secret it removed (in rule order, one entry per hit). */
export function scrubSecrets(text: string, knownSecrets: readonly string[] = []): { text: string; kinds: string[] } {
  const kinds: string[] = [];
  let out = text;
  // Longest first, so a secret containing another is replaced whole.
  for (const secret of [...knownSecrets]
    .filter((s) => s.length >= MIN_KNOWN_SECRET)
    .sort((a, b) => b.length - a.length)) {
    if (!out.includes(secret)) continue;
    kinds.push('known-secret');
    out = out.split(secret).join(REDACTED);
  }
  for (const rule of RULES) {
    out = out.replace(rule.pattern, (...match: unknown[]) => {
      kinds.push(rule.kind);
      const marker = rule.marker ?? `[redacted ${rule.kind}]`;
      return rule.keepPrefix ? `${match[1] as string}${marker}` : marker;
    });
  }
  return { text: out, kinds };
}

export function redactSecrets(text: string, knownSecrets: readonly string[] = []): string {
  return scrubSecrets(text, knownSecrets).text;
}

const SECRET_FIELD = new RegExp(`^${SECRET_NAME}$|^(?:authorization|cookie|set-cookie)$`, 'i');
/**
 * Fields that hold the *name* of a secret in the store, not the secret (config
 * `gateway.auth.passwordSecret: "gateway-password"`). New references are named `…SecretName` or `…Ref`.
 */
const REFERENCE_FIELD = /^(?:passwordSecret|[A-Za-z0-9_]*SecretName|[A-Za-z0-9_]*Ref)$/;
/** Counts named after tokens (maxTokens, contextTokens): numbers, never secrets. */
const COUNT_FIELD = /(?:tokens|count|budget|limit|ms|chars)$/i;

export function isSecretFieldName(name: string): boolean {
  return SECRET_FIELD.test(name) && !REFERENCE_FIELD.test(name);
}

/**
 * Redacts a JSON-like value (log fields, config): every string through `redactSecrets`, and
 * everything under a secret-named field (strings, numbers, and the strings of nested values).
 */
export function redactValue(value: unknown, knownSecrets: readonly string[] = []): unknown {
  return walk(value, knownSecrets, false);
}

function walk(value: unknown, knownSecrets: readonly string[], underSecret: boolean): unknown {
  if (typeof value === 'string') return underSecret ? REDACTED : redactSecrets(value, knownSecrets);
  if (Array.isArray(value)) return value.map((item) => walk(item, knownSecrets, underSecret));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      const secret = underSecret || isSecretFieldName(key);
      if (secret && typeof item === 'number' && !COUNT_FIELD.test(key)) out[key] = REDACTED;
      else out[key] = walk(item, knownSecrets, secret);
    }
    return out;
  }
  return value;
}
