import { type Disposable, DisposableStore } from '../../base/disposable.js';
import type { DreamSummary, MemoryService, ScoredCandidate } from '../../memory/index.js';
import type { DreamCandidateInfo, DreamsRunResult } from '../../protocol/methods/dreams.js';
import type { MethodRouter } from '../method-router.js';
import { asClientError } from './memory.js';

export interface DreamsMethodsDeps {
  memory: MemoryService;
  defaultAgentId?: string;
}

function candidateInfo(candidate: ScoredCandidate): DreamCandidateInfo {
  const { score, ...signals } = candidate.signals;
  return {
    text: candidate.text,
    path: candidate.path,
    line: candidate.line,
    recalls: candidate.recalls,
    uniqueQueries: candidate.uniqueQueries,
    score,
    signals: { ...signals },
    failures: candidate.failures,
    withdrawn: candidate.withdrawn,
  };
}

function runResult(summary: DreamSummary): DreamsRunResult {
  return {
    day: summary.day,
    applied: summary.applied,
    notesSeen: summary.notesSeen,
    recalls: summary.recalls,
    reflections: summary.reflections,
    truths: summary.truths,
    candidates: summary.candidates.map(candidateInfo),
    promoted: summary.promoted,
    mode: summary.mode,
    queued: summary.queued.map(({ id, text }) => ({ id, text })),
  };
}

export function registerDreamsMethods(router: MethodRouter, deps: DreamsMethodsDeps): Disposable {
  const store = new DisposableStore();
  const resolve = async (agentId?: string, userId?: string) => {
    const id = agentId ?? deps.defaultAgentId ?? 'main';
    const engine = await deps.memory.engine(id);
    return { id, scope: engine.scopeFor(userId) };
  };
  store.add(
    router.handle('dreams.status', (params) =>
      asClientError(async () => {
        const { id, scope } = await resolve(params.agentId, params.userId);
        return deps.memory.dreamStatus(id, scope);
      }),
    ),
  );
  store.add(
    router.handle('dreams.run', (params) =>
      asClientError(async () => {
        const { id, scope } = await resolve(params.agentId, params.userId);
        const configured = deps.memory.config.dreaming.review ? 'review' : 'preview';
        const mode = params.apply ? 'apply' : params.review ? 'review' : configured;
        return runResult(await deps.memory.dream(id, scope, mode));
      }),
    ),
  );
  store.add(
    router.handle('dreams.clearStalled', (params) =>
      asClientError(async () => {
        const { id, scope } = await resolve(params.agentId, params.userId);
        return { run: await deps.memory.clearStalledDream(id, scope, params.runId) };
      }),
    ),
  );
  store.add(
    router.handle('dreams.candidates', (params) =>
      asClientError(async () => {
        const { id, scope } = await resolve(params.agentId, params.userId);
        return { candidates: (await deps.memory.candidates(id, scope)).candidates.map(candidateInfo) };
      }),
    ),
  );
  store.add(
    router.handle('dreams.pending', (params) =>
      asClientError(async () => {
        const { id, scope } = await resolve(params.agentId, params.userId);
        return { candidates: await deps.memory.pending(id, scope) };
      }),
    ),
  );
  store.add(
    router.handle('dreams.review', (params) =>
      asClientError(async () => {
        const { id, scope } = await resolve(params.agentId, params.userId);
        return deps.memory.review(id, scope, { approve: params.approve, reject: params.reject });
      }),
    ),
  );
  store.add(
    router.handle('dreams.explain', (params) =>
      asClientError(async () => {
        const { id, scope } = await resolve(params.agentId, params.userId);
        return { lines: await deps.memory.explain(id, scope, params.text) };
      }),
    ),
  );
  return store;
}
