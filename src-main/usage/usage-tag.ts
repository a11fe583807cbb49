import { AsyncLocalStorage } from 'node:async_hooks';
import type { UsagePurpose } from '../protocol/methods/usage.js';

/** Who a model call is for: set where work starts, read where the call leaves the process. */
export interface UsageTag {
  purpose: UsagePurpose;
  agentId: string;
  sessionKey?: string;
  /**
   * The session a person asked in, for work it started elsewhere (a subagent's turns): the
   * usage summary counts such calls under that session so the cost shows where it was asked.
   */
  parentSessionKey?: string;
}

// Why module scope: the tag follows one async call chain (a turn, a Dreaming run) through code
// that knows nothing about usage (the context engine, memory, the judge). It holds no state of
// its own beyond that chain, so two hosts in one process never see each other's tags.
const storage = new AsyncLocalStorage<Partial<UsageTag>>();

/** Runs `work` with these fields over the surrounding tag (a judge inside a turn keeps its session). */
export function withUsageTag<T>(tag: Partial<UsageTag>, work: () => T): T {
  return storage.run({ ...storage.getStore(), ...definedFields(tag) }, work);
}

/** The tag of the current call chain; `other` / `main` where nothing set one. */
export function currentUsageTag(): UsageTag {
  const store = storage.getStore() ?? {};
  return {
    purpose: store.purpose ?? 'other',
    agentId: store.agentId ?? 'main',
    ...(store.sessionKey ? { sessionKey: store.sessionKey } : {}),
    ...(store.parentSessionKey ? { parentSessionKey: store.parentSessionKey } : {}),
  };
}

function definedFields(tag: Partial<UsageTag>): Partial<UsageTag> {
  return Object.fromEntries(Object.entries(tag).filter(([, value]) => value !== undefined)) as Partial<UsageTag>;
}
