import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import type { GatewayClient, GatewayClientOptions } from '../../src-main/protocol/client/gateway-client.js';
import { StoresProvider } from '../app/stores-context.js';
import { createStores, type Stores } from '../stores/create-stores.js';
import type { ViewId } from '../stores/ui-store.js';
import { connectTestClient, type Handler, ScriptedGateway } from './scripted-gateway.js';

/** Default answers so every store's first refresh succeeds quietly; tests override what they care about. */
export const quietHandlers: Record<string, Handler> = {
  'sessions.list': () => ({ sessions: [] }),
  'agents.list': () => ({
    defaultId: 'main',
    mainKey: 'main',
    scope: 'per-sender',
    agents: [
      { id: 'main', kind: 'agent', name: 'main', workspace: '/h/workspace', model: { primary: null, fallbacks: [] } },
    ],
  }),
  'chat.history': () => ({ messages: [], hasMore: false }),
  'models.list': () => ({ models: [{ id: 'fake-model', name: 'Fake', provider: 'fake', available: true }] }),
  'exec.approval.list': () => [],
  'auth.profiles.list': () => ({ profiles: [], secretBackend: 'keychain' }),
  'auth.profiles.probe': () => ({ profiles: [] }),
  'providers.detect': () => ({ local: [] }),
  'memory.files.list': () => ({ files: [] }),
  'memory.file.get': (p) => ({ path: p.path, content: '' }),
  'dreams.status': () => ({ enabled: true, cron: '0 3 * * *' }),
  'dreams.candidates': () => ({ candidates: [] }),
  'device.pair.list': () => ({ pending: [], paired: [] }),
  'config.get': () => ({ path: '/h/hearth.json', exists: true, raw: '{}', parsed: {}, hash: 'h0', valid: true }),
  'cron.list': () => ({
    jobs: [],
    total: 0,
    offset: 0,
    limit: 500,
    hasMore: false,
    nextOffset: null,
    snapshotRevision: 'r0',
  }),
  'cron.runs': () => ({ runs: [], entries: [], total: 0, offset: 0, limit: 50, hasMore: false, nextOffset: null }),
};

export interface TestApp {
  gateway: ScriptedGateway;
  client: GatewayClient;
  stores: Stores;
  dispose(): void;
}

export function startTestApp(
  handlers: Record<string, Handler> = {},
  /** `clock` drives the client's reconnect and request timers, so a test decides when a retry happens. */
  options: { view?: ViewId; now?: () => number; refuseToken?: boolean; clock?: GatewayClientOptions['clock'] } = {},
): TestApp {
  const gateway = new ScriptedGateway({ ...quietHandlers, ...handlers });
  if (options.refuseToken) gateway.refuseToken = 'test-token';
  const client = connectTestClient(gateway, 'test-token', options.clock);
  const stores = createStores(client, {
    language: 'en',
    view: options.view,
    now: options.now ?? options.clock?.now ?? (() => 1_700_000_000_000),
  });
  return {
    gateway,
    client,
    stores,
    dispose() {
      stores.dispose();
      client.dispose();
    },
  };
}

export function renderWithStores(app: TestApp, element: ReactElement) {
  return render(<StoresProvider stores={app.stores}>{element}</StoresProvider>);
}
