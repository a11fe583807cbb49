import { describe, expect, it } from 'vitest';
import { type Disposable, DisposableStore } from '../base/disposable.js';
import { silentLogger } from '../base/logger.js';
import type { CallerIdentity } from '../gateway/caller.js';
import { type CallContext, MethodRegistry } from '../gateway/method-router.js';
import { PluginRegistry } from '../plugins/index.js';
import { ensureNoDisposablesAreLeakedInTestSuite } from '../testing/leak-check.js';
import { wirePluginMethods } from './wire-plugin-methods.js';

function call(scopes: string[]): CallContext {
  const caller: CallerIdentity = {
    connId: 'c1',
    role: 'operator',
    scopes,
    clientId: 'test',
    clientMode: 'cli',
    authMethod: 'token',
    isLocal: true,
    caps: [],
  };
  return { caller, requestId: 'r1', signal: new AbortController().signal, acknowledge: () => {} };
}

/** A registry with one plugin's registrations, and a store that ends them (the loader's job in the host). */
function pluginsWith(register: (api: ReturnType<PluginRegistry['apiFor']>) => Disposable[]): {
  plugins: PluginRegistry;
  registrations: DisposableStore;
} {
  const plugins = new PluginRegistry();
  const registrations = new DisposableStore();
  for (const registration of register(plugins.apiFor('weather', {}, silentLogger))) registrations.add(registration);
  return { plugins, registrations };
}

describe('plugin registrations', () => {
  ensureNoDisposablesAreLeakedInTestSuite();

  it('routes a plugin method through the router, with its scope checked like a built-in one', async () => {
    const seen: unknown[] = [];
    const { plugins, registrations } = pluginsWith((api) => [
      api.registerGatewayMethod({
        name: 'forecast',
        scope: 'operator.read',
        handle: (params, caller) => {
          seen.push({ params, caller });
          return { sunny: true };
        },
      }),
      api.registerGatewayMethod({ name: 'reset', handle: () => ({ ok: true }) }),
    ]);
    const router = new MethodRegistry();
    const wired = wirePluginMethods(router, plugins);
    expect(router.implementedMethods()).toEqual(expect.arrayContaining(['weather.forecast', 'weather.reset']));

    expect(await router.dispatch('weather.forecast', { city: 'Oslo' }, call(['operator.read']))).toEqual({
      ok: true,
      payload: { sunny: true },
    });
    expect(seen).toEqual([{ params: { city: 'Oslo' }, caller: { connId: 'c1', scopes: ['operator.read'] } }]);
    // No scope stated: admin only.
    expect(await router.dispatch('weather.reset', {}, call(['operator.read']))).toMatchObject({
      ok: false,
      error: { code: 'FORBIDDEN', details: { missingScope: 'operator.admin' } },
    });

    wired.dispose();
    registrations.dispose();
    expect(await router.dispatch('weather.forecast', {}, call(['operator.admin']))).toMatchObject({
      ok: false,
      error: { message: 'unknown method: weather.forecast' },
    });
  });

  it('goes through the same write budget and shutdown gate as built-in methods', async () => {
    const { plugins, registrations } = pluginsWith((api) => [
      api.registerGatewayMethod({ name: 'forecast', handle: () => 'never' }),
    ]);
    const router = new MethodRegistry({
      beforeCall: (method) => ({
        ok: false,
        error: { code: 'UNAVAILABLE', message: `${method}: gateway is shutting down` },
      }),
    });
    const wired = wirePluginMethods(router, plugins);
    expect(await router.dispatch('weather.forecast', {}, call(['operator.admin']))).toEqual({
      ok: false,
      error: { code: 'UNAVAILABLE', message: 'weather.forecast: gateway is shutting down' },
    });
    wired.dispose();
    registrations.dispose();
  });

  it('keeps a channel for the channel host and a CLI backend for the CLI engines, each id once', () => {
    const plugins = new PluginRegistry();
    const api = plugins.apiFor('telegram', {}, silentLogger);
    const registration = api.registerChannel({ id: 'telegram', create: () => ({}) as never });
    expect(plugins.list('channel')).toEqual([{ pluginId: 'telegram', id: 'telegram' }]);
    expect(() => api.registerChannel({ id: 'telegram', create: () => ({}) as never })).toThrow(/already registered/);
    const backend = api.registerCliBackend({ id: 'claude', create: () => ({}) as never });
    expect(plugins.list('cli-backend')).toEqual([{ pluginId: 'telegram', id: 'claude' }]);
    expect(() => api.registerCliBackend({ id: 'claude', create: () => ({}) as never })).toThrow(
      'plugin telegram: cli-backend "claude" is already registered by telegram',
    );
    registration.dispose();
    backend.dispose();
    expect(plugins.list('channel')).toEqual([]);
    expect(plugins.list('cli-backend')).toEqual([]);
  });
});
