import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionsSearchResult } from '../../protocol/methods/sessions.js';
import { type ProductFixture, startProductFixture } from '../../testing/product-fixture.js';

// Session search in the composed product: the chat list's `sessions.search` finds what was said
// (not only titles), Chinese included, and the model finds it too with sessions_search.

let product: ProductFixture;

beforeAll(async () => {
  product = await startProductFixture();
  product.llm.script([{ type: 'text', text: 'Noted: the dentist is on Tuesday at 9.' }]);
  await product.turn('s-1', 'My dentist appointment moved to Tuesday', 'agent:main:health');
  product.llm.script([{ type: 'text', text: '好的，周五下午三点开会。' }]);
  await product.turn('s-2', '提醒我周五和设计团队开会', 'agent:main:work');
});
afterAll(async () => {
  await product?.close();
});

describe('sessions.search', () => {
  it('finds sessions by what was said, with a snippet and the message to open', async () => {
    const answer = await product.socket.request('sessions.search', { query: 'dentist tuesday' });
    expect(answer.error).toBeUndefined();
    const { results } = answer.payload as SessionsSearchResult;
    expect(results[0]).toMatchObject({ key: 'agent:main:health', agentId: 'main', matches: 2 });
    expect(results[0]!.snippet).toMatch(/dentist/i);
    expect(results[0]!.messageId).toEqual(expect.any(String));

    const chinese = (await product.socket.request('sessions.search', { query: '设计团队' }))
      .payload as SessionsSearchResult;
    expect(chinese.results.map((row) => row.key)).toEqual(['agent:main:work']);
    expect(chinese.results[0]!.snippet).toContain('设计团队');
  });

  it('an empty query is a clear error', async () => {
    const answer = await product.socket.request('sessions.search', { query: '  ' });
    expect(answer.error?.message).toContain('query is empty');
  });

  it('the model loads sessions_search and reads what it found', async () => {
    const before = product.llm.requests.length;
    product.llm.script([
      { type: 'tool_calls', calls: [{ name: 'tools_load', input: { names: ['sessions_search'] } }] },
      { type: 'tool_calls', calls: [{ name: 'sessions_search', input: { query: 'dentist' } }] },
      { type: 'text', text: 'Tuesday.' },
    ]);
    await product.turn('s-3', 'when was my dentist again?');
    const last = JSON.stringify(product.llm.requests.slice(before).at(-1)!.body);
    expect(last).toContain('agent:main:health');
    expect(last).toContain('My dentist appointment moved to Tuesday');
  });
});
