import { createPrivateKey, sign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { base64UrlEncode, buildDeviceAuthPayloadV3 } from '../../protocol/index.js';
import { deviceIdFromPublicKey, verifyDeviceProof } from './device-proof.js';

// PROTOCOL.md §3 test vectors: seed = bytes 0x01..0x20.
const seed = Buffer.from(Array.from({ length: 32 }, (_, i) => i + 1));
const PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');
const privateKey = createPrivateKey({ key: Buffer.concat([PKCS8_PREFIX, seed]), format: 'der', type: 'pkcs8' });
const publicKey = 'ebVWLo_mVPlAeLES6KmLp5AfhTrmlb7X4OORC60ElmQ';
const deviceId = '65b60673d6ed884bf01c2c222d82ada0740f29ac3355d6a925c81f17f47a27b8';
const nonce = '5f0c3a8e-2b1d-4c7a-9e6f-0a1b2c3d4e5f';
const signedAt = 1737264000000;

function signPayload(payload: string): string {
  return base64UrlEncode(new Uint8Array(sign(null, Buffer.from(payload), privateKey)));
}

describe('device proof (PROTOCOL.md §3 vectors)', () => {
  it('derives the device id from the raw public key', () => {
    const raw = Buffer.from(publicKey, 'base64url');
    expect(deviceIdFromPublicKey(raw)).toBe(deviceId);
  });

  it('builds the v3 payloads whose signatures match the recorded vectors', () => {
    const payload1 = buildDeviceAuthPayloadV3({
      deviceId,
      clientId: 'openclaw-ios',
      clientMode: 'node',
      role: 'node',
      scopes: [],
      signedAt,
      token: 'test-shared-token',
      nonce,
      platform: 'iOS 18.4',
      deviceFamily: 'iPhone',
    });
    expect(payload1).toBe(
      `v3|${deviceId}|openclaw-ios|node|node||1737264000000|test-shared-token|${nonce}|ios 18.4|iphone`,
    );
    expect(signPayload(payload1)).toBe(
      'isJJlADyhzw7bDsN8BnVAzT0P6da5oowSjwsyf3SIrkFTs73qTM8-TANy9r2YSB1rkdwUQ8wH24-P5mJG8KSCg',
    );
    const payload2 = buildDeviceAuthPayloadV3({
      deviceId,
      clientId: 'cli',
      clientMode: 'cli',
      role: 'operator',
      scopes: ['operator.read', 'operator.write'],
      signedAt,
      nonce,
      platform: 'darwin',
    });
    expect(signPayload(payload2)).toBe(
      'kgNctBKw8B-g-0I9tzBIBlG8U2qBQUiKO1hdpyze3SRbw5amFCkPqd-a-0kJ1zeTpdsoPXGOyspTXCNzr_v0DQ',
    );
  });

  const context = {
    clientId: 'cli',
    clientMode: 'cli',
    role: 'operator',
    scopes: ['operator.read', 'operator.write'],
    platform: 'darwin',
    challengeNonce: nonce,
    now: signedAt + 1000,
  };
  const good = {
    id: deviceId,
    publicKey,
    signedAt,
    nonce,
    signature: 'kgNctBKw8B-g-0I9tzBIBlG8U2qBQUiKO1hdpyze3SRbw5amFCkPqd-a-0kJ1zeTpdsoPXGOyspTXCNzr_v0DQ',
  };

  it('accepts the recorded CLI signature', () => {
    expect(verifyDeviceProof(good, context)).toMatchObject({ ok: true, version: 'v3', deviceId });
  });

  it.each([
    ['a key that is not the id', { id: 'ab'.repeat(32) }, {}, 'DEVICE_AUTH_DEVICE_ID_MISMATCH'],
    ['a signature 121 s old', {}, { now: signedAt + 121_000 }, 'DEVICE_AUTH_SIGNATURE_EXPIRED'],
    ['a blank nonce', { nonce: '  ' }, {}, 'DEVICE_AUTH_NONCE_REQUIRED'],
    ['another socket’s nonce (replay)', {}, { challengeNonce: 'other-nonce' }, 'DEVICE_AUTH_NONCE_MISMATCH'],
    ['a signature over other scopes', {}, { scopes: ['operator.admin'] }, 'DEVICE_AUTH_SIGNATURE_INVALID'],
    ['a garbage signature', { signature: 'not-a-signature' }, {}, 'DEVICE_AUTH_SIGNATURE_INVALID'],
    ['an undecodable key', { publicKey: '!!!', id: deviceId }, {}, 'DEVICE_AUTH_PUBLIC_KEY_INVALID'],
  ])('refuses %s', (_name, deviceChange, contextChange, code) => {
    const result = verifyDeviceProof({ ...good, ...deviceChange }, { ...context, ...contextChange });
    expect(result).toMatchObject({ ok: false, code });
  });

  it('accepts a signature made 100 s ago', () => {
    expect(verifyDeviceProof(good, { ...context, now: signedAt + 100_000 }).ok).toBe(true);
  });
});
