import { streamText, tool } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { builtinProviders } from '../../providers/builtin-providers.js';
import type { SdkLanguageModel } from '../../providers/provider-registry.js';
import { type FakeBaseUrlKind, type FakeLlmServer, startFakeLlmServer } from './index.js';

let server: FakeLlmServer;
beforeAll(async () => {
  server = await startFakeLlmServer();
});
afterAll(() => server.close());

const cases: { kind: string; base: FakeBaseUrlKind; model: string }[] = [
  { kind: 'openai', base: 'openai', model: 'gpt-4o' },
  { kind: 'openai-responses', base: 'openai', model: 'gpt-5' },
  { kind: 'anthropic', base: 'anthropic', model: 'claude-sonnet-4-5' },
  { kind: 'google', base: 'google', model: 'gemini-2.5-flash' },
  { kind: 'ollama', base: 'ollama', model: 'llama3.2' },
  { kind: 'azure', base: 'azure', model: 'my-deployment' },
  { kind: 'openai-compatible', base: 'openai-compatible', model: 'deepseek-chat' },
];

function modelFor(kind: string, base: FakeBaseUrlKind, model: string, key = 'sk-test-key1'): SdkLanguageModel {
  const service = builtinProviders.find((s) => s.kind === kind);
  if (!service) throw new Error(`no provider ${kind}`);
  return service.createModel(model, {
    providerId: kind,
    baseURL: server.baseUrlFor(base),
    credential: { kind: 'api_key', value: key },
  });
}

async function collect(model: SdkLanguageModel, withTools = false) {
  const result = streamText({
    model,
    prompt: 'say hello',
    maxRetries: 0,
    tools: withTools
      ? { lookup: tool({ description: 'look up', inputSchema: z.object({ q: z.string() }) }) }
      : undefined,
    onError: () => {},
  });
  const parts: { type: string; [key: string]: unknown }[] = [];
  for await (const part of result.fullStream) parts.push(part as never);
  return parts;
}

describe('fake LLM server through the real AI SDK', () => {
  for (const { kind, base, model } of cases) {
    it(`${kind}: streams a scripted text reply in chunks with usage`, async () => {
      server.script({ type: 'text', text: 'Hello from the fake model!', chunkSize: 5, cachedTokens: 3 }, { model });
      const parts = await collect(modelFor(kind, base, model));
      const deltas = parts.filter((p) => p.type === 'text-delta').map((p) => p.text);
      expect(deltas.join('')).toBe('Hello from the fake model!');
      expect(deltas.length).toBeGreaterThan(1);
      const finish = parts.find((p) => p.type === 'finish') as { totalUsage: { inputTokens?: number } } | undefined;
      const recorded = server.requests.at(-1);
      expect(recorded?.model).toBe(model);
      expect(recorded?.promptTokens).toBeGreaterThan(0);
      expect(finish?.totalUsage.inputTokens).toBe(recorded?.promptTokens);
      expect(JSON.stringify(recorded?.headers)).not.toContain('sk-test-key1');
    });

    it(`${kind}: streams parallel tool calls`, async () => {
      server.script(
        {
          type: 'tool_calls',
          calls: [
            { name: 'lookup', input: { q: 'one' } },
            { name: 'lookup', input: { q: 'two' } },
          ],
        },
        { model },
      );
      const parts = await collect(modelFor(kind, base, model), true);
      const calls = parts.filter((p) => p.type === 'tool-call').map((p) => p.input);
      expect(calls).toEqual([{ q: 'one' }, { q: 'two' }]);
    });
  }

  it('echoes the last user message by default and records the key tail only', async () => {
    const parts = await collect(modelFor('openai', 'openai', 'gpt-4o', 'sk-abcd9876'));
    expect(
      parts
        .filter((p) => p.type === 'text-delta')
        .map((p) => p.text)
        .join(''),
    ).toBe('echo: say hello');
    expect(server.requests.at(-1)?.keyTail).toBe('9876');
  });

  it('serves scripted replies to the matching API key first', async () => {
    server.script({ type: 'text', text: 'for B' }, { apiKey: 'key-B' });
    const a = await collect(modelFor('openai', 'openai', 'gpt-4o', 'key-A'));
    const b = await collect(modelFor('openai', 'openai', 'gpt-4o', 'key-B'));
    expect(
      a
        .filter((p) => p.type === 'text-delta')
        .map((p) => p.text)
        .join(''),
    ).toBe('echo: say hello');
    expect(
      b
        .filter((p) => p.type === 'text-delta')
        .map((p) => p.text)
        .join(''),
    ).toBe('for B');
  });

  it('lists Ollama models on GET /api/tags', async () => {
    const response = await fetch(`${server.baseUrlFor('ollama-host')}/api/tags`);
    expect(await response.json()).toMatchObject({ models: [{ name: 'llama3.2:latest' }] });
  });

  it('answers unknown routes with a 404 naming the route', async () => {
    const response = await fetch(`${server.url}/nope`, { method: 'POST', body: '{}' });
    expect(response.status).toBe(404);
    expect(await response.text()).toContain('POST /nope');
  });
});
