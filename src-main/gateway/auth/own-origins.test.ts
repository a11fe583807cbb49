import { describe, expect, it } from 'vitest';
import { createListenerNames } from '../listener-names.js';
import { DESKTOP_APP_ORIGIN, isOwnOrigin, type OwnOriginPolicy } from './own-origins.js';

function policy(bindHost: string, port: number, tls: boolean, extra: string[] = []): OwnOriginPolicy {
  return {
    tls,
    names: createListenerNames({
      bindHost,
      port: () => port,
      tls,
      hostnames: ['hearth.example.lan'],
      interfaceAddresses: () => ['192.168.1.20', 'fe80::1'],
      machineName: () => 'desk',
    }),
    extraOrigins: extra,
  };
}

describe('own origins', () => {
  const loopback = policy('127.0.0.1', 18790, false, [DESKTOP_APP_ORIGIN]);
  const lan = policy('0.0.0.0', 18791, true);

  it('are the listener scheme, its own names and its port', () => {
    for (const origin of [
      'http://127.0.0.1:18790',
      'http://localhost:18790',
      'http://LOCALHOST:18790',
      'http://[::1]:18790',
    ])
      expect(isOwnOrigin(origin, loopback), origin).toBe(true);
    for (const origin of ['https://192.168.1.20:18791', 'https://hearth.example.lan:18791', 'https://desk:18791'])
      expect(isOwnOrigin(origin, lan), origin).toBe(true);
    expect(isOwnOrigin(DESKTOP_APP_ORIGIN, loopback)).toBe(true);
  });

  it('are nothing else: other ports, schemes, names, opaque or malformed origins', () => {
    const foreign = [
      'http://127.0.0.1:18791',
      'https://127.0.0.1:18790',
      'http://localhost:5173',
      'http://evil.example:18790',
      'http://127.0.0.1.evil.example:18790',
      'http://localhost.:18790.evil.example',
      'null',
      '',
      'file://',
      'http://user@127.0.0.1:18790',
      'http://127.0.0.1:18790/path',
      'http://127.0.0.1:18790?x',
      'ws://127.0.0.1:18790',
      'app://hearth.evil',
    ];
    for (const origin of foreign) expect(isOwnOrigin(origin, loopback), origin).toBe(false);
    // The desktop origin only where the desktop is, and plain http is not the LAN listener's.
    expect(isOwnOrigin(DESKTOP_APP_ORIGIN, lan)).toBe(false);
    expect(isOwnOrigin('http://192.168.1.20:18791', lan)).toBe(false);
    expect(isOwnOrigin('https://192.168.1.99:18791', lan)).toBe(false);
  });
});
