import type { z } from 'zod';
import { type HearthConfig, hearthConfigSchema } from './config-schema.js';

export interface ConfigProblem {
  /** Dotted path into hearth.json, e.g. `gateway.port`; empty for the whole file. */
  path: string;
  message: string;
}

export type ConfigValidation =
  | { ok: true; config: HearthConfig; parsed: unknown }
  | { ok: false; errors: ConfigProblem[] };

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

/** Validates hearth.json text; every problem names where it is and what is wrong. */
export function validateConfigText(text: string): ConfigValidation {
  if (text.trim() === '') return { ok: true, config: hearthConfigSchema.parse({}), parsed: {} };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return { ok: false, errors: [{ path: '', message: `not valid JSON: ${(error as Error).message}` }] };
  }
  return validateConfigValue(parsed);
}

export function validateConfigValue(parsed: unknown): ConfigValidation {
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    return { ok: false, errors: [{ path: '', message: 'the config must be a JSON object' }] };
  }
  const result = hearthConfigSchema.safeParse(parsed);
  if (result.success) return { ok: true, config: result.data, parsed };
  return {
    ok: false,
    errors: result.error.issues.map((issue) => ({
      path: issue.path.map(String).join('.'),
      message: describeIssue(issue),
    })),
  };
}

export function formatProblems(errors: readonly ConfigProblem[]): string {
  return errors.map((e) => (e.path ? `${e.path}: ${e.message}` : e.message)).join('\n');
}
