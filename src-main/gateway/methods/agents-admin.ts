import type { Disposable } from '../../base/index.js';
import { DisposableStore } from '../../base/index.js';
import { type PersonaFileInfo, personaFileNames } from '../../protocol/methods/agents-admin.js';
import type { PersonaFile, Roster } from '../../roster/index.js';
import type { MethodRouter } from '../method-router.js';

// The roster checks each name against the protocol's list: these are always among them.
const persona = (file: PersonaFile) => file as PersonaFileInfo;

/** `agents.create|update|delete|get` and `agents.files.*` (protocol/methods/agents-admin.ts) over the roster. */
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
  store.add(router.handle('agents.get', async ({ agentId }) => roster.get(agentId)));
  store.add(
    router.handle('agents.files.list', async ({ agentId }) => {
      const { workspace, files } = await roster.files(agentId, personaFileNames);
      return { agentId, workspace, files: files.map(persona) };
    }),
  );
  store.add(
    router.handle('agents.files.get', async ({ agentId, name }) => {
      const { workspace, file } = await roster.readFile(agentId, name);
      return { agentId, workspace, file: { ...persona(file), content: file.content } };
    }),
  );
  store.add(
    router.handle('agents.files.set', async ({ agentId, name, content }) => {
      const { workspace, file } = await roster.writeFile(agentId, name, content);
      return { ok: true as const, agentId, workspace, file: persona(file) };
    }),
  );
  return store;
}
