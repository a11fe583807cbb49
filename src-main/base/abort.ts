import type { Disposable } from './disposable.js';

/**
 * Runs `listener` when `signal` aborts — at once if it already has. A plain
 * `addEventListener('abort', …)` on a signal aborted earlier never fires, so an abort that lands
 * before the listening code runs (a person pressing Stop while the turn was still assembling its
 * prompt) would be silently lost and the work would run to its end.
 */
export function onAbort(signal: AbortSignal | undefined, listener: () => void): Disposable {
  if (!signal) return { dispose() {} };
  if (signal.aborted) {
    listener();
    return { dispose() {} };
  }
  signal.addEventListener('abort', listener, { once: true });
  return { dispose: () => signal.removeEventListener('abort', listener) };
}

/** A controller of our own that also aborts when `parent` does (or already has), with its reason. */
export function linkedAbortController(parent: AbortSignal | undefined): { controller: AbortController } & Disposable {
  const controller = new AbortController();
  const link = onAbort(parent, () => controller.abort(parent?.reason));
  return { controller, dispose: () => link.dispose() };
}
