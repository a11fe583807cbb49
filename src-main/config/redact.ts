const SECRET_KEY = /(token|password|secret|api[-_]?key|apikey|authorization|private[-_]?key|credential)/i;

/** Replaces values under secret-looking keys, so config.get and diagnostics never show them. */
export function redactSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactSecrets);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value as Record<string, unknown>)) {
    // Names of secrets (e.g. passwordSecret: "gateway-password") are references, not secrets.
    const isReference = /Secret$|SecretName$|Ref$/.test(key);
    out[key] = SECRET_KEY.test(key) && !isReference && typeof inner === 'string' ? '[redacted]' : redactSecrets(inner);
  }
  return out;
}
