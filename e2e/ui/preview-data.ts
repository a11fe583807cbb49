// Realistic gateway answers for the static preview: what a week-old Hearth might hold.

import type { PairedDeviceView, PairingRequestView } from '../../src-main/protocol/methods/devices.js';
import type { MemorySearchHit } from '../../src-main/protocol/methods/memory.js';
import type { SessionRow, SessionsListResult } from '../../src-main/protocol/methods/sessions.js';

export const previewNow = () => Date.now();

/** A sessions.list row as the gateway sends it (the typed wire: every row has its agentId). */
function sessionRow(key: string, displayName: string, agoMs: number, extra: Partial<SessionRow> = {}): SessionRow {
  const updatedAt = previewNow() - agoMs;
  return {
    key,
    kind: key.includes(':group:') ? 'group' : key.includes(':cron:') ? 'unknown' : 'direct',
    agentId: key.split(':')[1] ?? 'main',
    sessionId: `preview-${key.replaceAll(':', '-')}`,
    displayName,
    createdAt: updatedAt - 600_000,
    updatedAt,
    ...extra,
  };
}

export function sessions(): SessionsListResult {
  const rows = [
    sessionRow('agent:main:main', 'Main', 60_000),
    sessionRow('agent:main:trip-planning', 'Lisbon trip', 1_800_000, {
      title: 'Lisbon trip',
      label: 'trip-planning',
      pinned: true,
    }),
    sessionRow('agent:main:telegram:dm:4411', 'Alice (Telegram)', 3_600_000, {
      title: 'Alice (Telegram)',
      channel: 'telegram',
    }),
    sessionRow('agent:main:telegram:group:88', 'Family group', 7_200_000, {
      title: 'Family group',
      channel: 'telegram',
    }),
    sessionRow('agent:main:cron:morning-brief', 'Morning brief', 86_400_000, { title: 'Morning brief' }),
    sessionRow('agent:main:old-notes', 'old-notes', 604_800_000, { label: 'old-notes', archived: true }),
    sessionRow('agent:research:main', 'Research notes', 172_800_000, { title: 'Research notes' }),
  ];
  return { count: rows.length, totalCount: rows.length, nextOffset: null, hasMore: false, sessions: rows };
}

export function history(sessionKey: string) {
  // A chat made in the preview (new chat or fork) starts empty.
  if (/:chat-\d+$/.test(sessionKey)) return { messages: [], hasMore: false };
  if (sessionKey !== 'agent:main:main') {
    return {
      messages: [{ id: 'x1', kind: 'user', text: `Earlier conversation in ${sessionKey}`, ts: 1 }],
      hasMore: false,
    };
  }
  return {
    hasMore: false,
    messages: [
      { id: 'm1', kind: 'user', text: 'Can you check why the build is failing?', ts: 1 },
      { id: 'm2', kind: 'tool_call', toolCallId: 't1', toolName: 'exec', input: { command: 'npm run build' }, ts: 2 },
      {
        id: 'm3',
        kind: 'tool_result',
        toolCallId: 't1',
        toolName: 'exec',
        output: "error TS2307: Cannot find module './paths.js'",
        ts: 3,
      },
      {
        id: 'm4',
        kind: 'assistant',
        ts: 4,
        text:
          'The build fails because `src/config/index.ts` imports a file that was renamed.\n\n' +
          'Fix it by updating the import:\n\n```ts\n// src/config/index.ts\nimport { createHearthPaths } from "./hearth-paths.js";\nexport const DEFAULT_PORT = 18790;\n```\n\n' +
          'After that, `npm run build` passes. I also noted in **MEMORY.md** that the project uses NodeNext imports.',
      },
    ],
  };
}

/** A long transcript of mixed short, long and code-bearing messages. */
export function longHistory(size: number) {
  const messages = Array.from({ length: size }, (_, i) => {
    if (i % 2 === 0) return { id: `q${i}`, kind: 'user', text: `Question ${i}: what about item ${i}?`, ts: i };
    const code = i % 10 === 1 ? `\n\n\`\`\`ts\nconst item${i} = compute(${i});\n\`\`\`` : '';
    const body =
      i % 6 === 3 ? ' It has a longer explanation that wraps over several lines in the transcript.'.repeat(4) : '';
    return { id: `a${i}`, kind: 'assistant', text: `Answer ${i}: **item ${i}** is fine.${body}${code}`, ts: i };
  });
  return { messages, hasMore: false };
}

