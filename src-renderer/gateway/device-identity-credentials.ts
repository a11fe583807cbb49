import type { ConnectChallenge, ConnectParams } from '../../src-main/protocol/connect.js';
import type { DeviceIdentity } from './device-identity.js';
import { signedConnectParams } from './device-identity-params.js';

const TOKEN_KEY = 'hearth.deviceToken';

/**
 * A paired browser's credentials: its key (IndexedDB) and the device token the desktop
 * granted (localStorage). The key outlives the token, so re-pairing is recognised.
 */
export interface DeviceCredentials {
  token(): string | undefined;
  saveToken(token: string): void;
  forgetToken(): void;
  identity(): Promise<DeviceIdentity>;
  /** `connect` params with the device proof and `auth.deviceToken`. */
  connectParams(challenge: ConnectChallenge, client: { platform: string; locale?: string }): Promise<ConnectParams>;
}

export function createDeviceCredentials(deps: {
  storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;
  loadIdentity: () => Promise<DeviceIdentity>;
  displayName?: string;
}): DeviceCredentials {
  let identity: Promise<DeviceIdentity> | undefined;
  const credentials: DeviceCredentials = {
    token: () => deps.storage.getItem(TOKEN_KEY) || undefined,
    saveToken: (token) => deps.storage.setItem(TOKEN_KEY, token),
    forgetToken: () => deps.storage.removeItem(TOKEN_KEY),
    identity() {
      identity ??= deps.loadIdentity().catch((error: unknown) => {
        identity = undefined;
        throw error;
      });
      return identity;
    },
    async connectParams(challenge, client) {
      return signedConnectParams(challenge, {
        identity: await credentials.identity(),
        auth: { deviceToken: credentials.token() },
        platform: client.platform,
        locale: client.locale,
        displayName: deps.displayName,
      });
    },
  };
  return credentials;
}
