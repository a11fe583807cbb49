import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ProductFixture, startProductFixture } from '../../testing/product-fixture.js';

// The canvas in the composed product: the model is told the canvas exists, writes a page with
// canvas_write without any approval, the Canvas view hears canvas.changed, and the gateway serves it.

let product: ProductFixture;

beforeAll(async () => {
  product = await startProductFixture();
});
afterAll(async () => {
  await product?.close();
});

describe('canvas tools in the product', () => {
  it('a turn draws on the canvas: no approval asked, the Canvas view is told, the page is served', async () => {
    const before = product.llm.requests.length;
    product.llm.script([
      { type: 'tool_calls', calls: [{ name: 'tools_load', input: { names: ['canvas_write'] } }] },
      {
        type: 'tool_calls',
        calls: [{ name: 'canvas_write', input: { path: 'index.html', content: '<h1>Shopping list</h1>' } }],
      },
      { type: 'text', text: 'It is on the canvas.' },
    ]);
    const changed = product.socket.next(
      (frame) =>
        frame.event === 'canvas.changed' && (frame.payload as { files: string[] }).files.includes('index.html'),
      20_000,
    );
    const end = await product.turn('canvas-1', 'put my shopping list on the canvas');
    expect(end).toMatchObject({ state: 'final' });
    await changed;

    const calls = product.llm.requests.slice(before);
    const system = (calls[0]!.body.messages as { role: string; content: string }[])[0]!;
    expect(system.content).toContain('You have a canvas the person sees live in the Canvas view');
    expect(JSON.stringify(calls[2]!.body)).toContain('Wrote canvas/index.html (22 bytes).');
    // Nobody answers approvals in this test: had canvas_write asked for one, the turn would not have written.

    const page = await fetch(`${product.host.url}/__hearth__/canvas/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toBe('<h1>Shopping list</h1>');
  });
});
