import { describe, expect, it } from 'vitest';
import { readGatewayToken, saveGatewayToken } from './token-storage.js';

function memoryStorage() {
  const map = new Map<string, string>();
  return {
    getItem: (k: string) => map.get(k) ?? null,
    setItem: (k: string, v: string) => void map.set(k, v),
    removeItem: (k: string) => void map.delete(k),
  };
}

describe('gateway token', () => {
  it('takes the token from #token=, keeps it, and clears it from the address bar', () => {
    const storage = memoryStorage();
    let cleared = false;
    expect(readGatewayToken({ hash: '#token=abc123', storage, clearHash: () => (cleared = true) })).toBe('abc123');
    expect(cleared).toBe(true);
    expect(readGatewayToken({ hash: '', storage, clearHash: () => {} })).toBe('abc123');
  });

  it('has no token when neither the fragment nor storage holds one, and forgets a blank one', () => {
    const storage = memoryStorage();
    expect(readGatewayToken({ hash: '#token=', storage, clearHash: () => {} })).toBeUndefined();
    saveGatewayToken({ storage }, 'x');
    saveGatewayToken({ storage }, '  ');
    expect(readGatewayToken({ hash: '', storage, clearHash: () => {} })).toBeUndefined();
  });
});
