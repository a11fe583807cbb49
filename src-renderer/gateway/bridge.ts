import type { HearthBridge } from '../../src-preload/hearth-bridge.js';

export type { HearthBridge };

/** `window.hearth` when the page runs inside the desktop app (the preload put it there), else undefined. */
export function findBridge(scope: { hearth?: unknown }): HearthBridge | undefined {
  const candidate = scope.hearth as Partial<HearthBridge> | undefined;
  if (candidate && typeof candidate.send === 'function' && typeof candidate.onFrame === 'function') {
    return candidate as HearthBridge;
  }
  return undefined;
}
