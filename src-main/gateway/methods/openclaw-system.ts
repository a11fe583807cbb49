import { open, stat } from 'node:fs/promises';
import { arch, cpus, freemem, hostname, loadavg, platform, release, totalmem } from 'node:os';
import type { AgentRuntime } from '../../agent/index.js';
import { type Disposable, DisposableStore } from '../../base/index.js';
import type { UsageTotals } from '../../protocol/methods/openclaw-system.js';
import type { CallerIdentity } from '../caller.js';
import type { MethodRouter } from '../method-router.js';

export interface OpenClawSystemDeps {
  runtime: AgentRuntime;
  /** The gateway's log file, which `logs.tail` pages through for OpenClaw's Logs view. */
  logFile: string;
  callers(): readonly CallerIdentity[];
  uptimeMs(): number;
  port(): number;
  version: string;
  home: string;
  now(): number;
}

/** One logs.tail answer carries at most this much (OpenClaw's UI polls with a cursor). */
const DEFAULT_TAIL_BYTES = 64 * 1024;
const DEFAULT_TAIL_LINES = 500;

/** Sessions read for one usage report; a page of the store. */
const USAGE_SESSIONS = 1000;

async function tailFile(path: string, cursor: number | undefined, maxBytes: number, maxLines: number) {
  let size = 0;
  try {
    size = (await stat(path)).size;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      return { file: path, cursor: 0, size: 0, lines: [], truncated: false, reset: false };
    throw error;
  }
  // A cursor past the end means the file was rotated or truncated: start over from its tail.
  const reset = cursor !== undefined && cursor > size;
  const from = cursor === undefined || reset ? Math.max(0, size - maxBytes) : cursor;
  const length = Math.min(maxBytes, size - from);
  const buffer = Buffer.alloc(length);
  const handle = await open(path, 'r');
  try {
    await handle.read(buffer, 0, length, from);
  } finally {
    await handle.close();
  }
  let text = buffer.toString('utf8');
  // Never hand out half a line: a tail from the middle drops its first partial line, and the last
  // line is kept only once it ends (the next poll picks it up whole).
  let consumed = length;
  if (from > 0 && (cursor === undefined || reset)) {
    const firstBreak = text.indexOf('\n');
    text = firstBreak < 0 ? '' : text.slice(firstBreak + 1);
  }
  const lastBreak = text.lastIndexOf('\n');
  if (lastBreak < text.length - 1) {
    const partial = text.slice(lastBreak + 1);
    consumed -= Buffer.byteLength(partial);
    text = text.slice(0, lastBreak + 1);
  }
  const all = text.split('\n').filter((line) => line.length > 0);
  const lines = all.slice(-maxLines);
  return {
    file: path,
    cursor: from + consumed,
    size,
    lines,
    truncated: lines.length < all.length || from + length < size,
    reset,
  };
}

function emptyTotals(): UsageTotals {
  return { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, totalCost: 0 };
}

/** Day of an epoch ms in UTC, YYYY-MM-DD (what OpenClaw's usage view filters by). */
function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/**
 * The gateway's machine, log, nodes and token spend as OpenClaw's Control UI shows them.
 * Hearth records tokens per assistant message, not prices, so costs are reported as 0.
 */
