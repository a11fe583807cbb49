import type { Disposable } from '../../base/disposable.js';
import { DisposableStore } from '../../base/disposable.js';
import { notFound } from '../../protocol/index.js';
import type { ApiTokenStore } from '../auth/api-tokens.js';
import { assertHoldsScopes, assertPerson } from '../auth/grant-policy.js';
import type { MethodRouter } from '../method-router.js';

/**
 * tokens.*: API tokens for the HTTP doors. Minting one lets a program in, so it is a person's
 * act (as approving a device is) and never reaches past the minter's own scopes
 * (grant-policy.ts). Revoking takes effect on the token's next request.
 */
export function registerTokensMethods(router: MethodRouter, store: ApiTokenStore): Disposable {
  const registered = new DisposableStore();
  registered.add(
    router.handle('tokens.create', async ({ name, scopes, expiresAtMs }, call) => {
      assertPerson(call.caller, 'minting an API token');
      assertHoldsScopes(call.caller, scopes, 'approve');
      return store.create({ name, scopes, expiresAtMs });
    }),
  );
  registered.add(router.handle('tokens.list', () => ({ tokens: store.list() })));
  registered.add(
    router.handle('tokens.revoke', async ({ id }) => {
      const revoked = await store.revoke(id);
      if (!revoked)
        throw notFound(`unknown API token: ${id} (see \`hearth tokens list\`)`, { reason: 'TOKEN_NOT_FOUND' });
      return { revoked };
    }),
  );
  return registered;
}
