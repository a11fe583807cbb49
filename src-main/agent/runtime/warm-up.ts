import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Clock } from '../../base/clock.js';
import type { Logger } from '../../base/logger.js';
import { cannedWarmUpResponse, type ModelFactory, type ModelSelection, parseModelRef } from '../../providers/index.js';
import { runAgentLoop } from '../loop/agent-loop.js';

export interface WarmUpDeps {
  models: ModelFactory;
  modelSelection(agentId: string): ModelSelection | undefined;
  clock: Clock;
  log: Logger;
  newId(): string;
}

/**
 * Runs the real loop once per provider kind of the selected models against a throwaway
 * loopback server answering canned replies (no provider, no credential). It goes through the
 * real fetch on purpose: the HTTP client's first request is part of the cold cost. Never throws.
 */
export async function warmUpModels(deps: WarmUpDeps): Promise<string[]> {
  const selection = deps.modelSelection('main');
  if (!selection) return [];
  const warmed = new Set<string>();
  let server: Server | undefined;
  try {
    server = await startCannedServer();
    const port = (server.address() as AddressInfo).port;
    for (const ref of [selection.primary, ...selection.fallbacks]) {
      try {
        const parsed = parseModelRef(ref);
        const { service } = deps.models.provider(parsed.provider);
        if (!cannedWarmUpResponse(service.kind) || warmed.has(service.kind)) continue;
        const model = service.createModel(parsed.model, {
          providerId: parsed.provider,
          credential: { kind: 'api_key', value: 'warm-up' },
          baseURL: `http://127.0.0.1:${port}/${service.kind}/v1`,
          region: 'us-east-1',
          resourceName: 'warm-up',
        });
        const result = await runAgentLoop({
          model,
          modelRef: ref,
          history: [{ kind: 'user', id: deps.newId(), ts: deps.clock.now(), text: 'warm-up' }],
          tools: [],
          toolContext: { agentId: 'main', sessionKey: 'warm-up', workspaceDir: '.', log: deps.log },
          budget: { promptTokens: 8_000, contextWindow: 32_000, fixedTokens: 0 },
          signal: new AbortController().signal,
          log: deps.log,
          now: () => deps.clock.now(),
          newId: deps.newId,
          onEvent: () => {},
        });
        if (result.status === 'ok') warmed.add(service.kind);
        else deps.log.debug('warm-up call did not complete', { model: ref, status: result.status });
      } catch (error) {
        deps.log.debug('warm-up skipped', { model: ref, error: (error as Error).message });
      }
    }
  } catch (error) {
    deps.log.debug('warm-up server failed', { error: (error as Error).message });
  } finally {
    server?.closeAllConnections();
    server?.close();
  }
  return [...warmed];
}

/** Answers `/<kind>/…` with that kind's canned reply. Loopback only, closed right after the warm-up. */
function startCannedServer(): Promise<Server> {
  const server = createServer((req, res) => {
    req.resume();
    const kind = (req.url ?? '/').split('/')[1] ?? '';
    const canned = cannedWarmUpResponse(kind);
    if (!canned) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': canned.contentType }).end(canned.body);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}