export function registerOpenClawSystemMethods(router: MethodRouter, deps: OpenClawSystemDeps): Disposable {
  const store = new DisposableStore();

  store.add(
    router.handle('logs.tail', (params) =>
      tailFile(deps.logFile, params.cursor, params.maxBytes ?? DEFAULT_TAIL_BYTES, params.limit ?? DEFAULT_TAIL_LINES),
    ),
  );

  store.add(
    router.handle('system.info', async () => {
      const disk = await import('node:fs/promises').then((fs) => fs.statfs(deps.home)).catch(() => undefined);
      const memory = process.memoryUsage();
      const cpuList = cpus();
      return {
        machineName: hostname(),
        hostname: hostname(),
        platform: platform(),
        release: release(),
        arch: arch(),
        osLabel: `${platform()} ${release()}`,
        port: deps.port(),
        nodeVersion: process.version,
        pid: process.pid,
        version: deps.version,
        uptimeMs: deps.uptimeMs(),
        cpuCount: cpuList.length,
        cpuModel: cpuList[0]?.model ?? 'unknown',
        loadAverage: loadavg(),
        memoryTotalBytes: totalmem(),
        memoryFreeBytes: freemem(),
        processMemory: {
          rssBytes: memory.rss,
          heapUsedBytes: memory.heapUsed,
          heapTotalBytes: memory.heapTotal,
          externalBytes: memory.external,
          arrayBuffersBytes: memory.arrayBuffers,
        },
        disks: disk
          ? [{ path: deps.home, totalBytes: disk.blocks * disk.bsize, availableBytes: disk.bavail * disk.bsize }]
          : [],
        diskTotalBytes: disk ? disk.blocks * disk.bsize : null,
        diskAvailableBytes: disk ? disk.bavail * disk.bsize : null,
        diskPath: deps.home,
      };
    }),
  );

  store.add(
    router.handle('node.list', () => ({
      ts: deps.now(),
      nodes: deps
        .callers()
        .filter((caller) => caller.role === 'node')
        .map((caller) => ({
          nodeId: caller.deviceId ?? caller.connId,
          displayName: caller.displayName ?? caller.clientId,
          platform: caller.platform,
          clientId: caller.clientId,
          connected: true,
          caps: caller.caps,
        })),
    })),
  );

  store.add(
    router.handle('update.status', () => ({
      sentinel: null,
      updateAvailable: null,
      currentVersion: deps.version,
      // Hearth is updated by its installer or package manager, never by the gateway itself.
      effectiveChannel: 'stable',
      schedule: { channel: 'stable', autoEnabled: false, install: { kind: 'package' } },
    })),
  );

  store.add(
    router.handle('environments.list', () => ({
      environments: [
        {
          id: 'gateway',
          type: 'local',
          label: 'Gateway local',
          status: 'available',
          platform: platform(),
          sessionHost: true,
          trust: 'persistent',
          capabilities: ['agent.run', 'sessions', 'tools', 'workspace'],
        },
      ],
    })),
  );

  store.add(router.handle('usage.status', () => ({ updatedAt: deps.now(), providers: [], refreshing: false })));

  store.add(
    router.handle('sessions.usage', async (params) => {
      const sessions = deps.runtime.sessions;
      const { sessions: records } = await sessions.list({ limit: params.limit ?? USAGE_SESSIONS });
      const totals = emptyTotals();
      const rows: Record<string, unknown>[] = [];
      const counts = { total: 0, user: 0, assistant: 0, toolCalls: 0, toolResults: 0, errors: 0 };
      const byModel = new Map<string, UsageTotals & { provider: string | null; model: string }>();
      for (const record of records) {
        const day = utcDay(record.updatedAt);
        if (params.startDate && day < params.startDate) continue;
        if (params.endDate && day > params.endDate) continue;
        const { messages } = await sessions.read(record.agentId, record.sessionId, { limit: 10_000 });
        const usage = emptyTotals();
        let model: string | undefined;
        for (const message of messages) {
          counts.total += 1;
          if (message.kind === 'user') counts.user += 1;
          if (message.kind === 'assistant') counts.assistant += 1;
          if (message.kind === 'tool_call') counts.toolCalls += 1;
          if (message.kind === 'tool_result') {
            counts.toolResults += 1;
            if (message.isError) counts.errors += 1;
          }
          if (message.kind !== 'assistant' || !message.usage) continue;
          usage.input += message.usage.inputTokens;
          usage.output += message.usage.outputTokens;
          usage.cacheRead += message.usage.cachedInputTokens;
          model = message.model ?? model;
          const ref = message.model ?? 'unknown';
          const slot = byModel.get(ref) ?? { ...emptyTotals(), provider: ref.split('/')[0] ?? null, model: ref };
          slot.input += message.usage.inputTokens;
          slot.output += message.usage.outputTokens;
          slot.cacheRead += message.usage.cachedInputTokens;
          slot.totalTokens = slot.input + slot.output;
          byModel.set(ref, slot);
        }
        usage.totalTokens = usage.input + usage.output;
        for (const key of ['input', 'output', 'cacheRead', 'totalTokens'] as const) totals[key] += usage[key];
        const slash = model?.indexOf('/') ?? -1;
        rows.push({
          key: record.key,
          sessionId: record.sessionId,
          agentId: record.agentId,
          updatedAt: record.updatedAt,
          modelProvider: model && slash > 0 ? model.slice(0, slash) : null,
          model: model && slash > 0 ? model.slice(slash + 1) : (model ?? null),
          usage,
        });
      }
      return {
        updatedAt: deps.now(),
        startDate: params.startDate,
        endDate: params.endDate,
        sessions: rows,
        totals,
        aggregates: {
          sessionCount: rows.length,
          messages: counts,
          tools: { totalCalls: counts.toolCalls, uniqueTools: 0, tools: [] },
          byModel: [...byModel.values()].map(({ provider, model, ...usage }) => ({
            provider,
            model,
            count: 1,
            totals: usage,
          })),
          byProvider: [],
          byAgent: [],
          byChannel: [],
          byCreator: [],
          costDaily: [],
          dailyLatency: [],
          modelDaily: [],
          daily: [],
        },
        // Read from the transcripts on every call: nothing is cached, so nothing is stale.
        cacheStatus: { status: 'fresh', cachedFiles: 0, pendingFiles: 0, staleFiles: 0, refreshedAt: deps.now() },
        creatorOptions: [],
      };
    }),
  );
  return store;
}
