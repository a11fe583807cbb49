import { type Disposable, toDisposable } from '../base/disposable.js';
import type { HearthConfigService } from './hearth-config.js';

/** The agents a host serves: `main` (always there, even with no list) plus every `agents.list[].id`, in that order. */
export function configuredAgentIds(agents: { list: readonly { id: string }[] }): string[] {
  const ids = ['main'];
  for (const entry of agents.list) if (!ids.includes(entry.id)) ids.push(entry.id);
  return ids;
}

/**
 * Runs `start` once for every configured agent, and again for each agent a config reload adds.
 * What `start` returns is disposed when that agent leaves the config, or when this is disposed;
 * per-agent upkeep (file watchers, seeding) then follows hearth.json without a restart.
 */
export function followAgents(
  config: Pick<HearthConfigService, 'current' | 'onDidChange'>,
  start: (agentId: string) => Disposable | undefined,
): Disposable {
  const running = new Map<string, Disposable | undefined>();
  const reconcile = () => {
    const wanted = configuredAgentIds(config.current.agents);
    for (const [agentId, handle] of running) {
      if (wanted.includes(agentId)) continue;
      running.delete(agentId);
      handle?.dispose();
    }
    for (const agentId of wanted) if (!running.has(agentId)) running.set(agentId, start(agentId));
  };
  reconcile();
  const listener = config.onDidChange(['agents'], reconcile);
  return toDisposable(() => {
    listener.dispose();
    for (const handle of running.values()) handle?.dispose();
    running.clear();
  });
}