export const models = {
  primary: 'anthropic/claude-sonnet-4',
  fallbacks: ['openai/gpt-4.1-mini'],
  models: [
    { id: 'openai/gpt-4.1-mini', name: 'GPT-4.1 mini', provider: 'openai', contextWindow: 1_000_000, available: true },
    {
      id: 'anthropic/claude-sonnet-4',
      name: 'Claude Sonnet 4',
      provider: 'anthropic',
      contextWindow: 200_000,
      available: true,
    },
    { id: 'ollama/llama3.2', name: 'Llama 3.2', provider: 'ollama', contextWindow: 128_000, available: false },
  ],
};

/** Hearth's exec.approval.requested payload (exec/approval-service.ts). */
export function approvalRequest(id: string, command: string) {
  const allowedDecisions = ['allow-once', 'allow-always', 'deny'];
  return {
    id,
    agentId: 'main',
    sessionKey: 'agent:main:main',
    command,
    cwd: '/home/me/projects/hearth',
    analysis: {},
    reasons: [
      { code: 'risky-option', detail: 'rm -rf deletes files recursively' },
      { code: 'allowlist-miss', detail: 'rm is not on the allowlist' },
    ],
    allowAlways: [{ pattern: '/usr/bin/rm', argPattern: '^-rf ./dist$' }],
    allowedDecisions,
    createdAtMs: previewNow(),
    expiresAtMs: previewNow() + 120_000,
    request: { command, cwd: '/home/me/projects/hearth', host: 'gateway', allowedDecisions },
  };
}

export function authProfiles(cooldownUntil: number) {
  const row = (extra: Record<string, unknown>) => ({
    type: 'api_key',
    fromConfig: false,
    cooldownRemainingMs: 0,
    failureCounts: {},
    verified: true,
    ...extra,
  });
  return {
    secretBackend: 'keychain',
    profiles: [
      row({
        id: 'anthropic:work',
        provider: 'anthropic',
        label: 'Work',
        status: 'ok',
        lastUsed: previewNow() - 120_000,
      }),
      row({
        id: 'openai:personal',
        provider: 'openai',
        label: 'Personal',
        status: 'cooldown',
        cooldownRemainingMs: Math.max(0, cooldownUntil - previewNow()),
        lastErrorReason: 'Rate limited by the provider (HTTP 429, retry-after 90 s)',
        lastUsed: previewNow() - 30_000,
        failureCounts: { rate_limit: 3 },
      }),
      row({
        id: 'google:old',
        provider: 'google',
        label: 'Old key',
        status: 'disabled',
        disabledReason: 'The key was rejected (HTTP 401)',
        lastUsed: previewNow() - 9 * 86_400_000,
        failureCounts: { auth: 12 },
      }),
    ],
  };
}

export const memoryDocs: Record<string, string> = {
  'MEMORY.md':
    '# What I keep\n\n- The user works on **Hearth**, a local-first agent, in TypeScript.\n- Prefers short answers with code first.\n- Builds run with `npm run build`; imports use NodeNext `.js` suffixes.\n',
  'USER.md': '# About you\n\n- Name: Sam\n- Timezone: Europe/Berlin\n- Drinks green tea in the afternoon\n',
  'memory/2026-11-29.md': '# 29 Nov\n\n- Fixed the config import path.\n- Asked about Ollama models for offline use.\n',
  'memory/2026-11-28.md': '# 28 Nov\n\n- Planned the Control UI.\n',
};

export function memoryFiles() {
  const today = new Date();
  const day = `${today.getFullYear()}-${String(today.getMonth() + 1).padStart(2, '0')}-${String(today.getDate()).padStart(2, '0')}`;
  memoryDocs[`memory/${day}.md`] ??=
    `# Today\n\n- Sam wants the Control UI bundle to stay under 400 KB.\n- Asked for screenshots of every view.\n`;
  return {
    files: [
      { path: 'MEMORY.md', size: 200, mtimeMs: 0, kind: 'static' },
      { path: 'USER.md', size: 90, mtimeMs: 0, kind: 'static' },
      { path: `memory/${day}.md`, size: 120, mtimeMs: 0, kind: 'daily', date: day },
      { path: 'memory/2026-11-29.md', size: 80, mtimeMs: 0, kind: 'daily', date: '2026-11-29' },
      { path: 'memory/2026-11-28.md', size: 40, mtimeMs: 0, kind: 'daily', date: '2026-11-28' },
    ],
  };
}

