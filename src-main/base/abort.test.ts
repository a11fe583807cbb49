import { describe, expect, it } from 'vitest';
import { linkedAbortController, onAbort } from './abort.js';

describe('onAbort', () => {
  it('runs the listener when the signal aborts, and at once when it already had', () => {
    const later = new AbortController();
    const calls: string[] = [];
    onAbort(later.signal, () => calls.push('later'));
    const earlier = new AbortController();
    earlier.abort();
    onAbort(earlier.signal, () => calls.push('earlier'));
    expect(calls).toEqual(['earlier']);
    later.abort();
    expect(calls).toEqual(['earlier', 'later']);
  });

  it('stops listening once disposed', () => {
    const parent = new AbortController();
    let called = false;
    onAbort(parent.signal, () => {
      called = true;
    }).dispose();
    parent.abort();
    expect(called).toBe(false);
  });

  it('links a controller to a parent aborted before the link was made, keeping its reason', () => {
    const parent = new AbortController();
    parent.abort(new Error('aborted by the user'));
    const { controller } = linkedAbortController(parent.signal);
    expect(controller.signal.aborted).toBe(true);
    expect((controller.signal.reason as Error).message).toBe('aborted by the user');
  });
});
