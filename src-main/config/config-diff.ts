/** Dotted paths (to `depth` levels) whose values differ between two configs. */
export function changedPaths(before: unknown, after: unknown, depth = 3, prefix = ''): string[] {
  if (Object.is(before, after)) return [];
  const bothObjects =
    before !== null &&
    after !== null &&
    typeof before === 'object' &&
    typeof after === 'object' &&
    !Array.isArray(before) &&
    !Array.isArray(after);
  if (!bothObjects || depth === 0) return JSON.stringify(before) === JSON.stringify(after) ? [] : [prefix];
  const a = before as Record<string, unknown>;
  const b = after as Record<string, unknown>;
  const out: string[] = [];
  for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
    out.push(...changedPaths(a[key], b[key], depth - 1, prefix ? `${prefix}.${key}` : key));
  }
  return out;
}

/** A subscriber for `prefix` cares about a change at `path` when either contains the other. */
export function prefixMatches(prefix: string, path: string): boolean {
  if (prefix === '' || path === '') return true;
  return path === prefix || path.startsWith(`${prefix}.`) || prefix.startsWith(`${path}.`);
}

/** RFC 7386 JSON merge patch. */
export function applyMergePatch(target: unknown, patch: unknown): unknown {
  if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) return patch;
  const base: Record<string, unknown> =
    target !== null && typeof target === 'object' && !Array.isArray(target)
      ? { ...(target as Record<string, unknown>) }
      : {};
  for (const [key, value] of Object.entries(patch as Record<string, unknown>)) {
    if (value === null) delete base[key];
    else base[key] = applyMergePatch(base[key], value);
  }
  return base;
}
