import { createPrivateKey } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { cliConnectParams } from '../cli/remote-identity.js';
import { clientDeviceOf, type signedConnectParams } from '../gateway/auth/client-device.js';
import { verifyDeviceProof } from '../gateway/auth/device-proof.js';
import { connectParamsSchema } from '../protocol/index.js';
import { desktopConnectParams } from './remote-gateway-identity.js';

// PROTOCOL.md §3 test vectors: seed = bytes 0x01..0x20.
const seed = Buffer.from(Array.from({ length: 32 }, (_, i) => i + 1));
const PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');
const privateKey = createPrivateKey({ key: Buffer.concat([PKCS8_PREFIX, seed]), format: 'der', type: 'pkcs8' });
const challenge = { nonce: '5f0c3a8e-2b1d-4c7a-9e6f-0a1b2c3d4e5f', ts: 1737264000000 };

/** What the gateway's handshake checks a connect's proof against. */
function verify(params: ReturnType<typeof signedConnectParams>, token: string | undefined) {
  return verifyDeviceProof(params.device!, {
    clientId: params.client.id,
    clientMode: params.client.mode,
    role: params.role ?? 'operator',
    scopes: params.scopes ?? [],
    token,
    platform: params.client.platform,
    challengeNonce: challenge.nonce,
    now: challenge.ts,
  });
}

describe('the client device proof the desktop and the CLI share', () => {
  it('names the device as the gateway does (PROTOCOL.md §3 vector)', () => {
    expect(clientDeviceOf(privateKey)).toMatchObject({
      id: '65b60673d6ed884bf01c2c222d82ada0740f29ac3355d6a925c81f17f47a27b8',
      publicKey: 'ebVWLo_mVPlAeLES6KmLp5AfhTrmlb7X4OORC60ElmQ',
    });
  });

  it("the desktop's connect to a paired gateway is valid and verifies over the device token", () => {
    const params = desktopConnectParams(clientDeviceOf(privateKey), challenge, {
      version: '1.2.3',
      platform: 'linux',
      scopes: ['operator.read', 'operator.approvals'],
      auth: { deviceToken: 'dt-1' },
      displayName: 'Hearth desktop (studio)',
      locale: 'zh-CN',
    });
    expect(connectParamsSchema.safeParse(params).success).toBe(true);
    expect(params).toMatchObject({
      client: { id: 'hearth-desktop', mode: 'ui', displayName: 'Hearth desktop (studio)' },
      caps: ['exec-approvals'],
      locale: 'zh-CN',
    });
    expect(verify(params, 'dt-1')).toMatchObject({ ok: true, version: 'v3' });
    // Signed over that token: another one does not verify.
    expect(verify(params, 'dt-2')).toMatchObject({ ok: false, code: 'DEVICE_AUTH_SIGNATURE_INVALID' });
  });

  it("the desktop's pairing connect signs the setup code's bootstrap token", () => {
    const params = desktopConnectParams(clientDeviceOf(privateKey), challenge, {
      version: '1.2.3',
      platform: 'darwin',
      scopes: ['operator.read'],
      auth: { bootstrapToken: 'boot-1' },
    });
    expect(params.client).not.toHaveProperty('displayName');
    expect(params).not.toHaveProperty('locale');
    expect(verify(params, 'boot-1')).toMatchObject({ ok: true });
  });

  it("the CLI's connect is a cli-mode client with no caps, verifying over the shared token first", () => {
    const params = cliConnectParams(clientDeviceOf(privateKey), challenge, {
      version: '1.2.3',
      platform: 'linux',
      role: 'operator',
      scopes: ['operator.admin'],
      auth: { token: 'shared', deviceToken: 'dt-1' },
    });
    expect(connectParamsSchema.safeParse(params).success).toBe(true);
    expect(params).toMatchObject({ client: { id: 'cli', mode: 'cli' }, caps: [], minProtocol: 4, maxProtocol: 4 });
    expect(verify(params, 'shared')).toMatchObject({ ok: true });
    expect(verify(params, 'dt-1')).toMatchObject({ ok: false });
  });
});
