import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeLlmRequest } from '../../testing/fake-llm/index.js';
import { type ProductFixture, startProductFixture } from '../../testing/product-fixture.js';

// The tool catalogue in the composed product, against the fake LLM: the cron tools are not in
// the prompt until the model finds them with tools_search and loads them with tools_load; then
// they stay, appended after the core, for the rest of the session.

let product: ProductFixture;

beforeAll(async () => {
  product = await startProductFixture();
});
afterAll(async () => {
  await product?.close();
});

/** Tool names in the order the request sent them (OpenAI chat or responses shape). */
function toolNames(request: FakeLlmRequest): string[] {
  const tools = (request.body.tools ?? []) as { name?: string; function?: { name: string } }[];
  return tools.map((tool) => tool.function?.name ?? tool.name ?? '?');
}

/** The system message (chat completions: the first message). */
const systemOf = (request: FakeLlmRequest) => (request.body.messages as { role: string; content: string }[])[0]!;

describe('tools loaded on demand', () => {
  it('finds, loads and calls a cron tool in one turn; the tool stays loaded, after the core', async () => {
    const before = product.llm.requests.length;
    product.llm.script([
      { type: 'tool_calls', calls: [{ name: 'tools_search', input: { query: 'scheduled jobs' } }] },
      { type: 'tool_calls', calls: [{ name: 'tools_load', input: { names: ['cron_list'] } }] },
      { type: 'tool_calls', calls: [{ name: 'cron_list', input: {} }] },
      { type: 'text', text: 'You have no scheduled jobs.' },
    ]);
    const end = await product.turn('load-1', 'what jobs are scheduled?');
    expect(end).toMatchObject({ state: 'final' });
    const calls = product.llm.requests.slice(before);
    expect(calls).toHaveLength(4);
    const [first, second, third, fourth] = calls.map(toolNames);

    // The cron tools are out of the core; the catalogue's two tools are in it.
    expect(first).toEqual(expect.arrayContaining(['exec', 'memory_search', 'tools_search', 'tools_load']));
    expect(first!.some((name) => name.startsWith('cron_'))).toBe(false);
    // The search answered with the cron tools' names and one-line descriptions.
    expect(JSON.stringify(calls[1]!.body)).toContain('cron_list: List scheduled jobs');
    expect(second).toEqual(first);
    // Loaded: from the next step on, its schema is sent, after the unchanged core.
    expect(third).toEqual([...first!, 'cron_list']);
    expect(fourth).toEqual(third);
    expect(JSON.stringify(calls[3]!.body)).toContain('No scheduled jobs.');

    // The next turn starts with exactly the tools the last call ended with: the prefix is stable.
    product.llm.script([{ type: 'text', text: 'Still none.' }]);
    await product.turn('load-2', 'and now?');
    const next = product.llm.requests.at(-1)!;
    expect(toolNames(next)).toEqual(third);
    expect(systemOf(next)).toEqual(systemOf(calls[0]!));
    expect(systemOf(next).role).toBe('system');
  });

  it('a tool the model calls by name without loading it still runs; an unknown name to load is a clear error', async () => {
    const before = product.llm.requests.length;
    product.llm.script([
      { type: 'tool_calls', calls: [{ name: 'tools_load', input: { names: ['cron_lst'] } }] },
      { type: 'tool_calls', calls: [{ name: 'cron_list', input: {} }] },
      { type: 'text', text: 'done' },
    ]);
    await product.turn('load-3', 'list jobs', 'agent:main:other');
    const calls = product.llm.requests.slice(before);
    expect(JSON.stringify(calls[1]!.body)).toContain('No such tool: cron_lst (did you mean cron_list?)');
    // A failed load loads nothing.
    expect(toolNames(calls[1]!).some((name) => name.startsWith('cron_'))).toBe(false);
    expect(JSON.stringify(calls[2]!.body)).toContain('No scheduled jobs.');
  });
});
