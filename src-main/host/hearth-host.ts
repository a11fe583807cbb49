import type { AsyncDisposable } from '../base/disposable.js';
import type { InProcessGateway } from '../gateway/in-process-transport.js';
import type { HearthPaths } from '../paths/index.js';

/**
 * The running core: gateway + every capability, composed once. `hearth gateway run`
 * and the Electron main process both start exactly this (src-main/host/start-hearth.ts).
 */
export interface HearthHost extends AsyncDisposable {
  readonly paths: HearthPaths;
  /** e.g. http://127.0.0.1:18790 (https when TLS is on). */
  readonly url: string;
  readonly port: number;
  /** The gateway shared token (from HEARTH_HOME/identity). */
  readonly token: string;
  readonly tlsFingerprint?: string;
  readonly gateway: InProcessGateway;
  /** Starts (once) the remote-facing TLS listener used by paired phones; returns its URLs and pin. */
  ensureLan(): Promise<{ urls: string[]; tlsFingerprint: string }>;
  /**
   * The machine woke from sleep (the desktop's resume event): the scheduler looks for runs it
   * missed now, instead of when its timer, which does not count time asleep, fires.
   */
  wake(): void;
  /** Resolves when every capability (agent, exec, memory…) is composed; rejects if one failed to start. */
  readonly ready: Promise<void>;
  /** Graceful stop: refuse new work, send `shutdown`, finish or cancel in flight, flush. */
  dispose(): Promise<void>;
}
