import { type ReactNode, useEffect, useState } from 'react';
import { type StoreApi, useStore } from 'zustand';
import { useDomain } from '../../app/stores-context.js';
import type { DeviceCredentials } from '../../gateway/device-identity-credentials.js';
import type { DesktopGateways } from './desktop-pairing.js';
import { GatewayIndicator } from './gateway-indicator.js';
import { pairingProblem } from './pairing-messages.js';
import { PairingScreen } from './pairing-screen.js';
import type { PairingState } from './pairing-store.js';

/** Refusals of a stored device token: the desktop removed the device or revoked its token. */
const removedCodes = new Set(['AUTH_DEVICE_TOKEN_MISMATCH', 'AUTH_SCOPE_MISMATCH']);

export interface PairingGateProps {
  store: StoreApi<PairingState>;
  /** From `#pair=`: start pairing at once. */
  initialCode?: string;
  device?: DeviceCredentials;
  /** Connect the app's client again (with the new device token, or the gateway token). */
  restart?: () => void;
  /** Pairing links followed later (`#/pair?code=…`, src-renderer/app/hash-route.ts): each starts pairing at once. */
  onPairLink?: (start: (code: string) => void) => () => void;
  /** Inside the desktop app: which gateway it uses, shown in a corner with a menu to switch or pair. */
  desktop?: DesktopGateways;
  /** The app; `openPairing` shows the "Pair this device" screen. */
  children: (openPairing: () => void) => ReactNode;
}

/**
 * Stands in front of the app on a phone: pairs with a setup code, and explains a device
 * token the desktop no longer accepts. Inside the desktop app it only renders the app.
 */
export function PairingGate({ store, initialCode, device, restart, onPairLink, desktop, children }: PairingGateProps) {
  const [pairing, setPairing] = useState(initialCode !== undefined);
  const phase = useStore(store, (s) => s.phase);
  const connection = useDomain('connection', (s) => s.connection);

  useEffect(() => {
    if (initialCode) void store.getState().start(initialCode);
  }, [initialCode, store]);

  useEffect(
    () =>
      onPairLink?.((code) => {
        store.getState().cancel();
        setPairing(true);
        void store.getState().start(code);
      }),
    [onPairLink, store],
  );

  useEffect(() => {
    if (phase === 'paired') setPairing(false);
  }, [phase]);

  const detailCode = connection.lastError?.detailCode;
  // A browser signed in with the gateway token goes back to the token prompt instead (start-client.ts).
  const removed =
    connection.status === 'auth-failed' &&
    !!device?.token() &&
    device.source() === 'pairing' &&
    removedCodes.has(detailCode ?? '');
  useEffect(() => {
    if (!removed) return;
    // The key stays (re-pairing is recognised on the desktop); the dead token goes.
    device?.forgetToken();
    store.getState().fail(pairingProblem('removed'));
    setPairing(true);
  }, [removed, device, store]);

  if (pairing) {
    return (
      <PairingScreen
        store={store}
        onBack={
          desktop
            ? () => {
                store.getState().cancel();
                setPairing(false);
              }
            : undefined
        }
        onUseToken={
          restart
            ? () => {
                store.getState().cancel();
                setPairing(false);
                restart();
              }
            : undefined
        }
      />
    );
  }
  const openPairing = () => {
    store.getState().cancel();
    setPairing(true);
  };
  return (
    <>
      {children(openPairing)}
      {desktop && <GatewayIndicator desktop={desktop} onPair={openPairing} />}
    </>
  );
}
