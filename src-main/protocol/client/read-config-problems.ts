import { z } from 'zod';

// What a client reads of hearth.json through the gateway, whatever wrote the answer: config.set's
// refusal details (`{reason: "invalid-config", errors}`; older gateways said `issues`), and
// config.get's `parsed` (the file as JSON, which need not be an object at all).

/** One schema problem of the file, where and what. */
export interface ConfigProblemView {
  /** `(root)` when the problem is the file as a whole. */
  path: string;
  message: string;
}

const problem = z
  .object({ path: z.string().catch(''), message: z.string().catch('') })
  .catch({ path: '', message: '' })
  .transform(({ path, message }) => ({ path: path || '(root)', message }));
const refusal = z.object({ errors: z.array(problem).optional(), issues: z.array(problem).optional() });

/** The problems named by a refused config write's error details; none when it names none. */
export function readConfigProblems(details: unknown): ConfigProblemView[] {
  const parsed = refusal.safeParse(details);
  return parsed.success ? (parsed.data.errors ?? parsed.data.issues ?? []) : [];
}

const object = z.record(z.string(), z.unknown()).catch({});

/** config.get's `parsed` as an object: `{}` when the file held something else. */
export function readParsedConfig(parsed: unknown): Record<string, unknown> {
  return object.parse(parsed);
}
