import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type Disposable, silentLogger, systemClock } from '../../base/index.js';
import {
  type AuthProfileManager,
  createAuthProfileManager,
  createModelCatalog,
  createModelFactory,
  createProviderRegistry,
  FailoverError,
  parseRuntimeConfig,
  type RuntimeConfig,
  registerBuiltinProviders,
} from '../../providers/index.js';
import { type FakeLlmServer, startFakeLlmServer } from '../../testing/fake-llm/index.js';
import { fileSecretStore } from '../../testing/fake-llm/runtime-fixture.js';
import type { AgentMessage } from '../messages.js';
import { runTurn } from './run-turn.js';
import type { RunnerDeps, RunnerEvent, TurnRequest } from './runner-types.js';

let server: FakeLlmServer;
let stateDir: string;
let auth: AuthProfileManager;
let deps: RunnerDeps;
let config: RuntimeConfig;
let ids = 0;
let registrations: Disposable | undefined;

beforeAll(async () => {
  server = await startFakeLlmServer();
});
afterAll(() => server.close());
beforeEach(async () => {
  stateDir = await mkdtemp(join(tmpdir(), 'hearth-runner-'));
  config = parseRuntimeConfig({
    providers: {
      openai: {
        kind: 'openai',
        baseURL: server.baseUrlFor('openai'),
        models: { tiny: { contextWindow: 1000, maxOutputTokens: 100 } },
      },
      local: { kind: 'ollama', baseURL: server.baseUrlFor('ollama') },
    },
    model: { primary: 'openai/gpt-4o' },
  });
  const registry = createProviderRegistry();
  registrations = registerBuiltinProviders(registry);
  auth = await createAuthProfileManager({
    stateDir,
    secrets: fileSecretStore(stateDir),
    clock: systemClock,
    log: silentLogger,
    config: () => config.auth,
    refreshers: { openai: async () => ({ access: 'sk-fresh-FRSH', refresh: 'r2', expires: Date.now() + 3_600_000 }) },
  });
  deps = {
    models: createModelFactory({ registry, providers: () => config.providers }),
    catalog: createModelCatalog({ registry, providers: () => config.providers, log: silentLogger }),
    auth,
    clock: systemClock,
    log: silentLogger,
    newId: () => `id-${++ids}`,
    maxWaitMs: 0,
  };
});
afterEach(async () => {
  registrations?.dispose();
  server.reset();
  await auth.flush();
  await rm(stateDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
});

/** A compact hook that records each call and reports progress. */
const recording =
  (log: string[], prefix = '') =>
  async (reason: string) => {
    log.push(`${prefix}${reason}`);
    return { status: 'compacted' };
  };

const user = (text: string): AgentMessage => ({ kind: 'user', id: `u-${++ids}`, ts: 1, text });

function request(overrides: Partial<TurnRequest> = {}): TurnRequest & { events: RunnerEvent[] } {
  const events: RunnerEvent[] = [];
  return {
    models: ['openai/gpt-4o'],
    history: [user('hi')],
    tools: [],
    toolContext: { agentId: 'main', sessionKey: 'agent:main:main', workspaceDir: stateDir, log: silentLogger },
    signal: new AbortController().signal,
    onEvent: (event) => events.push(event),
    events,
    ...overrides,
  };
}

describe('runner: context overflow', () => {
  it('compacts and retries when the provider reports overflow', async () => {
    await auth.set({ id: 'a', provider: 'openai', type: 'api_key', secret: 'sk-a' });
    server.script([
      { type: 'error', error: 'context_length' },
      { type: 'text', text: 'fits now' },
    ]);
    const reasons: string[] = [];
    const outcome = await runTurn(deps, request({ hooks: { compact: recording(reasons) } }));
    expect(outcome.status).toBe('ok');
    expect(reasons).toEqual(['overflow']);
  });

  it('compacts at most 3 times, truncates tool results once, then fails clearly', async () => {
    await auth.set({ id: 'a', provider: 'openai', type: 'api_key', secret: 'sk-a' });
    server.setDefault({ type: 'error', error: 'context_length' });
    const calls: string[] = [];
    const outcome = await runTurn(
      deps,
      request({
        hooks: {
          compact: recording(calls, 'compact:'),
          truncateToolResults: async () => {
            calls.push('truncate');
            return 1;
          },
        },
      }),
    );
    server.setDefault((r) => ({ type: 'text', text: `echo: ${r.lastUserText}` }));
    expect(calls).toEqual(['compact:overflow', 'compact:overflow', 'compact:overflow', 'truncate']);
    expect(outcome.status).toBe('error');
    expect(outcome.error).toBeInstanceOf(FailoverError);
    expect(outcome.error?.message).toMatch(/no longer fits openai\/gpt-4o's context window/);
  });
});

describe('runner: timeouts', () => {
  it('compacts and retries a timed-out attempt when ≥ 65% of the context is used', async () => {
    await auth.set({ id: 'a', provider: 'openai', type: 'api_key', secret: 'sk-a' });
    server.script([
      { type: 'text', text: 'late', firstTokenDelayMs: 20_000 },
      { type: 'text', text: 'quick' },
    ]);
    const reasons: string[] = [];
    const outcome = await runTurn(
      deps,
      request({
        timeoutMs: 1_000,
        hooks: { contextUsage: () => 0.7, compact: recording(reasons) },
      }),
    );
    expect(reasons).toEqual(['timeout']);
    expect(outcome.status).toBe('ok');
    expect(outcome.messages.at(-1)).toMatchObject({ kind: 'assistant', text: 'quick' });
  });

  it('does not compact below 65%: the timeout rotates to the next profile', async () => {
    await auth.set({ id: 'a', provider: 'openai', type: 'api_key', secret: 'sk-a' });
    await auth.set({ id: 'b', provider: 'openai', type: 'api_key', secret: 'sk-b' });
    server.script({ type: 'text', text: 'late', firstTokenDelayMs: 20_000 }, { apiKey: 'sk-a' });
    let compacted = false;
    const outcome = await runTurn(
      deps,
      request({
        timeoutMs: 1_000,
        hooks: {
          contextUsage: () => 0.2,
          compact: async () => {
            compacted = true;
            return { status: 'compacted' };
          },
        },
      }),
    );
    expect(compacted).toBe(false);
    expect(outcome).toMatchObject({ status: 'ok', profileId: 'b' });
  });
});

describe('runner: a stream that broke off', () => {
  it('keeps the profile usable, so the next turn (a Retry) answers at once', async () => {
    await auth.set({ id: 'a', provider: 'openai', type: 'api_key', secret: 'sk-a' });
    server.script([
      { type: 'die_midway', text: 'The capital of Peru is a city on the Pacific coast, Lima.' },
      { type: 'text', text: 'Lima.' },
    ]);
    const broken = await runTurn(deps, request());
    expect(broken.status).toBe('error');
    expect(auth.stats('a')?.cooldownUntil).toBeUndefined();

    const retried = await runTurn(deps, request());
    expect(retried).toMatchObject({ status: 'ok', profileId: 'a' });
    expect(retried.messages.at(-1)).toMatchObject({ kind: 'assistant', text: 'Lima.' });
    expect(server.requests).toHaveLength(2);
  });

  it('a new turn waiting for a cooling profile says why it cools down, not a guess', async () => {
    await auth.set({ id: 'a', provider: 'openai', type: 'api_key', secret: 'sk-a' });
    await auth.markFailure('a', 'overloaded');
    const stop = new AbortController();
    const retries: RunnerEvent[] = [];
    const outcome = await runTurn(
      { ...deps, maxWaitMs: 10 * 60_000 },
      request({
        signal: stop.signal,
        onEvent: (event) => {
          if (event.type !== 'retry') return;
          retries.push(event);
          stop.abort();
        },
      }),
    );
    expect(retries).toEqual([expect.objectContaining({ reason: 'overloaded', waitMs: expect.any(Number) })]);
    expect(outcome.status).toBe('aborted');
    expect(server.requests).toHaveLength(0);
  });
});

describe('runner: auth', () => {
  it('refreshes an oauth profile after a 401 and retries it', async () => {
    await auth.set({
      id: 'o',
      provider: 'openai',
      type: 'oauth',
      secret: JSON.stringify({ access: 'sk-old-OLD1', refresh: 'r1', expires: Date.now() + 3_600_000 }),
    });
    server.script({ type: 'error', error: 'auth' }, { apiKey: 'sk-old-OLD1' });
    const outcome = await runTurn(deps, request());
    expect(outcome.status).toBe('ok');
    expect(server.requests.map((r) => r.keyTail)).toEqual(['OLD1', 'FRSH']);
  });

  it('needs no profile for a local provider, and says so when a hosted one has none', async () => {
    const local = await runTurn(deps, request({ models: ['local/llama3.2'] }));
    expect(local.status).toBe('ok');
    const hosted = await runTurn(deps, request());
    expect(hosted.error?.message).toMatch(/no auth profile for provider "openai"/);
  });
});

describe('runner: nothing usable', () => {
  it('explains why each profile is out when none can be tried', async () => {
    await auth.set({ id: 'a', provider: 'openai', type: 'api_key', secret: 'sk-a' });
    await auth.set({ id: 'b', provider: 'openai', type: 'api_key', secret: 'sk-b' });
    await auth.markFailure('a', 'billing');
    await auth.markFailure('b', 'rate_limit', 90_000);
    const outcome = await runTurn(deps, request());
    expect(outcome.error).toBeInstanceOf(FailoverError);
    expect((outcome.error as FailoverError).reason).toBe('billing');
    expect(outcome.error?.message).toMatch(
      /"a" disabled \(billing\) until .*; "b" cooling down \(rate_limit\) for 90 s/,
    );
    expect(server.requests).toHaveLength(0);
  });
});

describe('runner: loop hooks and switching', () => {
  it('passes a budget to transformContext and applies afterToolCall to results', async () => {
    await auth.set({ id: 'a', provider: 'openai', type: 'api_key', secret: 'sk-a' });
    server.script([
      { type: 'tool_calls', calls: [{ name: 'big', input: {} }] },
      { type: 'text', text: 'ok' },
    ]);
    const budgets: number[] = [];
    const outcome = await runTurn(
      deps,
      request({
        models: ['openai/tiny'],
        tools: [
          {
            name: 'big',
            description: 'big output',
            inputSchema: z.object({}),
            execute: async () => ({ output: 'x'.repeat(5000) }),
          },
        ],
        hooks: {
          transformContext: async (messages, budget) => {
            budgets.push(budget.contextWindow);
            return [...messages];
          },
          afterToolCall: (_call, result) => ({
            ...result,
            output: result.output.slice(0, 10),
            truncated: { originalChars: 5000, keptChars: 10 },
          }),
        },
      }),
    );
    expect(outcome.status).toBe('ok');
    expect(budgets).toEqual([1000, 1000]);
    expect(outcome.messages.find((m) => m.kind === 'tool_result')).toMatchObject({
      output: 'xxxxxxxxxx',
      truncated: { keptChars: 10 },
    });
  });

  it('reports invalid tool input and unknown tools to the model instead of failing', async () => {
    await auth.set({ id: 'a', provider: 'openai', type: 'api_key', secret: 'sk-a' });
    server.script([
      {
        type: 'tool_calls',
        calls: [
          { name: 'typed', input: { n: 'NaN' } },
          { name: 'ghost', input: {} },
        ],
      },
      { type: 'text', text: 'sorry' },
    ]);
    const outcome = await runTurn(
      deps,
      request({
        tools: [
          {
            name: 'typed',
            description: 't',
            inputSchema: z.object({ n: z.number() }),
            execute: async () => ({ output: 'ok' }),
          },
        ],
      }),
    );
    const results = outcome.messages.filter((m) => m.kind === 'tool_result');
    expect(results.map((r) => (r as { output: string }).output)).toEqual([
      expect.stringMatching(/invalid input for typed: n:/),
      'unknown tool "ghost"',
    ]);
  });

  it('switches model live before anything visible happened', async () => {
    const outcome = await runTurn(deps, request({ liveModel: () => 'local/llama3.2' }));
    expect(outcome).toMatchObject({ status: 'ok', model: 'local/llama3.2' });
  });
});

describe('runner: a tool round trip on every streaming provider', () => {
  const providers = [
    { id: 'oa', kind: 'openai-responses', base: 'openai', model: 'gpt-5' },
    { id: 'an', kind: 'anthropic', base: 'anthropic', model: 'claude-sonnet-4-5' },
    { id: 'go', kind: 'google', base: 'google', model: 'gemini-2.5-flash' },
    { id: 'ol', kind: 'ollama', base: 'ollama', model: 'llama3.2' },
    { id: 'az', kind: 'azure', base: 'azure', model: 'deployment' },
    { id: 'ds', kind: 'openai-compatible', base: 'openai-compatible', model: 'deepseek-chat' },
  ] as const;
  for (const p of providers) {
    it(`${p.kind}: tool call, result sent back, final answer`, async () => {
      config = parseRuntimeConfig({
        providers: { [p.id]: { kind: p.kind, baseURL: server.baseUrlFor(p.base) } },
        model: { primary: `${p.id}/${p.model}` },
      });
      await auth.set({ id: `${p.id}-key`, provider: p.id, type: 'api_key', secret: 'sk-x' });
      server.script(
        [
          { type: 'tool_calls', calls: [{ name: 'add', input: { a: 2, b: 2 } }] },
          { type: 'text', text: 'It is 4.' },
        ],
        { model: p.model },
      );
      const outcome = await runTurn(
        deps,
        request({
          models: [`${p.id}/${p.model}`],
          tools: [
            {
              name: 'add',
              description: 'add two numbers',
              inputSchema: z.object({ a: z.number(), b: z.number() }),
              execute: async (input: { a: number; b: number }) => ({ output: String(input.a + input.b) }),
            } as never,
          ],
        }),
      );
      expect(outcome.status).toBe('ok');
      expect(outcome.messages.map((m) => m.kind)).toEqual(['tool_call', 'tool_result', 'assistant']);
      expect(server.requests).toHaveLength(2);
      expect(server.requests.map((r) => r.toolResultCount)).toEqual([0, 1]);
      expect(server.requests.map((r) => r.lastUserText)).toEqual(['hi', 'hi']);
      expect(outcome.messages.at(-1)).toMatchObject({ text: 'It is 4.' });
    });
  }
});
