import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../base/index.js';
import type { InProcessGateway } from '../gateway/in-process-transport.js';
import type { SecretStore } from '../secrets/index.js';
import { followSelectedGateway, type SelectedGateway } from './follow-gateway.js';
import { RemoteGatewayIdentity } from './remote-gateway-identity.js';
import { createGatewaySwitch } from './remote-gateway-switch.js';

// The real gateway switch (its file in a temp folder, secrets in memory); nothing here connects.
const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

const memorySecrets = (): SecretStore => {
  const map = new Map<string, string>();
  return {
    backend: 'memory',
    get: async (a) => map.get(a),
    set: async (a, s) => void map.set(a, s),
    delete: async (a) => map.delete(a),
    list: async () => [...map.keys()],
  };
};
const unused: InProcessGateway = {
  connectInProcess() {
    throw new Error('not connected in this test');
  },
};

describe('the shell parts follow the gateway in use', () => {
  it('start on the one in use, and start over on each switch, the old ones disposed', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'hearth-follow-'));
    dirs.push(dir);
    const identity = new RemoteGatewayIdentity(memorySecrets(), dir);
    const pin = 'c'.repeat(64);
    await identity.write({
      version: 1,
      active: 'local',
      gateways: [
        { id: pin.slice(0, 16), urls: ['wss://studio.local:18791'], tlsFingerprint: pin, scopes: [], pairedAt: 1 },
      ],
    });
    let reloads = 0;
    const switcher = createGatewaySwitch({
      local: unused,
      identity,
      version: '0.0.0',
      platform: 'linux',
      displayName: 'test',
      now: () => 0,
      sleep: async () => {},
      reloadWindows: () => void reloads++,
      logger: silentLogger,
    });
    await switcher.load();
    const log: string[] = [];
    const following = followSelectedGateway(switcher, (selected: SelectedGateway) => {
      log.push(`start ${selected.remoteName ?? selected.id}`);
      return { dispose: () => void log.push(`stop ${selected.remoteName ?? selected.id}`) };
    });
    expect(log).toEqual(['start local']);
    await switcher.use(pin.slice(0, 16));
    // A gateway without a name is called by its address, as the corner menu does.
    expect(log).toEqual(['start local', 'stop local', 'start studio.local:18791']);
    // A change that is not a switch (pairing progress) starts nothing.
    switcher.cancelPairing();
    expect(log).toHaveLength(3);
    await switcher.forget(pin.slice(0, 16));
    expect(log.slice(3)).toEqual(['stop studio.local:18791', 'start local']);
    following.dispose();
    expect(log.at(-1)).toBe('stop local');
    expect(reloads).toBe(2);
    switcher.dispose();
  });
});
