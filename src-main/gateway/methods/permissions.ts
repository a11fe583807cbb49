import { type Disposable, DisposableStore } from '../../base/disposable.js';
import type { ApprovalService, PermissionStore } from '../../exec/index.js';
import { notFound } from '../../protocol/index.js';
import type { MethodRouter } from '../method-router.js';

export interface PermissionsMethodsDeps {
  /** "Allow always" rules of every tool. */
  store: PermissionStore;
  /** "Allow for this session" grants. */
  approvals: Pick<ApprovalService, 'sessionGrants' | 'revokeSessionGrant'>;
}

/**
 * `permissions.list` (operator.read): every "allow always" rule with its scope, origin and expiry,
 * and the session grants; `permissions.revoke {id}` (operator.approvals): the rule stops applying
 * at the next call, which asks again.
 */
export function registerPermissionsMethods(router: MethodRouter, deps: PermissionsMethodsDeps): Disposable {
  const store = new DisposableStore();
  store.add(
    router.handle('permissions.list', () => ({
      rules: deps.store.list(),
      session: deps.approvals.sessionGrants(),
    })),
  );
  store.add(
    router.handle('permissions.revoke', async ({ id }) => {
      const grant = deps.approvals.sessionGrants().find((candidate) => candidate.id === id);
      if (grant && deps.approvals.revokeSessionGrant(id)) return { revoked: grant };
      const rule = await deps.store.revoke(id);
      if (!rule)
        throw notFound(`no permission rule ${id} (it was revoked, expired, or never existed; see permissions.list)`, {
          reason: 'PERMISSION_NOT_FOUND',
          id,
        });
      return { revoked: rule };
    }),
  );
  return store;
}
