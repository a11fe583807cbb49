import type { Clock } from '../base/clock.js';
import { type AsyncDisposable, AsyncDisposableStore } from '../base/disposable.js';
import type { Logger } from '../base/logger.js';
import type { GatewayCore } from '../gateway/gateway-core.js';
import { registerSessionsMethods } from '../gateway/methods/sessions.js';
import { registerSessionsSearchMethod } from '../gateway/methods/sessions-search.js';
import type { HearthPaths } from '../paths/index.js';
import type { SessionDefaults } from '../protocol/methods/openclaw-chat.js';
import { createLanes, createSessionStore, type Lanes, type SessionStore } from '../sessions/index.js';
import { createSessionSearchIndex, type SessionSearchIndex } from '../tools/sessions/index.js';

export interface WiredSessions extends AsyncDisposable {
  store: SessionStore;
  lanes: Lanes;
  /** Full-text search over what was said (`sessions.search`, the sessions_search tool); built on first use. */
  search: SessionSearchIndex;
  /** How many sessions exist (for `status`), kept current from the store's change events. */
  count(): number;
}

/** The session store, its lanes and the `sessions.*` methods; disposing flushes the index. */
export async function wireSessions(deps: {
  core: Pick<GatewayCore, 'registry' | 'bus'>;
  paths: HearthPaths;
  clock: Clock;
  log: Logger;
  /** The model a new turn would use, for OpenClaw clients (wire-openclaw-ui.ts fills it in later). */
  defaults?(agentId: string): SessionDefaults | undefined;
}): Promise<WiredSessions> {
  const { core, clock } = deps;
  const root = new AsyncDisposableStore();
  const store = createSessionStore({ paths: deps.paths, clock, log: deps.log.child({ part: 'sessions' }) });
  root.add({ dispose: () => store.flush() });
  let total = (await store.list({ limit: 1 })).totalCount;
  root.add(
    // Only these change how many sessions there are; recounting lists every agent's index, which a
    // turn's own updates (several per turn) must not pay for.
    store.onDidChange(({ reason }) => {
      if (reason !== 'created' && reason !== 'forked' && reason !== 'deleted') return;
      void store.list({ limit: 1 }).then((page) => {
        total = page.totalCount;
      });
    }),
  );
  root.add(registerSessionsMethods(core.registry, { store, bus: core.bus, clock, defaults: deps.defaults }));
  const search = root.add(createSessionSearchIndex({ store, log: deps.log.child({ part: 'session-search' }) }));
  root.add(registerSessionsSearchMethod(core.registry, search));
  return { store, lanes: createLanes({}), search, count: () => total, dispose: () => root.dispose() };
}
