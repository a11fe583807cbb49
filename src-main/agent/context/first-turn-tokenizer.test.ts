import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isTokenizerLoaded } from '../../base/o200k-tokens.js';
import { type ProductFixture, startProductFixture } from '../../testing/product-fixture.js';

// Issue 23: the o200k tables (~230 ms, ~68 MB) loaded on a cold start's first turn, though a
// fresh session fits its budget by far. The whole product runs in this process here, so the
// tokenizer module's state is the product's.

let product: ProductFixture;
beforeAll(async () => {
  product = await startProductFixture();
});
afterAll(() => product.close());

describe('a first turn far under budget', () => {
  it('answers without loading the tokenizer, then or in the idle time after', async () => {
    product.llm.setDefault({ type: 'text', text: 'Hello.' });
    expect(await product.turn('first', 'hi')).toMatchObject({ state: 'final' });
    // A second turn: whatever the first scheduled for idle time has run by the time this one ends.
    expect(await product.turn('second', 'and again')).toMatchObject({ state: 'final' });
    expect(product.llm.requests.length).toBeGreaterThanOrEqual(2);
    expect(isTokenizerLoaded()).toBe(false);
  });
});
