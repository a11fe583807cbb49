import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/**
 * A Hearth home as versions before the upgrade machinery left it (docs/UPGRADES.md): today's
 * formats, some without a version field (hearth.json, the usage ledger, the memory index meta),
 * and one older shape from git history: the "allow always" lists in `exec-approvals.json` and
 * `mcp-approvals.json` from before `permissions.json` (commit cf4105f).
 */
export const oldHomeFiles: Record<string, string> = {
  'hearth.json': `${JSON.stringify({ gateway: { port: 18790 }, heartbeat: { enabled: false } }, null, 2)}\n`,
  'agents/main/sessions/sessions.json': `${JSON.stringify(
    {
      version: 1,
      sessions: {
        'agent:main:main': {
          sessionId: 's-1',
          createdAt: 1_764_000_000_000,
          updatedAt: 1_764_000_100_000,
          title: 'Trip',
        },
      },
    },
    null,
    2,
  )}\n`,
  'state/auth-profiles.json': JSON.stringify(
    { version: 1, profiles: {}, stats: { 'openai-main': { lastUsed: 1_764_000_000_000, consecutiveFailures: 0 } } },
    null,
    2,
  ),
  'state/cron/jobs.json': `${JSON.stringify(
    {
      version: 1,
      jobs: [
        {
          id: 'job-1',
          name: 'Morning note',
          scheduleText: 'every day at 08:00',
          schedule: { kind: 'cron', expr: '0 8 * * *' },
          agentId: 'main',
          message: 'Write the morning note',
          session: 'isolated',
          delivery: 'ui',
          enabled: false,
          createdAtMs: 1_764_000_000_000,
          updatedAtMs: 1_764_000_000_000,
        },
      ],
    },
    null,
    2,
  )}\n`,
  'state/usage/2026-11.jsonl': `${JSON.stringify({
    ts: 1_764_000_000_000,
    day: '2026-11-24',
    purpose: 'chat',
    agentId: 'main',
    provider: 'openai',
    model: 'gpt-4o',
    inputTokens: 120,
    outputTokens: 30,
    cachedInputTokens: 0,
    costUsd: 0.0006,
    priced: true,
  })}\n`,
  'agents/main/memory.lance/hearth-index.json': JSON.stringify({
    embedder: 'hash-384',
    dimension: 384,
    terms: 2,
    complete: true,
  }),
  // The older shape: one list per capability.
  'state/exec-approvals.json': `${JSON.stringify(
    {
      version: 1,
      agents: { main: { allowlist: [{ pattern: '/usr/bin/git' }, { pattern: '/usr/bin/ls', argPattern: '^-la$' }] } },
    },
    null,
    2,
  )}\n`,
  'state/mcp-approvals.json': `${JSON.stringify({ version: 1, always: [{ tool: 'fixture__write_note', addedAtMs: 1_763_000_000_000 }] }, null, 2)}\n`,
};

export async function writeOldHome(home: string, files: Record<string, string> = oldHomeFiles): Promise<void> {
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(home, path)), { recursive: true });
    await writeFile(join(home, path), text);
  }
}

/** The files of the fixture as they are on disk now (to compare before and after). */
export async function readHomeFiles(home: string, names: readonly string[] = Object.keys(oldHomeFiles)) {
  const out: Record<string, string | undefined> = {};
  for (const name of names) out[name] = await readFile(join(home, name), 'utf8').catch(() => undefined);
  return out;
}
