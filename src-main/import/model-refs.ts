import { hearthProviderId } from './known-providers.js';

/**
 * Another tool's `provider/model` as Hearth's, with the provider id mapped (gemini → google).
 * Undefined for an alias without a provider (`opus`), which Hearth cannot resolve.
 */
export function hearthModelRef(ref: unknown, defaultProvider?: string): string | undefined {
  if (typeof ref !== 'string' || !ref.trim()) return undefined;
  const value = ref.trim();
  const slash = value.indexOf('/');
  if (slash <= 0) return defaultProvider ? `${hearthProviderId(defaultProvider)}/${value}` : undefined;
  return `${hearthProviderId(value.slice(0, slash))}/${value.slice(slash + 1)}`;
}

/** `"p/m"` or `{primary, fallbacks}` as Hearth's selection; refs Hearth cannot read are dropped. */
export function hearthModelSelection(value: unknown): { primary: string; fallbacks: string[] } | undefined {
  if (typeof value === 'string') {
    const primary = hearthModelRef(value);
    return primary ? { primary, fallbacks: [] } : undefined;
  }
  if (!value || typeof value !== 'object') return undefined;
  const { primary, fallbacks } = value as { primary?: unknown; fallbacks?: unknown };
  const mapped = hearthModelRef(primary);
  if (!mapped) return undefined;
  const rest = Array.isArray(fallbacks) ? fallbacks.map((f) => hearthModelRef(f)).filter((f): f is string => !!f) : [];
  return { primary: mapped, fallbacks: rest };
}
