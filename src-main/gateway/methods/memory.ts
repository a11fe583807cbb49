import { type Disposable, DisposableStore } from '../../base/disposable.js';
import {
  type LocalModels,
  listMemoryFiles,
  type MemoryService,
  readMemoryFile,
  writeMemoryFile,
} from '../../memory/index.js';
import { GatewayError } from '../../protocol/index.js';
import type { MemoryStatusResult } from '../../protocol/methods/memory.js';
import type { MethodRouter } from '../method-router.js';

export interface MemoryMethodsDeps {
  memory: MemoryService;
  defaultAgentId?: string;
  /** Query rewrite's calls and tokens so far (memory.status.queryRewrite). */
  queryRewrite?(): NonNullable<MemoryStatusResult['queryRewrite']>;
}

/** Turns capability errors (bad path, missing user in per-user scope) into client errors. */
export async function asClientError<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof GatewayError) throw error;
    const message = error instanceof Error ? error.message : String(error);
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      throw new GatewayError('NOT_FOUND', 'memory file not found');
    throw new GatewayError('INVALID_REQUEST', message);
  }
}

export function registerMemoryMethods(router: MethodRouter, deps: MemoryMethodsDeps): Disposable {
  const store = new DisposableStore();
  const agent = (id?: string) => id ?? deps.defaultAgentId ?? 'main';

  store.add(
    router.handle('memory.search', (params) =>
      asClientError(async () => {
        const engine = await deps.memory.engine(agent(params.agentId));
        const scope = engine.scopeFor(params.userId);
        // Searches from the UI are previews: they do not count as recalls for Dreaming.
        const results = await engine.search(params.query, {
          scope,
          k: params.k,
          minScore: params.minScore,
          record: false,
        });
        return { results };
      }),
    ),
  );
  store.add(
    router.handle('memory.files.list', (params) =>
      asClientError(async () => {
        const engine = await deps.memory.engine(agent(params.agentId));
        return { files: await listMemoryFiles(engine.workspaceDir) };
      }),
    ),
  );
  store.add(
    router.handle('memory.file.get', (params) =>
      asClientError(async () => {
        const engine = await deps.memory.engine(agent(params.agentId));
        return { path: params.path, content: await readMemoryFile(engine.workspaceDir, params.path) };
      }),
    ),
  );
  store.add(
    router.handle('memory.file.set', (params) =>
      asClientError(async () => {
        const engine = await deps.memory.engine(agent(params.agentId));
        await writeMemoryFile(engine.workspaceDir, params.path, params.content);
        void engine.sync().catch(() => undefined);
        return { ok: true as const, path: params.path };
      }),
    ),
  );
  store.add(
    router.handle('memory.status', (params) =>
      asClientError(async () => {
        const status = await (await deps.memory.engine(agent(params.agentId))).status();
        const queryRewrite = deps.queryRewrite?.();
        return { ...status, ...(queryRewrite ? { queryRewrite } : {}) };
      }),
    ),
  );
  return store;
}

export interface MemoryModelMethodsDeps {
  models: LocalModels;
}

/** `memory.model.*`: the local embedding models — what there is, and installing one (progress as events). */
export function registerMemoryModelMethods(router: MethodRouter, deps: MemoryModelMethodsDeps): Disposable {
  const store = new DisposableStore();
  store.add(
    router.handle('memory.model.list', () => asClientError(async () => ({ models: await deps.models.list() }))),
  );
  store.add(router.handle('memory.model.status', async () => deps.models.status()));
  store.add(
    router.handle('memory.model.install', (params) =>
      asClientError(async () => deps.models.start(params.name, { activate: params.activate })),
    ),
  );
  return store;
}
