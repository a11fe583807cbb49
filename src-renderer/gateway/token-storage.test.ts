import { describe, expect, it } from 'vitest';
import { LEGACY_TOKEN_KEY, takeGatewayToken } from './token-storage.js';

function memoryStorage(initial: Record<string, string> = {}) {
  const map = new Map<string, string>(Object.entries(initial));
  return {
    map,
    getItem: (k: string) => map.get(k) ?? null,
    setItem: (k: string, v: string) => void map.set(k, v),
    removeItem: (k: string) => void map.delete(k),
  };
}

describe('gateway token', () => {
  it('takes the token from #token= and clears it from the address bar, storing nothing', () => {
    const storage = memoryStorage();
    let cleared = false;
    expect(takeGatewayToken({ hash: '#token=abc123', storage, clearHash: () => (cleared = true) })).toBe('abc123');
    expect(cleared).toBe(true);
    expect([...storage.map.keys()]).toEqual([]);
    // A reload has no fragment: the token is gone (the device key signs in from now on).
    expect(takeGatewayToken({ hash: '', storage, clearHash: () => {} })).toBeUndefined();
  });

  it('removes the copy older versions left in localStorage', () => {
    const storage = memoryStorage({ [LEGACY_TOKEN_KEY]: 'old-token', other: 'kept' });
    expect(takeGatewayToken({ hash: '', storage, clearHash: () => {} })).toBeUndefined();
    expect([...storage.map.keys()]).toEqual(['other']);
  });

  it('scrubs even an empty #token= and returns nothing for it', () => {
    let cleared = false;
    expect(takeGatewayToken({ hash: '#token=', clearHash: () => (cleared = true) })).toBeUndefined();
    expect(cleared).toBe(true);
  });
});
