import type { GatewayClient } from '../../src-main/protocol/client/gateway-client.js';

/**
 * What stores need of the client; the real GatewayClient in the app and in tests (over a loopback
 * transport). Only the typed `request` / `on`: the untyped `call` is not part of it, so a result or
 * an event is read as the method table and the event map type it.
 */
export type GatewayPort = Pick<
  GatewayClient,
  'request' | 'on' | 'onAnyEvent' | 'onDidConnect' | 'onDidChangeState' | 'state'
>;

export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Reads a string field from loosely shaped gateway data without trusting its type. */
export function str(value: unknown, fallback = ''): string {
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : fallback;
}

export function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

export function record(value: unknown): Record<string, unknown> {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

export function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

export function disposeAll(items: readonly { dispose(): void }[]): void {
  for (const item of items) item.dispose();
}

/**
 * A view store's change runner: `key` is marked busy while `run` goes, a refusal becomes the
 * store's `error` (a success clears it), and `after` (re-reading the list) runs either way.
 */
export function busyAction(
  set: (partial: { busy?: string[]; error?: string }) => void,
  get: () => { busy: string[] },
  after?: () => Promise<void>,
): (key: string, run: () => Promise<unknown>) => Promise<void> {
  return async (key, run) => {
    set({ busy: [...get().busy, key] });
    try {
      await run();
      set({ error: undefined });
    } catch (error) {
      set({ error: errorText(error) });
    } finally {
      set({ busy: get().busy.filter((other) => other !== key) });
    }
    await after?.();
  };
}
