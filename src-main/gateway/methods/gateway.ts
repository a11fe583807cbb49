import type { Clock } from '../../base/clock.js';
import { type Disposable, DisposableStore } from '../../base/disposable.js';
import { PROTOCOL_VERSION } from '../../protocol/index.js';
import type { GatewayCore } from '../gateway-core.js';
import type { MethodRouter } from '../method-router.js';

export interface GatewayMethodsDeps {
  core: GatewayCore;
  clock: Clock;
  home: string;
  bind: () => { host: string; port: number; tls: boolean; tlsFingerprint?: string };
  agents: () => { id: string; name?: string }[];
  sessionCount: () => number;
  secrets: () => { backend: string; warning?: string };
  /** Extra health sections from capabilities (auth profiles, memory…); must not throw. */
  healthSections?: () => Record<string, unknown>;
}

export function registerGatewayMethods(router: MethodRouter, deps: GatewayMethodsDeps): Disposable {
  const store = new DisposableStore();
  store.add(
    router.handle('health', () => {
      const started = deps.clock.now();
      return {
        ...deps.healthSections?.(),
        ok: true,
        ts: started,
        durationMs: deps.clock.now() - started,
        uptimeMs: deps.core.uptimeMs,
        version: deps.core.version,
        agents: deps.agents(),
        sessions: { count: deps.sessionCount() },
        connections: deps.core.connectionCount,
      };
    }),
  );
  store.add(
    router.handle('status', () => ({
      runtimeVersion: deps.core.version,
      protocol: PROTOCOL_VERSION,
      uptimeMs: deps.core.uptimeMs,
      bind: deps.bind(),
      heartbeat: deps.core.statusSections.heartbeat?.() ?? { enabled: false },
      sessions: { count: deps.sessionCount() },
      connections: deps.core.connectionCount,
      home: deps.home,
      secrets: deps.secrets(),
      ...(deps.core.statusSections.upgrades ? { upgrades: deps.core.statusSections.upgrades() } : {}),
      agents: deps.agents(),
    })),
  );
  store.add(router.handle('system-presence', () => deps.core.presence()));
  return store;
}
