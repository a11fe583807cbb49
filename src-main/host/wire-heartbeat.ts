import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RuntimeServices } from '../agent/index.js';
import type { Clock } from '../base/clock.js';
import { type AsyncDisposable, type Disposable, DisposableStore, toDisposable } from '../base/disposable.js';
import type { Logger } from '../base/logger.js';
import type { GatewayEventBus } from '../gateway/event-bus.js';
import type { GatewayCore } from '../gateway/gateway-core.js';
import {
  type ChangedPathSource,
  createHeartbeat,
  createHeartbeatInbox,
  type HeartbeatConfig,
  type HeartbeatCounters,
  type HeartbeatEventSource,
  type HeartbeatService,
  heartbeatSettingsOf,
  parseHeartbeatConfig,
  readHeartbeatCounters,
  watchedFilesSource,
  writeHeartbeatCounters,
} from '../heartbeat/index.js';
import { nodeWatchSource } from '../memory/index.js';
import type { HearthPaths } from '../paths/index.js';
import type { ChatEvent } from '../protocol/index.js';
import type { HeartbeatLastResult, HeartbeatStatus } from '../protocol/methods/gateway.js';
import type { ChannelOutbox } from './channel-outbox.js';
import type { HearthConfigService } from './hearth-config.js';

/**
 * The heartbeat's own named session (never the person's main chat, whose history it would grow
 * and whose prompt cache it would break): each due beat continues it, so the model knows what it
 * already said.
 */
export function heartbeatSessionKey(agentId: string): string {
  return `agent:${agentId}:heartbeat`;
}

/**
 * Channel messages no turn answered, seen on the bus: a channel run (run id `channel:<id>:…`)
 * that ended in an error or was aborted. The person did not get an answer; the heartbeat may
 * tell them, or retry what the message asked.
 */
export function unansweredChannelMessages(bus: Pick<GatewayEventBus, 'onDidPublish'>): HeartbeatEventSource {
  return (onEvent) =>
    bus.onDidPublish(({ event, payload }) => {
      if (event !== 'chat') return;
      const chat = payload as ChatEvent;
      if (!chat.runId?.startsWith('channel:') || (chat.state !== 'error' && chat.state !== 'aborted')) return;
      const channel = chat.runId.split(':')[1] ?? 'a channel';
      const why = chat.state === 'error' ? chat.errorMessage : 'the turn was stopped';
      onEvent({ source: 'channel', detail: `${channel}: a message was not answered (${why})` });
    });
}

/**
 * The heartbeat (issue 16): every `heartbeat.intervalMinutes` a free pre-check over the agent's
 * HEARTBEAT.md and the cron jobs that failed since the last beat; only when it finds something
 * does one `heartbeat` run (HEARTBEAT.md as its only bootstrap file, the background lane) call
 * the model. Every beat ends with a `heartbeat` event; `status.heartbeat` is this state.
 * New events are reasons too: a channel message no turn answered, and a change to a file under
 * `heartbeat.watch` (memory's workspace watcher). The beat counters and the last result are kept
 * in `state/heartbeat.json`, so a restart continues them.
 * A change of the `heartbeat` config section restarts the timer with the new settings.
 */
