import { silentLogger } from '../base/logger.js';
import type { HearthHost } from '../host/hearth-host.js';
import { type StartHearthOptions, startHearth } from '../host/start-hearth.js';
import { createTempHome } from './temp-home.js';

export interface TestHost extends HearthHost {
  wsUrl: string;
  close(): Promise<void>;
}

/** A real composed Hearth on a free loopback port with a temp HEARTH_HOME. */
export async function startTestHost(options: Partial<StartHearthOptions> = {}): Promise<TestHost> {
  const temp = options.home ? undefined : await createTempHome();
  const host = await startHearth({ home: options.home ?? temp!.home, port: 0, log: silentLogger, ...options });
  await host.ready;
  return Object.assign(host, {
    wsUrl: host.url.replace(/^http/, 'ws'),
    async close() {
      await host.dispose();
      await temp?.cleanup();
    },
  });
}
