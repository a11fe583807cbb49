import type { z } from 'zod';

/**
 * The compatibility policy of the wire (docs/GATEWAY.md "Compatibility policy"): a client
 * built for a newer release sends fields this gateway has never heard of, and asks for
 * bigger pages than it serves. Both are answered, not refused:
 *
 * - an unknown key of a closed object is dropped (and reported, so the gateway can log it once);
 * - a page-size limit above the schema's maximum is lowered to that maximum.
 *
 * Everything else stays strict: wrong types, missing required fields, string and array
 * sizes, enum values, numbers that are not page limits. The schemas stay `.strict()` so
 * their own error messages and types are unchanged; this only decides which of their
 * complaints a client may get past.
 */

export interface ToleratedParams<T> {
  success: true;
  data: T;
  /** JSON-pointer-ish paths of the keys that were dropped, e.g. `client.buildId`. */
  ignored: string[];
  /** Paths of the limits that were lowered, e.g. `limit (10000 → 1000)`. */
  clamped: string[];
}

export interface RefusedParams {
  success: false;
  /** Only the complaints that tolerance does not cover. */
  issues: z.core.$ZodIssue[];
}

/** Page-size knobs: a bigger page than served is still a meaningful request. */
export function isPageLimitKey(key: PropertyKey | undefined): boolean {
  return typeof key === 'string' && (key === 'limit' || key.endsWith('Limit'));
}

/** A fix round can uncover nested issues (zod stops at the first level that fails); a few rounds suffice. */
const MAX_ROUNDS = 6;

export function parseTolerant<S extends z.ZodType>(
  schema: S,
  value: unknown,
): ToleratedParams<z.output<S>> | RefusedParams {
  let current = value;
  let copied = false;
  const ignored: string[] = [];
  const clamped: string[] = [];
  for (let round = 0; round < MAX_ROUNDS; round += 1) {
    const parsed = schema.safeParse(current);
    if (parsed.success) return { success: true, data: parsed.data, ignored, clamped };
    const fixes: (() => void)[] = [];
    const refused: z.core.$ZodIssue[] = [];
    for (const issue of parsed.error.issues) {
      if (issue.code === 'unrecognized_keys') {
        fixes.push(() => {
          const holder = objectAt(current, issue.path);
          if (!holder) return;
          for (const key of issue.keys) {
            delete holder[key];
            ignored.push(pathText([...issue.path, key]));
          }
        });
        continue;
      }
      const key = issue.path.at(-1);
      if (issue.code === 'too_big' && issue.origin === 'number' && isPageLimitKey(key)) {
        const maximum = Number(issue.maximum);
        fixes.push(() => {
          const holder = objectAt(current, issue.path.slice(0, -1));
          if (!holder || typeof key !== 'string') return;
          clamped.push(`${pathText(issue.path)} (${String(holder[key])} → ${maximum})`);
          holder[key] = maximum;
        });
        continue;
      }
      refused.push(issue);
    }
    if (refused.length > 0 || fixes.length === 0)
      return { success: false, issues: refused.length > 0 ? refused : parsed.error.issues };
    // Never edit what the caller handed in (the in-process bridge passes live objects).
    if (!copied) {
      current = structuredClone(current);
      copied = true;
    }
    for (const fix of fixes) fix();
  }
  const last = schema.safeParse(current);
  if (last.success) return { success: true, data: last.data, ignored, clamped };
  return { success: false, issues: last.error.issues };
}

function objectAt(root: unknown, path: readonly PropertyKey[]): Record<PropertyKey, unknown> | undefined {
  let node: unknown = root;
  for (const segment of path) {
    if (!node || typeof node !== 'object') return undefined;
    node = (node as Record<PropertyKey, unknown>)[segment];
  }
  return node && typeof node === 'object' ? (node as Record<PropertyKey, unknown>) : undefined;
}

function pathText(path: readonly PropertyKey[]): string {
  return path.map(String).join('.');
}
