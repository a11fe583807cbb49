import { join } from 'node:path';
import type { Clock } from '../../base/clock.js';
import type { Logger } from '../../base/logger.js';
import type { ResolveAll } from '../web/index.js';
import type { BrowserToolsConfig } from './browser-config.js';
import { BrowserSession } from './browser-session.js';

export interface BrowserSessionsDeps {
  /** Hearth's state folder: each agent's profile is `<stateDir>/browser/<agentId>/profile`. */
  stateDir: string;
  config: () => BrowserToolsConfig;
  clock: Clock;
  log: Logger;
  resolveAll?: ResolveAll;
}

/** One browser per agent, launched on its first action and forgotten when it closes. */
export class BrowserSessions {
  private readonly sessions = new Map<string, Promise<BrowserSession>>();
  private disposed = false;

  constructor(private readonly deps: BrowserSessionsDeps) {}

  /** The agent's browser, started if it is not running. */
  get(agentId: string): Promise<BrowserSession> {
    if (this.disposed) return Promise.reject(new Error('the browser tool is shutting down'));
    const running = this.sessions.get(agentId);
    if (running) return running;
    const folder = join(this.deps.stateDir, 'browser', agentFolder(agentId));
    const launching = BrowserSession.launch({
      agentId,
      profileDir: join(folder, 'profile'),
      downloadsTempDir: join(folder, 'downloads-partial'),
      config: this.deps.config,
      clock: this.deps.clock,
      log: this.deps.log,
      resolveAll: this.deps.resolveAll,
      onClosed: () => {
        if (this.sessions.get(agentId) === launching) this.sessions.delete(agentId);
      },
    });
    this.sessions.set(agentId, launching);
    // A failed launch is forgotten, so the next call tries again (after the person fixed the config).
    launching.catch(() => {
      if (this.sessions.get(agentId) === launching) this.sessions.delete(agentId);
    });
    return launching;
  }

  /** The agent's browser if it runs now (never starts one). */
  async running(agentId: string): Promise<BrowserSession | undefined> {
    const session = await this.sessions.get(agentId)?.catch(() => undefined);
    return session && !session.isClosed ? session : undefined;
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    const all = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.all(all.map((launching) => launching.then((session) => session.close()).catch(() => {})));
  }
}

/** Agent ids are config names; anything odd in one is escaped so it stays one folder. */
function agentFolder(agentId: string): string {
  return /^[A-Za-z0-9_-]+$/.test(agentId) ? agentId : encodeURIComponent(agentId).replace(/\./g, '%2E');
}
