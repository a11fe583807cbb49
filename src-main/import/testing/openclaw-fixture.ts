import { jsonl, writeTree } from './fixture-tree.js';

/** Fake keys: recognisable in a leak check, useless anywhere else. */
export const openClawKeys = {
  anthropic: 'sk-ant-fixture-openclaw-0000000000000001',
  openrouter: 'sk-or-fixture-openclaw-0000000000000002',
  deepseekProvider: 'sk-fixture-openclaw-deepseek-0000000003',
};

export const openClawSessionIds = {
  telegram: 'c7cbdbf1-2ef0-4dc3-8e0f-8471e4a2b303',
  main: '69a8d0ce-6011-49ef-a651-b046d3f6b5d8',
  dev: 'ff4b5290-6aea-48ec-8076-53a5581d0edc',
};

export interface OpenClawFixtureOptions {
  /** A torn transcript line and a cron/jobs.json that is not JSON. */
  malformed?: boolean;
  /**
   * Where the fixture's providers are served (a loopback fake: `FakeLlmServer.baseUrlFor`), for a
   * test that uses what it imported. OpenClaw's own way is written: `models.providers.<id>.baseUrl`
   * over the built-in anthropic and openrouter, and the custom deepseek's baseUrl. Unset, they are
   * the real services' (what a person's config says), for tests that never send a request.
   */
  baseUrlFor?(kind: 'anthropic' | 'openai-compatible'): string;
}

/**
 * An ~/.openclaw in OpenClaw's real layout (docs/IMPORT.md lists the files): a JSON5
 * openclaw.json with two agents, a custom provider and bindings, the main and `dev` workspaces,
 * session transcripts with their sessions.json, auth-profiles.json with keys, .env, cron jobs and
 * exec approvals.
 */
