import { describe, expect, it } from 'vitest';
import type { GatewaysCommand, GatewaysView } from '../../../src-preload/hearth-bridge.js';
import { createDesktopPairingStore, findDesktopGateways } from './desktop-pairing.js';

// The preload's two functions as main answers them (Electron is the edge, faked here).
function fakeDesktop() {
  const commands: GatewaysCommand[] = [];
  const listeners = new Set<(view: GatewaysView) => void>();
  return {
    commands,
    push: (view: GatewaysView) => {
      for (const listener of listeners) listener(view);
    },
    gateways: async (command: GatewaysCommand) => {
      commands.push(command);
      return { active: 'local', gateways: [] };
    },
    onGatewaysChange: (listener: (view: GatewaysView) => void) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

describe('desktop pairing store', () => {
  it('hands the code to main and shows its progress, and a refused certificate in its own words', async () => {
    const desktop = fakeDesktop();
    expect(findDesktopGateways(desktop)).toBe(desktop);
    expect(findDesktopGateways({ send() {} })).toBeUndefined();
    const store = createDesktopPairingStore(desktop, 'Hearth desktop');
    await store.getState().start('hearth://pair?code=abc');
    expect(desktop.commands).toEqual([{ kind: 'pair', code: 'hearth://pair?code=abc' }]);
    desktop.push({
      active: 'local',
      gateways: [],
      pairing: { phase: 'waiting', deviceId: '0123456789abcdef', requestId: 'r1', expiresAt: 5 },
    });
    expect(store.getState()).toMatchObject({ phase: 'waiting', shortId: '0123…cdef', requestId: 'r1' });
    desktop.push({
      active: 'local',
      gateways: [],
      pairing: { phase: 'failed', problem: { kind: 'certificate', message: 'pinned sha256:aa, got sha256:bb.' } },
    });
    expect(store.getState().problem).toMatchObject({
      kind: 'certificate',
      title: "That computer's certificate doesn't match the code",
      message: expect.stringContaining('pinned sha256:aa, got sha256:bb.'),
    });
    store.getState().cancel();
    await Promise.resolve();
    await Promise.resolve();
    expect(desktop.commands.at(-1)).toEqual({ kind: 'cancel-pairing' });
  });
});
