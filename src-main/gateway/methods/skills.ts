import { type Disposable, DisposableStore } from '../../base/disposable.js';
import { invalidRequest, notFound } from '../../protocol/index.js';
import type { SkillInfo } from '../../protocol/methods/skills.js';
import { type SkillEntry, SkillError, type SkillService } from '../../skills/index.js';
import type { MethodRouter } from '../method-router.js';

export function skillInfo(entry: SkillEntry): SkillInfo {
  return {
    name: entry.name,
    description: entry.description,
    origin: entry.origin,
    files: entry.files,
    hasScripts: entry.hasScripts,
    enabled: entry.enabled,
    pinned: entry.pinned,
    stale: entry.stale,
    uses: entry.usage.count,
    ...(entry.usage.lastUsedAt !== undefined ? { lastUsedAt: entry.usage.lastUsedAt } : {}),
  };
}

async function asWireError<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof SkillError)
      throw error.code === 'not_found' ? notFound(error.message) : invalidRequest(error.message);
    throw error;
  }
}

/** `skills.*`: the Skills view's and `hearth skills`' list, read, enable/disable per agent, pin, approve/reject. */
export function registerSkillsMethods(router: MethodRouter, skills: SkillService, defaultAgentId = 'main'): Disposable {
  const store = new DisposableStore();
  const agentOf = (params: { agentId?: string }) => params.agentId ?? defaultAgentId;
  store.add(
    router.handle('skills.list', (params) =>
      asWireError(async () => {
        const agentId = agentOf(params);
        const [entries, pending] = await Promise.all([skills.list(agentId), skills.pending()]);
        return { agentId, skills: entries.map(skillInfo), proposals: pending };
      }),
    ),
  );
  store.add(
    router.handle('skills.get', (params) =>
      asWireError(async () => {
        const { skill, text } = await skills.view(agentOf(params), params.name);
        return { skill: skillInfo(skill), text };
      }),
    ),
  );
  for (const [method, enabled] of [
    ['skills.enable', true],
    ['skills.disable', false],
  ] as const)
    store.add(
      router.handle(method, (params) =>
        asWireError(async () => ({ skill: skillInfo(await skills.setEnabled(agentOf(params), params.name, enabled)) })),
      ),
    );
  store.add(
    router.handle('skills.pin', (params) =>
      asWireError(async () => ({
        skill: skillInfo(await skills.setPinned(agentOf(params), params.name, params.pinned ?? true)),
      })),
    ),
  );
  store.add(
    router.handle('skills.approve', (params) =>
      asWireError(async () => {
        const pending = (await skills.pending()).find((p) => p.id === params.id);
        const approved = await skills.approve(params.id);
        return { name: approved.name, agentId: pending?.agentId ?? defaultAgentId };
      }),
    ),
  );
  store.add(router.handle('skills.reject', (params) => asWireError(() => skills.reject(params.id))));
  return store;
}
