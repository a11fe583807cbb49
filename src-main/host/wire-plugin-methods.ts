import { type Disposable, DisposableStore } from '../base/disposable.js';
import type { MethodRegistry } from '../gateway/method-router.js';
import type { PluginRegistry } from '../plugins/index.js';

/**
 * Plugins' gateway methods (`<pluginId>.<name>`) on the same router as the built-in ones: the
 * same role and scope check (admin unless the plugin asks for less), write budget and shutdown.
 */
export function wirePluginMethods(
  router: Pick<MethodRegistry, 'handleExtension'>,
  plugins: PluginRegistry,
): Disposable {
  const store = new DisposableStore();
  for (const { name, method } of plugins.gatewayMethods()) {
    store.add(
      router.handleExtension(name, { scope: method.scope ?? 'operator.admin' }, (params, call) =>
        method.handle(params, { connId: call.caller.connId, scopes: [...call.caller.scopes] }),
      ),
    );
  }
  return store;
}
