import type { Disposable } from '../../base/index.js';
import { DisposableStore } from '../../base/index.js';
import type { Roster } from '../../roster/index.js';
import type { MethodRouter } from '../method-router.js';

/** `agents.create|update|delete` (protocol/methods/agents-admin.ts) over the roster. */
export function registerAgentsAdminMethods(router: MethodRouter, roster: Roster): Disposable {
  const store = new DisposableStore();
  store.add(
    router.handle('agents.create', async ({ id, name, ...settings }) => {
      const created = await roster.create({ ...settings, name, ...(id ? { id } : {}) });
      return {
        ok: true as const,
        agentId: created.agentId,
        name: name.trim(),
        workspace: created.workspace,
        ...(settings.model ? { model: settings.model } : {}),
      };
    }),
  );
  store.add(
    router.handle('agents.update', async ({ agentId, agentRuntime: _runtime, ...settings }) => {
      await roster.update(agentId, settings);
      return { ok: true as const, agentId };
    }),
  );
  store.add(
    router.handle('agents.delete', async ({ agentId, deleteFiles }) => ({
      ok: true as const,
      ...(await roster.remove(agentId, { deleteFiles })),
    })),
  );
  return store;
}
