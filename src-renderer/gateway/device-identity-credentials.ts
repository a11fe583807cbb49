import type { ConnectChallenge, ConnectParams } from '../../src-main/protocol/connect.js';
import type { DeviceIdentity } from './device-identity.js';
import { PHONE_SCOPES, signedConnectParams } from './device-identity-params.js';

const TOKEN_KEY = 'hearth.deviceToken';
const SCOPES_KEY = 'hearth.deviceTokenScopes';
const SOURCE_KEY = 'hearth.deviceTokenSource';

/**
 * How the device token was obtained: pairing with a setup code (a phone), or a sign-in
 * with the gateway token on this machine (the browser Control UI). A revoked token sends
 * the first back to pairing and the second back to the token prompt.
 */
export type DeviceTokenSource = 'pairing' | 'sign-in';

/**
 * A browser's device credentials: its key (IndexedDB; non-extractable with WebCrypto) and
 * the device token the gateway granted (localStorage). The token is worthless without the
 * key: the gateway accepts it only with a fresh signature over its challenge. The key
 * outlives the token, so re-pairing is recognised.
 */
export interface DeviceCredentials {
  token(): string | undefined;
  /** The scopes the stored token was granted (what the next connect asks for). */
  scopes(): string[];
  source(): DeviceTokenSource;
  saveToken(token: string, granted?: { scopes?: string[]; source?: DeviceTokenSource }): void;
  forgetToken(): void;
  identity(): Promise<DeviceIdentity>;
  /**
   * `connect` params with the device proof: with the stored device token, or (sign-in)
   * with the gateway token, asking for `scopes`, so the gateway issues a device token.
   */
  connectParams(
    challenge: ConnectChallenge,
    client: { platform: string; locale?: string },
    signIn?: { gatewayToken: string; scopes: string[] },
  ): Promise<ConnectParams>;
}

function readScopes(text: string | null): string[] | undefined {
  if (!text) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) && value.every((s) => typeof s === 'string') ? value : undefined;
  } catch {
    return undefined;
  }
}

export function createDeviceCredentials(deps: {
  storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;
  loadIdentity: () => Promise<DeviceIdentity>;
  displayName?: string;
}): DeviceCredentials {
  let identity: Promise<DeviceIdentity> | undefined;
  const credentials: DeviceCredentials = {
    token: () => deps.storage.getItem(TOKEN_KEY) || undefined,
    // Tokens stored before scopes were recorded came from phone pairing.
    scopes: () => readScopes(deps.storage.getItem(SCOPES_KEY)) ?? PHONE_SCOPES,
    source: () => (deps.storage.getItem(SOURCE_KEY) === 'sign-in' ? 'sign-in' : 'pairing'),
    saveToken(token, granted = {}) {
      deps.storage.setItem(TOKEN_KEY, token);
      deps.storage.setItem(SCOPES_KEY, JSON.stringify(granted.scopes ?? PHONE_SCOPES));
      deps.storage.setItem(SOURCE_KEY, granted.source ?? 'pairing');
    },
    forgetToken() {
      for (const key of [TOKEN_KEY, SCOPES_KEY, SOURCE_KEY]) deps.storage.removeItem(key);
    },
    identity() {
      identity ??= deps.loadIdentity().catch((error: unknown) => {
        identity = undefined;
        throw error;
      });
      return identity;
    },
    async connectParams(challenge, client, signIn) {
      return signedConnectParams(challenge, {
        identity: await credentials.identity(),
        auth: signIn ? { token: signIn.gatewayToken } : { deviceToken: credentials.token() },
        scopes: signIn ? signIn.scopes : credentials.scopes(),
        platform: client.platform,
        locale: client.locale,
        displayName: deps.displayName,
      });
    },
  };
  return credentials;
}
