import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserTestSite, startBrowserTestSite } from '../../testing/browser-test-site.js';
import { chatTurn } from '../../testing/chat-turn.js';
import type { FakeLlmRequest } from '../../testing/fake-llm/index.js';
import { type ProductFixture, startProductFixture } from '../../testing/product-fixture.js';
import { systemChromiumPaths } from './browser-executable.js';

// The browser tool in the composed product, driven by a scripted model: it finds and loads the
// tool, fills in the order form of a loopback site in a real Chromium, sends it, reads the
// result and tells the person. The refs are those Playwright gives this page (e5 the name
// field, e7 the colour, e8 the button); the test checks the model was shown them.

const chromium = systemChromiumPaths.find((path) => existsSync(path));
if (!chromium) console.warn(`browser-in-host.test: skipped, no Chromium at ${systemChromiumPaths.join(', ')}`);

function toolNames(request: FakeLlmRequest): string[] {
  const tools = (request.body.tools ?? []) as { name?: string; function?: { name: string } }[];
  return tools.map((tool) => tool.function?.name ?? tool.name ?? '?');
}

describe.skipIf(!chromium)('the browser tool in the product', () => {
  let site: BrowserTestSite;
  let product: ProductFixture;
  beforeAll(async () => {
    site = await startBrowserTestSite();
    // The site is on loopback, which the browser refuses unless allowed: allow exactly it.
    product = await startProductFixture({ config: { tools: { browser: { allowHosts: ['127.0.0.1'] } } } });
  }, 90_000);
  afterAll(async () => {
    await product?.close();
    await site?.close();
  });

  it('loads the browser on demand, fills in a form, sends it and reports the result', async () => {
    const before = product.llm.requests.length;
    product.llm.script([
      { type: 'tool_calls', calls: [{ name: 'tools_search', input: { query: 'browser web page form' } }] },
      { type: 'tool_calls', calls: [{ name: 'tools_load', input: { names: ['browser'] } }] },
      { type: 'tool_calls', calls: [{ name: 'browser', input: { action: 'open', url: `${site.url}/` } }] },
      { type: 'tool_calls', calls: [{ name: 'browser', input: { action: 'type', ref: 'e5', text: 'Ada' } }] },
      { type: 'tool_calls', calls: [{ name: 'browser', input: { action: 'select', ref: 'e7', text: 'Green' } }] },
      { type: 'tool_calls', calls: [{ name: 'browser', input: { action: 'click', ref: 'e8' } }] },
      { type: 'tool_calls', calls: [{ name: 'browser', input: { action: 'extract' } }] },
      { type: 'tool_calls', calls: [{ name: 'browser', input: { action: 'close' } }] },
      { type: 'text', text: 'Done: the shop confirmed "Order for Ada: one green mug."' },
    ]);
    const mark = product.socket.frames.length;
    // The turn starts Chromium: more time than a plain turn's 30 s on a busy machine.
    const turn = chatTurn(
      product.socket,
      { key: 'browser-1', message: 'order a green mug for Ada on the shop page' },
      90_000,
    );
    // Typing on the shop asks first; the person allows it for this chat, so the choice and the
    // click on the same site that follow do not ask again.
    const asked = await product.socket.next(
      (f) => f.event === 'exec.approval.requested' && product.socket.frames.indexOf(f) >= mark,
      90_000,
    );
    const request = asked.payload as { id: string; allowSession?: boolean };
    expect(JSON.stringify(request)).toContain('browser type on 127.0.0.1');
    expect(JSON.stringify(request)).toContain('type \\"Ada\\" into e5');
    expect(request.allowSession).toBe(true);
    const resolved = await product.socket.request('exec.approval.resolve', {
      id: request.id,
      decision: 'allow-session',
    });
    expect(resolved.error).toBeUndefined();
    const end = await turn;
    expect(end).toMatchObject({ state: 'final' });
    expect(product.socket.frames.slice(mark).filter((f) => f.event === 'exec.approval.requested')).toHaveLength(1);
    // What the person sees.
    expect(JSON.stringify(end.message)).toContain('Done: the shop confirmed \\"Order for Ada: one green mug.\\"');

    const calls = product.llm.requests.slice(before);
    expect(calls).toHaveLength(9);
    const body = (i: number) => JSON.stringify(calls[i]!.body);
    // Not in the core: the default prompt does not pay for its schema.
    expect(toolNames(calls[0]!)).not.toContain('browser');
    expect(body(1)).toContain('browser: Drive a web browser');
    expect(toolNames(calls[2]!)).toEqual([...toolNames(calls[0]!), 'browser']);
    // The model was shown the refs it then used.
    expect(body(3)).toContain('textbox \\"Your name\\" [ref=e5]');
    expect(body(3)).toContain('combobox \\"Colour\\" [ref=e7]');
    expect(body(3)).toContain('button \\"Send order\\" [ref=e8]');
    expect(body(5)).toContain('Selected green in e7.');
    expect(body(6)).toContain('Tab t1: \\"Order received\\"');
    expect(body(7)).toContain('Order for Ada: one green mug.');
    expect(body(8)).toContain('Closed tab t1. The browser is closed.');
    // Its own profile, under the state folder, never the person's.
    expect(existsSync(join(product.home, 'state', 'browser', 'main', 'profile'))).toBe(true);
  }, 120_000);

  it('a click the person denies does nothing on the page, and the model is told why', async () => {
    const before = product.llm.requests.length;
    product.llm.script([
      { type: 'tool_calls', calls: [{ name: 'browser', input: { action: 'open', url: `${site.url}/` } }] },
      { type: 'tool_calls', calls: [{ name: 'browser', input: { action: 'click', ref: 'e8' } }] },
      { type: 'tool_calls', calls: [{ name: 'browser', input: { action: 'close' } }] },
      { type: 'text', text: 'I did not send the order.' },
    ]);
    const mark = product.socket.frames.length;
    // A new chat: the first one's "for this chat" does not cover it.
    const turn = chatTurn(
      product.socket,
      { key: 'browser-3', message: 'send the order', sessionKey: 'agent:main:shop-2' },
      90_000,
    );
    const asked = await product.socket.next(
      (f) => f.event === 'exec.approval.requested' && product.socket.frames.indexOf(f) >= mark,
      90_000,
    );
    await product.socket.request('exec.approval.resolve', {
      id: (asked.payload as { id: string }).id,
      decision: 'deny',
    });
    expect(await turn).toMatchObject({ state: 'final' });
    const afterClick = JSON.stringify(product.llm.requests.slice(before)[2]!.body);
    expect(afterClick).toContain('browser click refused');
    expect(afterClick).toContain('Nothing was done on the page.');
    expect(afterClick).not.toContain('Order received');
  }, 120_000);

  it('refuses a loopback address the config does not allow', async () => {
    const before = product.llm.requests.length;
    // 127.0.0.2 is loopback like the site, but not the allowed 127.0.0.1.
    const gateway = product.host.url.replace('127.0.0.1', '127.0.0.2');
    product.llm.script([
      { type: 'tool_calls', calls: [{ name: 'browser', input: { action: 'open', url: gateway } }] },
      { type: 'text', text: 'That address is not allowed.' },
    ]);
    expect(await product.turn('browser-2', 'open the gateway page')).toMatchObject({ state: 'final' });
    const result = JSON.stringify(product.llm.requests.slice(before)[1]!.body);
    expect(result).toContain('refused: 127.0.0.2 is 127.0.0.2 (loopback address)');
  });
});
