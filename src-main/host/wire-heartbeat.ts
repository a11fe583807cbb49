import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RuntimeServices } from '../agent/index.js';
import type { Clock } from '../base/clock.js';
import { type AsyncDisposable, type Disposable, DisposableStore, toDisposable } from '../base/disposable.js';
import type { Logger } from '../base/logger.js';
import type { ConfigService } from '../config/index.js';
import type { GatewayCore } from '../gateway/gateway-core.js';
import {
  createHeartbeat,
  type HeartbeatConfig,
  type HeartbeatService,
  heartbeatSettingsOf,
  parseHeartbeatConfig,
} from '../heartbeat/index.js';
import type { HearthPaths } from '../paths/index.js';
import type { HeartbeatLastResult, HeartbeatStatus } from '../protocol/methods/gateway.js';

/**
 * The heartbeat's own named session (never the person's main chat, whose history it would grow
 * and whose prompt cache it would break): each due beat continues it, so the model knows what it
 * already said.
 */
export function heartbeatSessionKey(agentId: string): string {
  return `agent:${agentId}:heartbeat`;
}

/**
 * The heartbeat (issue 16): every `heartbeat.intervalMinutes` a free pre-check over the agent's
 * HEARTBEAT.md and the cron jobs that failed since the last beat; only when it finds something
 * does one `heartbeat` run (HEARTBEAT.md as its only bootstrap file, the background lane) call
 * the model. Every beat ends with a `heartbeat` event; `status.heartbeat` is this state.
 * A change of the `heartbeat` config section restarts the timer with the new settings.
 */
export function wireHeartbeat(deps: {
  core: Pick<GatewayCore, 'bus' | 'statusSections'>;
  config: Pick<ConfigService, 'current' | 'onDidChange'>;
  paths: Pick<HearthPaths, 'workspaceDir'>;
  clock: Clock;
  log: Logger;
  services: RuntimeServices;
}): AsyncDisposable {
  const { core, config, clock } = deps;
  const log = deps.log.child({ part: 'heartbeat' });
  const root = new DisposableStore();
  const active = new Map<string, string>();
  let problem: string | undefined;
  let lastResult: HeartbeatLastResult | undefined;

  const read = (): HeartbeatConfig => {
    try {
      problem = undefined;
      return parseHeartbeatConfig(config.current.heartbeat);
    } catch (error) {
      problem = error instanceof Error ? error.message : String(error);
      return parseHeartbeatConfig({ enabled: false });
    }
  };
  let settings = read();

  // Failed cron runs, noticed from the bus: a failure is a reason for the next beat, once.
  const failures: { name: string; atMs: number }[] = [];
  root.add(
    core.bus.onDidPublish(({ event, payload }) => {
      if (event !== 'cron.changed') return;
      const change = payload as { reason: string; status?: string; name?: string };
      if (change.reason === 'run' && change.status === 'error' && change.name) {
        failures.push({ name: change.name, atMs: clock.now() });
        // With the heartbeat off nothing reads them: keep the newest few, never an unbounded list.
        if (failures.length > 100) failures.splice(0, failures.length - 100);
      }
    }),
  );
  const failedJobs = (sinceMs: number): string[] => {
    const names = [...new Set(failures.filter((failure) => failure.atMs >= sinceMs).map((failure) => failure.name))];
    failures.splice(0, failures.length);
    return names;
  };

  const runTurn = async (prompt: string) => {
    const { runtime } = deps.services;
    const sessionKey = heartbeatSessionKey(settings.agentId);
    const runId = `heartbeat-${randomUUID()}`;
    runtime.start({
      runId,
      sessionKey,
      message: prompt,
      runKind: 'heartbeat',
      lane: 'cron',
      timeoutMs: settings.runTimeoutMs,
    });
    active.set(runId, sessionKey);
    const run = await runtime.wait(runId).finally(() => active.delete(runId));
    if (run?.status !== 'ok')
      throw new Error(run?.error?.message ?? `the heartbeat turn ended ${run?.status ?? 'unseen'}`);
    return { reply: run.text, sessionKey };
  };

  const start = (): { service: HeartbeatService; listener: Disposable } => {
    const service = createHeartbeat({
      clock,
      log,
      settings: () => heartbeatSettingsOf(settings),
      readChecklist: () =>
        readFile(join(deps.paths.workspaceDir(settings.agentId), 'HEARTBEAT.md'), 'utf8').catch(() => ''),
      // Channels and watched files will count here once they exist; today the bus has none for us.
      pendingEvents: () => 0,
      failedJobs,
      runTurn,
      // The beat's `heartbeat` event (below) carries the reply to connected clients.
      deliver: () => {},
    });
    const listener = service.onDidBeat((result) => {
      lastResult = result;
      core.bus.publish('heartbeat', { ...result, agentId: settings.agentId });
    });
    return { service, listener };
  };
  let current = start();
  const stop = () => {
    current.listener.dispose();
    current.service.dispose();
  };
  root.add(
    config.onDidChange(['heartbeat'], () => {
      settings = read();
      stop();
      current = start();
      log.info('heartbeat settings changed', { enabled: settings.enabled, intervalMinutes: settings.intervalMinutes });
    }),
  );

  core.statusSections.heartbeat = (): HeartbeatStatus => {
    const state = current.service.state();
    return {
      enabled: settings.enabled,
      ...(state.lastBeatAtMs !== undefined ? { lastAt: state.lastBeatAtMs } : {}),
      intervalMs: settings.intervalMinutes * 60_000,
      ...(settings.enabled && state.nextBeatAtMs !== undefined ? { nextAt: state.nextBeatAtMs } : {}),
      ...(settings.activeHours ? { activeHours: settings.activeHours } : {}),
      ...(settings.tz ? { tz: settings.tz } : {}),
      agentId: settings.agentId,
      turns: state.turns,
      quietBeats: state.quietBeats,
      ...(lastResult ? { lastResult } : {}),
      problems: problem ? [problem, ...state.problems] : state.problems,
    };
  };
  root.add(
    toDisposable(() => {
      delete core.statusSections.heartbeat;
    }),
  );

  return {
    dispose: async () => {
      root.dispose();
      stop();
      // A running heartbeat turn is aborted so shutdown does not wait on the model.
      for (const [runId, sessionKey] of active) deps.services.runtime.abort(sessionKey, runId);
    },
  };
}