export async function writeOpenClawFixture(root: string, options: OpenClawFixtureOptions = {}): Promise<void> {
  const t0 = Date.parse('2026-05-07T09:00:00Z');
  const iso = (offsetS: number) => new Date(t0 + offsetS * 1000).toISOString();
  const served = options.baseUrlFor;
  const builtinOverrides = served
    ? `
      "anthropic": { "baseUrl": "${served('anthropic')}", "api": "anthropic-messages" },
      "openrouter": { "baseUrl": "${served('openai-compatible')}", "api": "openai-completions" },`
    : '';
  await writeTree(root, {
    'openclaw.json': `{
  // OpenClaw's config is JSON5: comments and trailing commas are allowed.
  "meta": { "lastTouchedVersion": "2026.2.26" },
  "agents": {
    "defaults": {
      "model": { "primary": "anthropic/claude-opus-4-6", "fallbacks": ["openrouter/deepseek/deepseek-chat"] },
    },
    "list": [
      { "id": "main", "default": true },
      { "id": "dev", "identity": { "name": "Dev helper", "emoji": "🛠" }, "model": "deepseek/deepseek-chat" },
    ],
  },
  "bindings": [
    { "agentId": "dev", "match": { "channel": "discord", "guildId": "987654321" } },
    { "agentId": "main", "match": { "channel": "telegram", "peer": { "kind": "dm", "id": "207" } } },
  ],
  "models": {
    "providers": {${builtinOverrides}
      "deepseek": {
        "baseUrl": "${served ? served('openai-compatible') : 'https://api.deepseek.com/v1'}",
        "apiKey": "${openClawKeys.deepseekProvider}",
        "api": "openai-completions",
        "models": [{ "id": "deepseek-chat", "name": "DeepSeek Chat", "contextWindow": 64000, "maxTokens": 8192 }],
      },
      "local": { "baseUrl": "http://127.0.0.1:1234/v1", "apiKey": "\${LOCAL_KEY}", "api": "openai-completions" },
    },
  },
  "channels": { "telegram": { "botToken": "123:fixture" } },
}
`,
    'workspace/SOUL.md': '# Soul\nI am Claw, warm and brief.\n',
    'workspace/USER.md': '# User\nAda, prefers metric units.\n',
    'workspace/MEMORY.md': '# Memory\n- Ada ships on Fridays.\n',
    'workspace/IDENTITY.md': '# Identity\nName: Claw\n',
    'workspace/AGENTS.md': '# Agents\nAsk before deleting files.\n',
    'workspace/DREAMS.md': '# Dream diary\nA lighthouse of notes.\n',
    'workspace/BOOTSTRAP.md': '# Bootstrap\nOpenClaw first-run script.\n',
    'workspace/memory/2026-05-07.md': '- Discussed the API design.\n',
    'workspace/memory/2026-05-07-vendor-pitch.md': '- Vendor pitch notes.\n',
    'workspace/memory/.dreams/short-term-recall.json': '{}\n',
    'workspace-dev/SOUL.md': '# Soul\nA terse engineer.\n',
    'agents/main/agent/auth-profiles.json': `${JSON.stringify(
      {
        version: 1,
        profiles: {
          'anthropic:default': { type: 'api_key', provider: 'anthropic', key: openClawKeys.anthropic },
          'openai-codex:default': { type: 'oauth', provider: 'openai-codex', access: 'a', refresh: 'r', expires: 1 },
        },
        lastGood: { anthropic: 'anthropic:default' },
      },
      null,
      2,
    )}\n`,
    // The same key copied into another agent's store: one Hearth profile.
    'agents/dev/agent/auth-profiles.json': `${JSON.stringify({
      version: 1,
      profiles: { 'anthropic:default': { type: 'api_key', provider: 'anthropic', key: openClawKeys.anthropic } },
    })}\n`,
    '.env': `# keys OpenClaw reads at start\nOPENROUTER_API_KEY=${openClawKeys.openrouter}\n`,
    'agents/main/sessions/sessions.json': `${JSON.stringify({
      'agent:main:telegram:direct:207': {
        sessionId: openClawSessionIds.telegram,
        updatedAt: t0 + 60_000,
        label: 'Trip planning',
      },
      'agent:main:main': { sessionId: openClawSessionIds.main, updatedAt: t0 + 120_000 },
    })}\n`,
    [`agents/main/sessions/${openClawSessionIds.telegram}.jsonl`]:
      jsonl(
        { type: 'session', version: 3, id: openClawSessionIds.telegram, timestamp: iso(0), cwd: '/home/ada' },
        {
          type: 'model_change',
          id: 'm0',
          parentId: null,
          timestamp: iso(1),
          provider: 'anthropic',
          modelId: 'claude-opus-4-6',
        },
        {
          type: 'message',
          id: 'u1',
          parentId: 'm0',
          timestamp: iso(2),
          message: { role: 'user', content: [{ type: 'text', text: 'Plan a trip to Lisbon' }], timestamp: t0 + 2000 },
        },
        {
          type: 'message',
          id: 'a1',
          parentId: 'u1',
          timestamp: iso(3),
          message: {
            role: 'assistant',
            content: [
              { type: 'thinking', thinking: 'consider the weather' },
              { type: 'text', text: 'Let me check the weather.' },
              { type: 'toolCall', id: 'call_1', name: 'web_search', arguments: { query: 'Lisbon weather May' } },
            ],
            provider: 'anthropic',
            model: 'claude-opus-4-6',
            usage: { input: 120, output: 30, cacheRead: 0, cost: { total: 0.01 } },
            stopReason: 'toolUse',
            timestamp: t0 + 3000,
          },
        },
        {
          type: 'message',
          id: 't1',
          parentId: 'a1',
          timestamp: iso(4),
          message: {
            role: 'toolResult',
            toolCallId: 'call_1',
            toolName: 'web_search',
            content: [{ type: 'text', text: 'Sunny, 24°C' }],
            isError: false,
            timestamp: t0 + 4000,
          },
        },
        {
          type: 'message',
          id: 'a2',
          parentId: 't1',
          timestamp: iso(5),
          message: {
            role: 'assistant',
            content: [{ type: 'text', text: 'Lisbon in May is sunny: pack light.' }],
            provider: 'anthropic',
            model: 'claude-opus-4-6',
            timestamp: t0 + 5000,
          },
        },
        { type: 'custom', customType: 'model-snapshot', data: {}, id: 'c1', parentId: 'a2', timestamp: iso(6) },
      ) + (options.malformed ? '{"type":"message","id":"torn","message":{"role":"user","conte\n' : ''),
    [`agents/main/sessions/${openClawSessionIds.main}.jsonl`]: jsonl(
      { type: 'session', version: 3, id: openClawSessionIds.main, timestamp: iso(100), cwd: '/home/ada' },
      {
        type: 'message',
        id: 'u1',
        parentId: null,
        timestamp: iso(101),
        message: { role: 'user', content: 'What did we decide about Fridays?' },
      },
      {
        type: 'message',
        id: 'a1',
        parentId: 'u1',
        timestamp: iso(102),
        message: { role: 'assistant', content: [{ type: 'text', text: 'You ship on Fridays.' }] },
      },
    ),
    [`agents/dev/sessions/${openClawSessionIds.dev}.jsonl`]: jsonl(
      { type: 'session', version: 3, id: openClawSessionIds.dev, timestamp: iso(200), cwd: '/home/ada/src' },
      {
        type: 'message',
        id: 'u1',
        parentId: null,
        timestamp: iso(201),
        message: { role: 'user', content: [{ type: 'text', text: 'Review my diff' }] },
      },
      {
        type: 'message',
        id: 'a1',
        parentId: 'u1',
        timestamp: iso(202),
        message: { role: 'assistant', content: [{ type: 'text', text: 'Looks good.' }] },
      },
    ),
    'cron/jobs.json': options.malformed
      ? '{ "version": 1, "jobs": [ { "id": "broken", \n'
      : `${JSON.stringify(
          {
            version: 1,
            jobs: [
              {
                id: 'job-morning',
                agentId: 'main',
                name: 'Morning brief',
                enabled: true,
                schedule: { kind: 'cron', expr: '0 7 * * *', tz: 'Europe/Lisbon' },
                sessionTarget: 'isolated',
                wakeMode: 'next-heartbeat',
                payload: { kind: 'agentTurn', message: 'Summarise my inbox' },
                delivery: { mode: 'announce', channel: 'telegram', to: '207' },
                state: {},
              },
              {
                id: 'job-water',
                agentId: 'main',
                name: 'Drink water',
                enabled: false,
                schedule: { kind: 'every', everyMs: 3_600_000, anchorMs: 0 },
                sessionTarget: 'main',
                payload: { kind: 'systemEvent', text: 'Remind me to drink water' },
              },
              {
                id: 'job-past',
                name: 'Old reminder',
                schedule: { kind: 'at', at: '2020-01-01T00:00:00Z' },
                sessionTarget: 'main',
                payload: { kind: 'systemEvent', text: 'Long gone' },
              },
            ],
          },
          null,
          2,
        )}\n`,
    'exec-approvals.json': `${JSON.stringify({
      version: 1,
      socket: { path: '~/.openclaw/exec-approvals.sock', token: 'socket-token' },
      defaults: { security: 'deny', ask: 'on-miss', askFallback: 'deny' },
      agents: {
        main: {
          security: 'allowlist',
          allowlist: [
            { id: 'B0C8C0B3', pattern: '/usr/bin/rg', lastUsedAt: t0 },
            { id: 'C1D9', pattern: 'git' },
          ],
        },
      },
    })}\n`,
    'credentials/whatsapp/default/creds.json': '{}\n',
  });
}
