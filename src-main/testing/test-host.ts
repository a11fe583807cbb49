import { silentLogger } from '../base/logger.js';
import type { HearthHost } from '../host/hearth-host.js';
import { type StartHearthOptions, startHearth } from '../host/start-hearth.js';
import { holdLoopbackFetchGuard } from './loopback-fetch-guard.js';
import { createTempHome } from './temp-home.js';

export interface TestHost extends HearthHost {
  wsUrl: string;
  /**
   * Non-loopback URLs the host (or anything in this process) tried to fetch while it ran: each
   * was refused (loopback-fetch-guard.ts), so a fixture's keys never reach a real service.
   */
  readonly refusedRequests: readonly string[];
  close(): Promise<void>;
}

/**
 * A real composed Hearth on a free loopback port with a temp HEARTH_HOME. Its fetch stays on
 * loopback: a request to any other host fails with "test host refused a request to <url>".
 */
export async function startTestHost(options: Partial<StartHearthOptions> = {}): Promise<TestHost> {
  // Held before the host composes: it passes the global fetch by value to its probes.
  const guard = holdLoopbackFetchGuard();
  let temp: Awaited<ReturnType<typeof createTempHome>> | undefined;
  try {
    temp = options.home ? undefined : await createTempHome();
    const host = await startHearth({ home: options.home ?? temp!.home, port: 0, log: silentLogger, ...options });
    await host.ready;
    return Object.assign(host, {
      wsUrl: host.url.replace(/^http/, 'ws'),
      refusedRequests: guard.refused,
      async close() {
        try {
          await host.dispose();
          await temp?.cleanup();
        } finally {
          guard.release();
        }
      },
    });
  } catch (error) {
    guard.release();
    await temp?.cleanup();
    throw error;
  }
}
