import { type Disposable, Emitter, type Logger } from '../base/index.js';
import type { InProcessGateway } from '../gateway/in-process-transport.js';
import type { GatewaysView } from '../protocol/desktop-gateways.js';
import type { RemoteGatewayIdentity, RemoteGatewayRecord } from './remote-gateway-identity.js';
import { type PairingProgress, pairDesktop, RemotePairingError } from './remote-gateway-pairing.js';
import { createRemoteRelay } from './remote-gateway-relay.js';

/** The id of this computer's own gateway in the switch. */
export const LOCAL_GATEWAY = 'local';

export type { GatewaysView };

export interface GatewaySwitchDeps {
  local: InProcessGateway;
  identity: RemoteGatewayIdentity;
  version: string;
  platform: string;
  /** How this desktop is named on the other machine's Devices list. */
  displayName: string;
  now(): number;
  sleep(ms: number): Promise<void>;
  /** Loads every window again, so each starts over against the gateway now in use. */
  reloadWindows(): void;
  logger: Logger;
}

export interface GatewaySwitch extends Disposable {
  /** What the IPC bridge connects windows to: this computer's gateway or the paired one in use. */
  readonly gateway: InProcessGateway;
  readonly view: GatewaysView;
  readonly onDidChange: Emitter<GatewaysView>['event'];
  /** Reads the paired gateways and the one last used. */
  load(): Promise<void>;
  /** Pairs with the gateway in a setup code or hearth:// link, then uses it. Resolves when pairing ends. */
  pair(code: string): Promise<void>;
  cancelPairing(): void;
  use(id: string): Promise<void>;
  /** Forgets a paired gateway here (its token leaves the secret store); back to this computer if it was in use. */
  forget(id: string): Promise<void>;
}

/**
 * Which gateway the desktop's windows talk to: this computer's own (in-process) or
 * another machine's it paired with (through the pinned relay). Switching writes the
 * choice, and reloads the windows, so that nothing of one gateway's chats lingers in
 * a page now showing another's.
 */
export function createGatewaySwitch(deps: GatewaySwitchDeps): GatewaySwitch {
  const log = deps.logger.child({ component: 'gateway-switch' });
  const changed = new Emitter<GatewaysView>();
  let records: RemoteGatewayRecord[] = [];
  let active = LOCAL_GATEWAY;
  let pairing: GatewaysView['pairing'];
  let problem: string | undefined;
  let target: InProcessGateway = deps.local;
  let pairingRun = 0;

  const view = (): GatewaysView => ({
    active,
    gateways: records.map((record) => ({
      id: record.id,
      name: record.name,
      url: record.urls[0]!,
      tlsFingerprint: record.tlsFingerprint,
      pairedAt: record.pairedAt,
    })),
    ...(pairing ? { pairing } : {}),
    ...(problem ? { problem } : {}),
  });
  const announce = () => changed.fire(view());
  const retarget = () => {
    const record = records.find((candidate) => candidate.id === active);
    if (!record) {
      active = LOCAL_GATEWAY;
      target = deps.local;
      return;
    }
    target = createRemoteRelay({
      gateway: record,
      identity: deps.identity,
      version: deps.version,
      platform: deps.platform,
      logger: deps.logger,
      onProblem(next) {
        if (next === problem) return;
        problem = next;
        announce();
      },
    });
  };
  const save = async () => {
    await deps.identity.write({ version: 1, active, gateways: records });
  };

  const switcher: GatewaySwitch = {
    gateway: { connectInProcess: (options) => target.connectInProcess(options) },
    get view() {
      return view();
    },
    onDidChange: changed.event,
    async load() {
      try {
        const file = await deps.identity.read();
        records = file.gateways;
        active = file.active;
      } catch (error) {
        // A damaged file must not keep the app from its own gateway: say so, use this computer.
        log.error('paired gateways unreadable; using this computer', { error: String(error) });
        problem = (error as Error).message;
        active = LOCAL_GATEWAY;
      }
      retarget();
      announce();
    },
    async pair(code) {
      const mine = ++pairingRun;
      const live = () => mine === pairingRun;
      pairing = { phase: 'connecting' };
      announce();
      try {
        const record = await pairDesktop(code, {
          identity: deps.identity,
          version: deps.version,
          platform: deps.platform,
          displayName: deps.displayName,
          now: deps.now,
          sleep: deps.sleep,
          cancelled: () => !live(),
          onProgress(progress: PairingProgress) {
            if (!live()) return;
            pairing = { ...progress };
            announce();
          },
        });
        if (!live()) return;
        records = [...records.filter((other) => other.id !== record.id), record];
        pairing = undefined;
        await switcher.use(record.id);
      } catch (error) {
        if (!live()) return;
        const kind = error instanceof RemotePairingError ? error.kind : 'other';
        const message = error instanceof Error ? error.message : String(error);
        log.warn('pairing with a remote gateway failed', { kind, error: message });
        pairing = { ...pairing, phase: 'failed', problem: { kind, message } };
        announce();
      }
    },
    cancelPairing() {
      pairingRun += 1;
      pairing = undefined;
      announce();
    },
    async use(id) {
      if (id !== LOCAL_GATEWAY && !records.some((record) => record.id === id)) {
        throw new Error(`no paired gateway "${id}" (pair with it first)`);
      }
      active = id;
      problem = undefined;
      await save();
      retarget();
      announce();
      deps.reloadWindows();
    },
    async forget(id) {
      const known = records.some((record) => record.id === id);
      if (!known) throw new Error(`no paired gateway "${id}"`);
      records = records.filter((record) => record.id !== id);
      await deps.identity.forgetToken(id);
      if (active === id) await switcher.use(LOCAL_GATEWAY);
      else {
        await save();
        announce();
      }
    },
    dispose() {
      pairingRun += 1;
      changed.dispose();
    },
  };
  return switcher;
}
