import { createStore, type StoreApi } from 'zustand/vanilla';
import type { GatewaysCommand, GatewaysView } from '../../../src-preload/hearth-bridge.js';
import { shortDeviceId } from './pair-code.js';
import { type PairingProblemKind, pairingProblem } from './pairing-messages.js';
import type { PairingState } from './pairing-store.js';

/** The two functions of `window.hearth` that reach the desktop's gateway switch. */
export interface DesktopGateways {
  gateways(command: GatewaysCommand): Promise<GatewaysView>;
  onGatewaysChange(listener: (view: GatewaysView) => void): () => void;
}

/** `window.hearth` when it is a desktop that can pair with another machine's gateway. */
export function findDesktopGateways(bridge: unknown): DesktopGateways | undefined {
  const candidate = bridge as Partial<DesktopGateways> | undefined;
  return typeof candidate?.gateways === 'function' && typeof candidate.onGatewaysChange === 'function'
    ? (candidate as DesktopGateways)
    : undefined;
}

const knownKinds = new Set<PairingProblemKind>([
  'invalid-code',
  'expired',
  'already-used',
  'rejected',
  'timed-out',
  'rate-limited',
  'signature',
  'certificate',
]);

/**
 * The pairing screen's store inside the desktop app. The page cannot pair by itself there
 * (it would need the other gateway's certificate pinned and a key main keeps), so main does
 * the pairing (src-main/app/remote-gateway-pairing.ts) and this store only shows its progress;
 * once paired, main switches to that gateway and reloads the window.
 */
export function createDesktopPairingStore(desktop: DesktopGateways, deviceName: string): StoreApi<PairingState> {
  const store = createStore<PairingState>((set) => ({
    phase: 'idle',
    deviceName,
    async start(input) {
      set({ phase: 'connecting', problem: undefined, notice: undefined });
      try {
        await desktop.gateways({ kind: 'pair', code: input });
      } catch (error) {
        set({
          phase: 'failed',
          problem: pairingProblem('other', error instanceof Error ? error.message : String(error)),
        });
      }
    },
    fail: (problem) => set({ phase: 'failed', problem, notice: undefined }),
    cancel() {
      set({ phase: 'idle', problem: undefined, notice: undefined, requestId: undefined });
      void Promise.resolve()
        .then(() => desktop.gateways({ kind: 'cancel-pairing' }))
        .catch(() => {});
    },
  }));
  desktop.onGatewaysChange((view) => {
    const pairing = view.pairing;
    if (!pairing) return;
    const common = {
      deviceId: pairing.deviceId,
      shortId: pairing.deviceId ? shortDeviceId(pairing.deviceId) : undefined,
      expiresAt: pairing.expiresAt,
      requestId: pairing.requestId,
      notice: pairing.notice,
    };
    if (pairing.phase === 'failed') {
      const kind = pairing.problem?.kind as PairingProblemKind | undefined;
      const problem = pairingProblem(kind && knownKinds.has(kind) ? kind : 'other', pairing.problem?.message);
      store.setState({ ...common, phase: 'failed', problem, notice: undefined });
      return;
    }
    store.setState({ ...common, phase: pairing.phase, problem: undefined });
  });
  return store;
}
