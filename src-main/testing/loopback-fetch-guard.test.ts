import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { holdLoopbackFetchGuard, isLoopbackHost, type LoopbackFetchGuard } from './loopback-fetch-guard.js';

describe('loopback fetch guard', () => {
  const guards: LoopbackFetchGuard[] = [];
  const hold = () => {
    const guard = holdLoopbackFetchGuard();
    guards.push(guard);
    return guard;
  };
  afterEach(() => {
    for (const guard of guards.splice(0)) guard.release();
  });

  it('refuses a real provider before any connection, naming the URL, and records it', async () => {
    const guard = hold();
    await expect(fetch('https://api.anthropic.com/v1/models')).rejects.toThrow(
      'test host refused a request to https://api.anthropic.com/v1/models: tests stay on loopback',
    );
    await expect(fetch(new URL('http://10.0.0.5:8000/v1/models'))).rejects.toThrow(/10\.0\.0\.5/);
    await expect(fetch(new Request('https://openrouter.ai/api/v1/models'))).rejects.toThrow(/openrouter\.ai/);
    expect(guard.refused).toEqual([
      'https://api.anthropic.com/v1/models',
      'http://10.0.0.5:8000/v1/models',
      'https://openrouter.ai/api/v1/models',
    ]);
  });

  it('lets loopback through, and every guard held sees a refusal', async () => {
    const server = createServer((_req, res) => res.end('here'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const first = hold();
      const second = hold();
      const { port } = server.address() as AddressInfo;
      expect(await (await fetch(`http://127.0.0.1:${port}/`)).text()).toBe('here');
      await expect(fetch('https://api.deepseek.com/v1/models')).rejects.toThrow(/tests stay on loopback/);
      expect(first.refused).toEqual(['https://api.deepseek.com/v1/models']);
      expect(second.refused).toEqual(first.refused);
    } finally {
      server.close();
    }
  });

  it('puts the original fetch back when the last guard is released; a captured guarded fetch still refuses', async () => {
    const original = globalThis.fetch;
    const first = hold();
    const second = hold();
    const captured = globalThis.fetch;
    expect(captured).not.toBe(original);
    first.release();
    expect(globalThis.fetch).toBe(captured);
    second.release();
    expect(globalThis.fetch).toBe(original);
    await expect(captured('https://api.anthropic.com/')).rejects.toThrow(/tests stay on loopback/);
  });

  it('knows loopback from the rest', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', 'localhost', 'app.localhost', '[::1]', '::ffff:127.0.0.1'])
      expect(isLoopbackHost(host), host).toBe(true);
    for (const host of ['10.0.0.5', '192.168.1.2', '0.0.0.0', 'api.anthropic.com', '127.0.0.1.nip.io', '[::]'])
      expect(isLoopbackHost(host), host).toBe(false);
  });
});
