import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeSetupCode, type SetupCode, setupLink } from '../protocol/index.js';
import { DeepLinkError, findDeepLinkArg, parseDeepLink } from './deep-links.js';

const fingerprint = 'a'.repeat(64);
const setup = (overrides: Partial<SetupCode> = {}): SetupCode => ({
  version: 1,
  urls: ['wss://192.168.1.5:18790'],
  bootstrapToken: 'abcdefghijklmnop_QRST-1234',
  tlsFingerprint: fingerprint,
  expiresAt: 2_000_000,
  name: 'Home desktop',
  ...overrides,
});
const code = encodeSetupCode(setup());

describe('deep links', () => {
  it('parses exactly what `hearth pair qr` prints (hearth://pair?code=…)', () => {
    const link = setupLink(code);
    expect(parseDeepLink(link)).toEqual({ kind: 'pair', code, setup: setup() });
    // hearth:pair?code=… (no slashes) is the same link.
    expect(parseDeepLink(`hearth:pair?code=${code}`)).toMatchObject({ kind: 'pair', code });
  });

  it('refuses an expired pairing code, naming the expiry', () => {
    expect(() => parseDeepLink(setupLink(code), 3_000_000)).toThrow(/expired/);
    expect(parseDeepLink(setupLink(code), 1_000_000)).toMatchObject({ kind: 'pair' });
  });

  it('parses a session link, decoding the key', () => {
    expect(parseDeepLink('hearth://session/agent%3Amain%3Amain')).toEqual({
      kind: 'session',
      sessionKey: 'agent:main:main',
    });
    expect(parseDeepLink('hearth://session/agent:work:telegram-42/')).toEqual({
      kind: 'session',
      sessionKey: 'agent:work:telegram-42',
    });
  });

  it.each([
    ['https://example.com/pair', /not a hearth:\/\/ link \(scheme is https\)/],
    ['hearth pair', /not a link/],
    ['hearth://', /no action/],
    ['hearth://delete-everything', /unknown action "delete-everything"/],
    ['hearth://pair', /missing "code" \(make one with `hearth pair qr`\)/],
    ['hearth://pair?code=', /missing "code"/],
    [`hearth://pair?code=${code}&code=${code}`, /"code" more than once/],
    [`hearth://pair?code=${code}&next=evil`, /unknown parameter "next"/],
    ['hearth://pair?gateway=wss://h:1&token=abcdefghijklmnopq', /unknown parameter "gateway"/],
    ['hearth://pair?code=not%20base64!', /not a setup code/],
    ['hearth://pair?code=bm90IGpzb24', /pair link: the setup code is damaged/],
    [`hearth://pair?code=${encodeSetupCode(setup({ tlsFingerprint: 'zz' }))}`, /no valid TLS fingerprint/],
    [`hearth://pair?code=${encodeSetupCode(setup({ urls: ['ws://h:1'] }))}`, /must be wss:\/\/ \(pinned TLS\)/],
    [`hearth://pair?code=${encodeSetupCode(setup({ urls: ['wss://u:p@h:1'] }))}`, /must not carry credentials/],
    [`hearth://pair?code=${encodeSetupCode(setup({ urls: ['nope'] }))}`, /address is not a URL/],
    [`hearth://pair/extra?code=${code}`, /unexpected path after pair/],
    ['hearth://session/', /exactly one key/],
    ['hearth://session/a/b', /exactly one key/],
    ['hearth://session/%E0%A4%A', /not valid percent-encoding/],
    ['hearth://session/..%2F..%2Fetc', /characters a session key cannot have/],
    [`hearth://session/${'a'.repeat(3000)}`, /longer than 2048/],
  ])('rejects %s with a clear reason', (link, reason) => {
    expect(() => parseDeepLink(link)).toThrow(DeepLinkError);
    expect(() => parseDeepLink(link)).toThrow(reason);
  });

  it('never throws anything but DeepLinkError, whatever the input', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.webUrl(),
          fc.string().map((s) => `hearth://${s}`),
        ),
        (link) => {
          try {
            parseDeepLink(link);
          } catch (error) {
            expect(error).toBeInstanceOf(DeepLinkError);
          }
        },
      ),
    );
  });

  it('finds the link among command-line arguments', () => {
    expect(findDeepLinkArg(['/opt/Hearth/hearth', '--no-sandbox', 'hearth://session/main'])).toBe(
      'hearth://session/main',
    );
    expect(findDeepLinkArg(['/opt/Hearth/hearth'])).toBeUndefined();
  });
});
