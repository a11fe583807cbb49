import { streamText } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type FakeBaseUrlKind,
  type FakeErrorKind,
  type FakeLlmServer,
  type FakeReply,
  startFakeLlmServer,
} from '../testing/fake-llm/index.js';
import { builtinProviders } from './builtin-providers.js';
import { classifyFailure } from './classify-failure.js';
import type { FailoverReason } from './failover-error.js';

let server: FakeLlmServer;
beforeAll(async () => {
  server = await startFakeLlmServer();
});
afterAll(() => server.close());

const providers: { kind: string; base: FakeBaseUrlKind; model: string }[] = [
  { kind: 'openai', base: 'openai', model: 'gpt-4o' },
  { kind: 'openai-responses', base: 'openai', model: 'gpt-5' },
  { kind: 'anthropic', base: 'anthropic', model: 'claude-sonnet-4-5' },
  { kind: 'google', base: 'google', model: 'gemini-2.5-flash' },
  { kind: 'ollama', base: 'ollama', model: 'llama3.2' },
];

const expected: Record<FakeErrorKind, FailoverReason> = {
  rate_limit: 'rate_limit',
  auth: 'auth',
  billing: 'billing',
  forbidden: 'auth_permanent',
  model_not_found: 'model_not_found',
  overloaded: 'overloaded',
  overloaded_529: 'overloaded',
  context_length: 'context_overflow',
  server_error: 'server_error',
};

/** Runs one streamed call against the fake server and returns the first error the SDK surfaced. */
async function firstError(kind: string, base: FakeBaseUrlKind, model: string, reply: FakeReply): Promise<unknown> {
  server.script(reply, { model });
  const service = builtinProviders.find((s) => s.kind === kind);
  const languageModel = service!.createModel(model, {
    providerId: kind,
    baseURL: server.baseUrlFor(base),
    credential: { kind: 'api_key', value: 'sk-test' },
  });
  const result = streamText({ model: languageModel, prompt: 'hi', maxRetries: 0, onError: () => {} });
  try {
    for await (const part of result.fullStream) {
      if (part.type === 'error') return part.error;
    }
    await result.text;
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('classifyFailure against real provider error bodies through the real SDK', () => {
  for (const { kind, base, model } of providers) {
    for (const [errorKind, reason] of Object.entries(expected) as [FakeErrorKind, FailoverReason][]) {
      it(`${kind} ${errorKind} → ${reason}`, async () => {
        const error = await firstError(kind, base, model, { type: 'error', error: errorKind, retryAfterSeconds: 7 });
        const classified = classifyFailure(error);
        expect(classified.reason).toBe(reason);
        expect(classified.retryAfterMs).toBe(7000);
      });
    }

    it(`${kind}: a stream cut midway is a timeout-class failure`, async () => {
      const error = await firstError(kind, base, model, { type: 'die_midway', text: 'a long answer that never ends' });
      expect(error).toBeDefined();
      expect(classifyFailure(error).reason).toBe('timeout');
    });

    // The Ollama adapter skips lines it cannot parse, so garbage there surfaces as an empty reply (the loop's check).
    it.skipIf(kind === 'ollama')(`${kind}: garbage from the provider is a server_error`, async () => {
      const error = await firstError(kind, base, model, { type: 'garbage' });
      expect(error).toBeDefined();
      expect(classifyFailure(error).reason).toBe('server_error');
    });
  }
});

describe('classifyFailure on errors without a status', () => {
  it('reads errno codes', () => {
    expect(classifyFailure(Object.assign(new Error('connect'), { code: 'ETIMEDOUT' })).reason).toBe('timeout');
    expect(classifyFailure(Object.assign(new Error('reset'), { code: 'ECONNRESET' })).reason).toBe('timeout');
    expect(classifyFailure(Object.assign(new Error('refused'), { code: 'ECONNREFUSED' })).reason).toBe('server_error');
  });

  it('follows the cause chain', () => {
    const inner = Object.assign(new Error('throttled'), { name: 'ThrottlingException' });
    const outer = new Error('stream failed', { cause: new Error('wrapped', { cause: inner }) });
    expect(classifyFailure(outer).reason).toBe('rate_limit');
  });

  it('reads Bedrock-style $metadata status and exception names', () => {
    const error = Object.assign(new Error('Too many tokens'), {
      name: 'ValidationException',
      $metadata: { httpStatusCode: 400 },
    });
    expect(classifyFailure(error).reason).toBe('context_overflow');
  });

  it('reads provider codes in a message without a status', () => {
    expect(classifyFailure(new Error('RESOURCE_EXHAUSTED: quota')).reason).toBe('rate_limit');
    expect(classifyFailure({ type: 'overloaded_error', message: 'Overloaded' }).reason).toBe('overloaded');
  });

  it('falls back to timeout heuristics, then unknown', () => {
    expect(classifyFailure(new Error('request timed out after 30s')).reason).toBe('timeout');
    expect(classifyFailure(new Error('something odd')).reason).toBe('unknown');
    expect(classifyFailure(undefined).reason).toBe('unknown');
  });

  it('turns an HTTP-date retry-after into ms', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    const error = { statusCode: 429, responseHeaders: { 'retry-after': 'Thu, 01 Jan 2026 00:00:10 GMT' } };
    expect(classifyFailure(error, now).retryAfterMs).toBe(10_000);
  });
});