export function wireHeartbeat(deps: {
  core: Pick<GatewayCore, 'bus' | 'statusSections'>;
  config: Pick<HearthConfigService, 'current' | 'onDidChange'>;
  paths: Pick<HearthPaths, 'workspaceDir' | 'stateDir'>;
  clock: Clock;
  log: Logger;
  services: RuntimeServices;
  /** Events besides the channels' and the watched files' (a plugin's, a test's). */
  eventSources?: readonly HeartbeatEventSource[];
  /** Changed paths under a workspace folder; fs.watch unless a test drives it. */
  watchPaths?: (workspaceDir: string) => ChangedPathSource;
  /** Where a reply goes when `heartbeat.delivery` is `owner` or a chat (the channels bind it). */
  outbox?: ChannelOutbox;
}): AsyncDisposable {
  const { core, config, clock } = deps;
  const log = deps.log.child({ part: 'heartbeat' });
  const root = new DisposableStore();
  const active = new Map<string, string>();
  let problem: string | undefined;

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

  const stateFile = join(deps.paths.stateDir, 'heartbeat.json');
  const kept = readHeartbeatCounters(stateFile);
  if (kept.problem) log.warn('heartbeat state not read', { problem: kept.problem });
  let counters: HeartbeatCounters | undefined = kept.counters;
  let lastResult: HeartbeatLastResult | undefined = counters?.lastResult;
  let saving: Promise<void> = Promise.resolve();
  const save = (next: HeartbeatCounters) => {
    counters = next;
    saving = saving
      .then(() => writeHeartbeatCounters(stateFile, next))
      .catch((error) => log.warn('could not write the heartbeat state', { error: String(error) }));
  };

  // Events wait here between beats; a beat in active hours takes them all.
  const inbox = createHeartbeatInbox();
  let turnRunning = false;
  for (const source of [unansweredChannelMessages(core.bus), ...(deps.eventSources ?? [])])
    root.add(source((event) => inbox.add(event)));

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
    turnRunning = true;
    runtime.start({
      runId,
      sessionKey,
      message: prompt,
      runKind: 'heartbeat',
      lane: 'cron',
      timeoutMs: settings.runTimeoutMs,
    });
    active.set(runId, sessionKey);
    const run = await runtime.wait(runId).finally(() => {
      active.delete(runId);
      turnRunning = false;
    });
    if (run?.status !== 'ok')
      throw new Error(run?.error?.message ?? `the heartbeat turn ended ${run?.status ?? 'unseen'}`);
    return { reply: run.text, sessionKey };
  };

  const watchFiles = (): Disposable | undefined => {
    if (!settings.enabled || settings.watch.length === 0) return undefined;
    const dir = deps.paths.workspaceDir(settings.agentId);
    const source = watchedFilesSource((deps.watchPaths ?? nodeWatchSource)(dir), settings.watch);
    try {
      return source((event) => {
        // What the heartbeat turn itself wrote is not news for the next beat (it would wake itself forever).
        if (!turnRunning) inbox.add(event);
      });
    } catch (error) {
      log.warn('cannot watch heartbeat.watch; file changes will not wake the heartbeat', { error: String(error) });
      return undefined;
    }
  };

  const start = (): { service: HeartbeatService; listener: Disposable; watcher?: Disposable } => {
    const service = createHeartbeat({
      clock,
      log,
      settings: () => heartbeatSettingsOf(settings),
      readChecklist: () =>
        readFile(join(deps.paths.workspaceDir(settings.agentId), 'HEARTBEAT.md'), 'utf8').catch(() => ''),
      takeEvents: () => inbox.take(),
      failedJobs,
      runTurn,
      // The beat's `heartbeat` event (below) carries the reply to connected clients; a channel
      // delivery also sends it there.
      deliver: (reply) => deps.outbox?.deliver(settings.delivery, reply),
      ...(counters ? { initial: counters } : {}),
    });
    const listener = service.onDidBeat((result) => {
      lastResult = result;
      const { turns, quietBeats, lastBeatAtMs } = service.state();
      save({ turns, quietBeats, ...(lastBeatAtMs !== undefined ? { lastBeatAtMs } : {}), lastResult: result });
      core.bus.publish('heartbeat', { ...result, agentId: settings.agentId });
    });
    const watcher = watchFiles();
    return { service, listener, ...(watcher ? { watcher } : {}) };
  };
  let current = start();
  const stop = () => {
    current.listener.dispose();
    current.watcher?.dispose();
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
      pendingEvents: inbox.size(),
      watch: settings.watch,
      delivery: settings.delivery,
      problems: [...(problem ? [problem] : []), ...(kept.problem ? [kept.problem] : []), ...state.problems],
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
      await saving;
    },
  };
}
