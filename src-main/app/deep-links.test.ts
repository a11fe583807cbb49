import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DeepLinkError, findDeepLinkArg, parseDeepLink } from './deep-links.js';

const token = 'abcdefghijklmnop_QRST-1234';
const fp = 'a'.repeat(64);

describe('deep links', () => {
  it('parses a pairing link', () => {
    expect(
      parseDeepLink(`hearth://pair?gateway=wss://home.example:18790&token=${token}&fingerprint=sha256:${fp}`),
    ).toEqual({
      kind: 'pair',
      gatewayUrl: 'wss://home.example:18790',
      token,
      fingerprint: `sha256:${fp}`,
    });
    expect(parseDeepLink(`hearth://pair?gateway=ws%3A%2F%2F192.168.1.5%3A18790&token=${token}`)).toEqual({
      kind: 'pair',
      gatewayUrl: 'ws://192.168.1.5:18790',
      token,
    });
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
    [`hearth://pair?token=${token}`, /missing "gateway"/],
    ['hearth://pair?gateway=wss://h:1', /missing "token"/],
    [`hearth://pair?gateway=https://h:1&token=${token}`, /must be ws:\/\/ or wss:\/\//],
    [`hearth://pair?gateway=wss://u:p@h:1&token=${token}`, /must not carry credentials/],
    [`hearth://pair?gateway=nope&token=${token}`, /gateway is not a URL/],
    ['hearth://pair?gateway=wss://h:1&token=short', /token must be 16–512 characters/],
    [`hearth://pair?gateway=wss://h:1&token=${token}&token=${token}`, /"token" more than once/],
    [`hearth://pair?gateway=wss://h:1&token=${token}&next=evil`, /unknown parameter "next"/],
    [`hearth://pair?gateway=wss://h:1&token=${token}&fingerprint=zz`, /fingerprint must be a SHA-256/],
    [`hearth://pair?gateway=ws://h:1&token=${token}&fingerprint=${fp}`, /fingerprint but its gateway is not wss/],
    [`hearth://pair/extra?gateway=wss://h:1&token=${token}`, /unexpected path after pair/],
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
