import { z } from 'zod';

// Frames are closed objects: unknown keys are rejected (PROTOCOL.md §1).

export const wireErrorSchema = z
  .object({
    code: z.string(),
    message: z.string(),
    details: z.unknown().optional(),
    retryable: z.boolean().optional(),
    retryAfterMs: z.number().optional(),
  })
  .strict();

export const requestFrameSchema = z
  .object({
    type: z.literal('req'),
    id: z.string().min(1),
    method: z.string().min(1),
    params: z.unknown().optional(),
    traceparent: z.string().optional(),
  })
  .strict();

export const responseFrameSchema = z
  .object({
    type: z.literal('res'),
    id: z.string(),
    ok: z.boolean(),
    payload: z.unknown().optional(),
    error: wireErrorSchema.optional(),
  })
  .strict();

export const stateVersionSchema = z.object({ presence: z.number(), health: z.number() }).strict();

export const eventFrameSchema = z
  .object({
    type: z.literal('event'),
    event: z.string(),
    payload: z.unknown().optional(),
    seq: z.number().int().optional(),
    stateVersion: stateVersionSchema.optional(),
  })
  .strict();

export type WireErrorShape = z.infer<typeof wireErrorSchema>;
export type RequestFrame = z.infer<typeof requestFrameSchema>;
export type ResponseFrame = z.infer<typeof responseFrameSchema>;
export type EventFrame = z.infer<typeof eventFrameSchema>;
export type StateVersion = z.infer<typeof stateVersionSchema>;

/** What a client sends. */
export type ClientFrame = RequestFrame;
/** What the gateway sends. */
export type ServerFrame = ResponseFrame | EventFrame;

export const serverFrameSchema = z.discriminatedUnion('type', [responseFrameSchema, eventFrameSchema]);

export type ParsedClientFrame =
  | { kind: 'request'; frame: RequestFrame }
  | { kind: 'not-json' }
  | { kind: 'invalid'; reason: string };

/** Parses text off the wire; never throws. */
export function parseClientFrame(text: string): ParsedClientFrame {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { kind: 'not-json' };
  }
  return parseClientFrameValue(value);
}

/** Validates an already-decoded value (the IPC transport hands over structured clones, not text). */
export function parseClientFrameValue(value: unknown): ParsedClientFrame {
  const parsed = requestFrameSchema.safeParse(value);
  if (parsed.success) return { kind: 'request', frame: parsed.data };
  return { kind: 'invalid', reason: formatIssues(parsed.error.issues) };
}

type Issue = z.core.$ZodIssue;

/**
 * Formats schema problems the way OpenClaw's validator words them, so its clients
 * (and people) read the same thing: "must have required property 'x'" or "at /a/b: …".
 */
export function formatIssues(issues: readonly Issue[]): string {
  const first = issues[0];
  if (!first) return 'invalid value';
  const path = first.path.map(String);
  const missing = first.code === 'invalid_type' && /received undefined$/.test(first.message);
  if (missing && path.length > 0) {
    const property = path[path.length - 1];
    const parent = path.slice(0, -1);
    const where = parent.length > 0 ? `at /${parent.join('/')}: ` : '';
    return `${where}must have required property '${property}'`;
  }
  if (first.code === 'unrecognized_keys') {
    const where = path.length > 0 ? `at /${path.join('/')}: ` : '';
    return `${where}must NOT have additional properties (${first.keys.join(', ')})`;
  }
  const where = path.length > 0 ? `at /${path.join('/')}: ` : '';
  return `${where}${first.message}`;
}