export function memorySearch(query: string): { results: MemorySearchHit[] } {
  const hit = (row: Omit<MemorySearchHit, 'endLine' | 'heading' | 'category'>): MemorySearchHit => ({
    ...row,
    endLine: row.startLine,
    heading: '',
    category: 'other',
  });
  const all = [
    hit({
      path: 'USER.md',
      startLine: 5,
      snippet: 'Drinks green tea in the afternoon',
      score: 0.87,
      vectorScore: 0.81,
      textScore: 0.92,
      decay: 0.99,
    }),
    hit({
      path: 'memory/2026-11-29.md',
      startLine: 4,
      snippet: 'Asked about Ollama models for offline use.',
      score: 0.64,
      vectorScore: 0.7,
      textScore: 0.4,
      decay: 0.97,
    }),
    hit({
      path: 'MEMORY.md',
      startLine: 3,
      snippet: 'The user works on Hearth, a local-first agent, in TypeScript.',
      score: 0.52,
      vectorScore: 0.6,
      textScore: 0.3,
      decay: 0.9,
    }),
  ];
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  return { results: all.filter((hit) => words.some((w) => hit.snippet.toLowerCase().includes(w))) };
}

export const dreamsDiary =
  '# Night of 29 November\n\nI went back over the week. Sam kept returning to **build errors** and to running models *offline*; ' +
  'both feel like they belong in long-term memory.\n\n## What stood out\n\n- Three separate days mention green tea.\n- The NodeNext import rule came up four times.\n\n' +
  '> Nothing contradicted what MEMORY.md already says.\n';

export const dreamCandidates = [
  {
    text: 'Imports in this project always use NodeNext `.js` suffixes.',
    path: 'memory/2026-11-27.md',
    line: 6,
    recalls: 4,
    uniqueQueries: 2,
    score: 0.91,
    signals: { frequency: 0.8, relevance: 0.92, diversity: 0.66, recency: 0.95 },
    failures: [],
  },
  {
    text: 'Sam prefers running models offline through Ollama when possible.',
    path: 'memory/2026-11-29.md',
    line: 4,
    recalls: 2,
    uniqueQueries: 2,
    score: 0.71,
    signals: { frequency: 0.4, relevance: 0.88, diversity: 0.66, recency: 0.99 },
    failures: ['score 0.71 is under the 0.75 threshold'],
  },
];

export const dreamsRun = (apply: boolean) => ({
  day: '2026-11-29',
  applied: apply,
  notesSeen: 23,
  recalls: 41,
  reflections: [
    { tag: 'offline models', count: 3 },
    { tag: 'build hygiene', count: 4 },
  ],
  truths: [{ text: 'The project uses NodeNext imports.', confidence: 0.93 }],
  candidates: dreamCandidates,
  promoted: apply ? [dreamCandidates[0]!.text] : [],
});

export const devices: { pending: PairingRequestView[]; paired: PairedDeviceView[] } = {
  pending: [
    {
      requestId: 'pr1',
      deviceId: 'f00dfeed',
      publicKey: 'preview-public-key',
      clientId: 'hearth-control-ui',
      clientMode: 'webchat',
      displayName: 'iPad (Sam)',
      role: 'operator',
      scopes: ['operator.read'],
      isRepair: false,
      reason: 'not-paired',
      viaSetupCode: false,
      ts: previewNow(),
      expiresAtMs: previewNow() + 300_000,
    },
  ],
  paired: [
    {
      deviceId: 'a1b2c3d4e5',
      displayName: 'Pixel 9',
      platform: 'android',
      clientId: 'hearth-control-ui',
      role: 'operator',
      scopes: ['operator.read', 'operator.write', 'operator.approvals'],
      pairedAtMs: previewNow() - 5 * 86_400_000,
      approvedVia: 'desktop',
      online: false,
      roles: [
        {
          role: 'operator',
          scopes: ['operator.read', 'operator.write', 'operator.approvals'],
          issuedAtMs: previewNow() - 5 * 86_400_000,
        },
      ],
    },
  ],
};

export const configRaw = JSON.stringify(
  {
    gateway: { port: 18790, bind: 'loopback' },
    agents: { main: { model: 'anthropic/claude-sonnet-4', workspace: '~/.hearth/workspace' } },
    bindings: { telegram: { agent: 'main' } },
    providers: { anthropic: { profiles: ['anthropic:work'] }, openai: { profiles: ['openai:personal'] } },
    exec: { security: 'allowlist', ask: 'on-miss', allowlist: ['git status', 'npm run *'] },
    memory: { embedder: 'hashed-ngram', recall: { topK: 6 } },
    dreaming: { enabled: true, schedule: '0 3 * * *' },
  },
  null,
  2,
);

export const canvasHtml = (n: number) => `<!doctype html><meta charset="utf-8"><title>Canvas</title>
<style>body{font:16px system-ui;margin:0;display:grid;place-items:center;height:100vh;background:linear-gradient(135deg,#fde7d8,#f6d7b8);color:#4a2a16}
.card{background:#fff9;border-radius:16px;padding:28px 36px;box-shadow:0 8px 30px #0001;text-align:center}</style>
<div class="card"><h1>Weekly plan</h1><p id="rev">Revision ${n}</p><p>Written by the agent.</p></div>`;
