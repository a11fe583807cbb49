import { ed25519 } from '@noble/curves/ed25519.js';
import { describe, expect, it } from 'vitest';
import { base64Decode, buildDeviceAuthPayloadV3 } from '../../src-main/protocol/device-auth.js';
import { loadOrCreateDeviceIdentity, memoryKeyStore } from './device-identity.js';
import { describeDevice, PHONE_SCOPES, signedConnectParams } from './device-identity-params.js';

const subtle = globalThis.crypto.subtle;

/** WebCrypto without Ed25519 (older Safari/Firefox): generating the key fails, SHA-256 still works. */
const subtleWithoutEd25519 = {
  digest: subtle.digest.bind(subtle),
  exportKey: subtle.exportKey.bind(subtle),
  sign: subtle.sign.bind(subtle),
  generateKey: () => Promise.reject(new DOMException('Unrecognized name', 'NotSupportedError')),
} as unknown as SubtleCrypto;

function verifies(publicKey: string, payload: string, signature: string): boolean {
  return ed25519.verify(base64Decode(signature)!, new TextEncoder().encode(payload), base64Decode(publicKey)!);
}

describe('device identity', () => {
  it('matches PROTOCOL.md §3 test vector 2 on the @noble/curves path', async () => {
    const seed = Uint8Array.from({ length: 32 }, (_, i) => i + 1);
    const identity = await loadOrCreateDeviceIdentity({
      store: memoryKeyStore({ kind: 'noble', secretKey: seed }),
      subtle,
    });
    expect(identity.kind).toBe('noble');
    expect(identity.publicKey).toBe('ebVWLo_mVPlAeLES6KmLp5AfhTrmlb7X4OORC60ElmQ');
    expect(identity.id).toBe('65b60673d6ed884bf01c2c222d82ada0740f29ac3355d6a925c81f17f47a27b8');
    const payload = `v3|${identity.id}|cli|cli|operator|operator.read,operator.write|1737264000000||5f0c3a8e-2b1d-4c7a-9e6f-0a1b2c3d4e5f|darwin|`;
    expect(await identity.sign(payload)).toBe(
      'kgNctBKw8B-g-0I9tzBIBlG8U2qBQUiKO1hdpyze3SRbw5amFCkPqd-a-0kJ1zeTpdsoPXGOyspTXCNzr_v0DQ',
    );
  });

  it('falls back to @noble/curves when WebCrypto has no Ed25519, and keeps that key across loads', async () => {
    const store = memoryKeyStore();
    const first = await loadOrCreateDeviceIdentity({ store, subtle: subtleWithoutEd25519 });
    expect(first.kind).toBe('noble');
    expect(first.id).toMatch(/^[0-9a-f]{64}$/);
    const again = await loadOrCreateDeviceIdentity({ store, subtle: subtleWithoutEd25519 });
    expect(again.id).toBe(first.id);
    expect(verifies(again.publicKey, 'hello', await again.sign('hello'))).toBe(true);
  });

  it('uses a non-extractable WebCrypto key where the engine has Ed25519', async () => {
    const store = memoryKeyStore();
    const identity = await loadOrCreateDeviceIdentity({ store, subtle });
    // This engine may lack Ed25519; then the fallback must have been taken, never an error.
    if (identity.kind === 'webcrypto') {
      expect(store.current?.kind).toBe('webcrypto');
      const pair = (store.current as { pair: CryptoKeyPair }).pair;
      expect(pair.privateKey.extractable).toBe(false);
    }
    expect(verifies(identity.publicKey, 'payload', await identity.sign('payload'))).toBe(true);
    expect((await loadOrCreateDeviceIdentity({ store, subtle })).id).toBe(identity.id);
  });

  it('says a secure page is needed when there is no crypto.subtle at all', async () => {
    await expect(loadOrCreateDeviceIdentity({ store: memoryKeyStore() })).rejects.toThrow(/secure \(https\)/);
  });
});

describe('signed connect params', () => {
  it('carry a v3 proof over the challenge with the bootstrap token, as the phone control UI', async () => {
    const identity = await loadOrCreateDeviceIdentity({ store: memoryKeyStore(), subtle: subtleWithoutEd25519 });
    const params = await signedConnectParams(
      { nonce: 'n-1', ts: 1_700_000_000_000, capabilities: [] },
      { identity, auth: { bootstrapToken: 'boot-token-123456' }, platform: 'Linux armv8l', displayName: 'Pixel' },
    );
    expect(params).toMatchObject({
      client: { id: 'hearth-control-ui', mode: 'ui', platform: 'Linux armv8l', displayName: 'Pixel' },
      role: 'operator',
      scopes: PHONE_SCOPES,
      auth: { bootstrapToken: 'boot-token-123456' },
      device: { id: identity.id, publicKey: identity.publicKey, signedAt: 1_700_000_000_000, nonce: 'n-1' },
    });
    const payload = buildDeviceAuthPayloadV3({
      deviceId: identity.id,
      clientId: 'hearth-control-ui',
      clientMode: 'ui',
      role: 'operator',
      scopes: PHONE_SCOPES,
      signedAt: 1_700_000_000_000,
      token: 'boot-token-123456',
      nonce: 'n-1',
      platform: 'Linux armv8l',
    });
    expect(verifies(identity.publicKey, payload, params.device!.signature)).toBe(true);
  });

  it('names the device from its user agent', () => {
    expect(describeDevice('Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) Safari/604.1')).toBe('iPhone');
    expect(describeDevice('Mozilla/5.0 (Linux; Android 14; Pixel 8) Chrome/156.0 Mobile Safari/537.36')).toBe(
      'Android phone',
    );
    expect(describeDevice('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/156.0 Safari/537.36')).toBe(
      'Chrome on Linux',
    );
  });
});
