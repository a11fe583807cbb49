import { z } from 'zod';

export interface ConfigProblem {
  /** Dotted path into hearth.json, e.g. `gateway.port`; empty for the whole file. */
  path: string;
  message: string;
}

export type ConfigValidation<C> = { ok: true; config: C; parsed: unknown } | { ok: false; errors: ConfigProblem[] };

function describeIssue(issue: z.core.$ZodIssue): string {
  if (issue.code === 'unrecognized_keys')
    return `unknown key${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `"${k}"`).join(', ')}`;
  if (issue.code === 'invalid_type') {
    // zod 4 does not keep the input by default; its message says what it received.
    const received = /received (\w+)/.exec(issue.message)?.[1];
    return `expected ${issue.expected}, got ${received === 'undefined' ? 'nothing' : (received ?? 'something else')}`;
  }
  return issue.message;
}

/**
 * Validates a config file's text against `schema` (the host passes the merge of every
 * capability's section); every problem names where it is and what is wrong. Empty text is
 * the schema's defaults.
 */
export function validateConfigText<C>(schema: z.ZodType<C>, text: string): ConfigValidation<C> {
  if (text.trim() === '') return validateConfigValue(schema, {});
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return { ok: false, errors: [{ path: '', message: `not valid JSON: ${(error as Error).message}` }] };
  }
  return validateConfigValue(schema, parsed);
}

export function validateConfigValue<C>(schema: z.ZodType<C>, parsed: unknown): ConfigValidation<C> {
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    return { ok: false, errors: [{ path: '', message: 'the config must be a JSON object' }] };
  }
  const result = schema.safeParse(parsed);
  if (result.success) return { ok: true, config: result.data, parsed };
  return {
    ok: false,
    errors: result.error.issues.map((issue) => ({
      path: issue.path.map(String).join('.'),
      message: describeIssue(issue),
    })),
  };
}

/**
 * The file as written, typed by `schema`'s input: checked against the schema and kept as it is
 * (defaults not applied), so an edit that writes it back adds nothing. A capability below the
 * host passes a view schema of just the sections it edits.
 */
export function asWrittenSchema<S extends z.ZodType>(schema: S, what: string): z.ZodType<z.input<S>, z.input<S>> {
  return z.custom<z.input<S>>((value) => schema.safeParse(value).success, `${what} does not match its schema`);
}

export function formatProblems(errors: readonly ConfigProblem[]): string {
  return errors.map((e) => (e.path ? `${e.path}: ${e.message}` : e.message)).join('\n');
}
