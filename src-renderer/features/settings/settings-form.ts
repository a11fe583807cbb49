/**
 * The settings people change, as form fields over paths of hearth.json. Each field mirrors a zod
 * schema in src-main (exec/exec-config.ts, memory/memory-config.ts); the server still validates
 * every save (config.set), so a value the schema refuses comes back naming its path.
 */
export type FieldSpec =
  | { path: string[]; kind: 'enum'; options: readonly string[]; fallback: string }
  | { path: string[]; kind: 'boolean'; fallback: boolean }
  | { path: string[]; kind: 'text'; fallback: string }
  | { path: string[]; kind: 'list'; fallback: string[] };

export const formFields: FieldSpec[] = [
  { path: ['tools', 'exec', 'security'], kind: 'enum', options: ['deny', 'allowlist', 'full'], fallback: 'allowlist' },
  { path: ['tools', 'exec', 'ask'], kind: 'enum', options: ['off', 'on-miss', 'always'], fallback: 'on-miss' },
  { path: ['tools', 'exec', 'envPassthrough'], kind: 'list', fallback: [] },
  { path: ['memory', 'recall', 'enabled'], kind: 'boolean', fallback: true },
  { path: ['memory', 'dreaming', 'enabled'], kind: 'boolean', fallback: false },
  { path: ['memory', 'dreaming', 'cron'], kind: 'text', fallback: '0 3 * * *' },
];

export const pathText = (path: string[]) => path.join('.');

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value at a path of the parsed config, or the field's default when unset. */
export function readField(config: unknown, field: FieldSpec): unknown {
  let cursor: unknown = config;
  for (const key of field.path) {
    if (!isRecord(cursor)) return field.fallback;
    cursor = cursor[key];
  }
  return cursor === undefined ? field.fallback : cursor;
}

/**
 * The raw file with one value set, everything else kept as written. Throws on a file that is not a
 * JSON object, so the form never overwrites what it cannot read.
 */
export function withField(raw: string, path: string[], value: unknown): string {
  const root: unknown = JSON.parse(raw.trim() === '' ? '{}' : raw);
  if (!isRecord(root)) throw new Error('hearth.json is not a JSON object');
  let cursor = root;
  for (const key of path.slice(0, -1)) {
    const next = cursor[key];
    if (next !== undefined && !isRecord(next)) throw new Error(`${key} is not an object`);
    if (next === undefined) cursor[key] = {};
    cursor = cursor[key] as Record<string, unknown>;
  }
  cursor[path[path.length - 1]!] = value;
  return `${JSON.stringify(root, null, 2)}\n`;
}

/** A list field as typed: one entry per comma or line, blanks dropped. */
export function parseList(text: string): string[] {
  return text
    .split(/[,\n]/)
    .map((item) => item.trim())
    .filter((item) => item.length > 0);
}
