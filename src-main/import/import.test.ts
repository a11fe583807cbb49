import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemClock } from '../base/clock.js';
import { silentLogger } from '../base/logger.js';
import { createHearthPaths, type HearthPaths } from '../paths/index.js';
import { openSecretStore, type SecretStore } from '../secrets/index.js';
import { createSessionStore } from '../sessions/index.js';
import { openTestHearthConfig } from '../testing/hearth-config-opener.js';
import { createTempHome } from '../testing/temp-home.js';
import { importReason } from './import-reasons.js';
import { type ImportReport, type ImportSource, openOfflineTargets, planImport, readImportSource } from './index.js';
import { jsonl, writeTree } from './testing/fixture-tree.js';
import { hermesKeys, hermesSessionIds, writeHermesFixture } from './testing/hermes-fixture.js';
import { openClawKeys, openClawSessionIds, writeOpenClawFixture } from './testing/openclaw-fixture.js';

let temp: { home: string; cleanup(): Promise<void> };
let paths: HearthPaths;
let secrets: SecretStore;
let sourceDir: string;
let templatesDir: string;

beforeEach(async () => {
  temp = await createTempHome('hearth-import-');
  paths = createHearthPaths(join(temp.home, 'hearth'));
  secrets = (await openSecretStore({ paths, log: silentLogger, env: { HEARTH_SECRET_STORE: 'file' } })).store;
  sourceDir = join(temp.home, 'source');
  templatesDir = join(temp.home, 'templates');
  await mkdir(templatesDir, { recursive: true });
  await writeFile(join(templatesDir, 'SOUL.md'), '# SOUL.md starter\n');
});
afterEach(() => temp.cleanup());

/** One run as the CLI does it: read the other tool's folder, plan against the home, apply or not. */
const openTargets = () =>
  openOfflineTargets({
    paths,
    secrets,
    clock: systemClock,
    log: silentLogger,
    templatesDir,
    openConfig: openTestHearthConfig,
  });

async function run(source: ImportSource, apply: boolean): Promise<ImportReport> {
  const inventory = await readImportSource(source, sourceDir, temp.home);
  const targets = await openTargets();
  try {
    const plan = await planImport(inventory, targets);
    return apply ? await plan.apply() : plan.report;
  } finally {
    await targets.close();
  }
}

const targetsOf = (report: ImportReport, status: string, kind?: string) =>
  report.items.filter((i) => i.status === status && (!kind || i.kind === kind)).map((i) => i.target);
const itemFor = (report: ImportReport, text: string) =>
  report.items.find((i) => i.target.includes(text) || i.origin.includes(text));

async function hearthJson(): Promise<string> {
  return readFile(paths.configFile, 'utf8');
}

describe('import from OpenClaw', () => {
  beforeEach(() => writeOpenClawFixture(sourceDir));

  it('reports the plan without writing anything', async () => {
    const report = await run('openclaw', false);
    expect(report.applied).toBe(false);
    expect(targetsOf(report, 'import', 'workspace-file').sort()).toEqual([
      'workspace of dev/SOUL.md',
      'workspace/AGENTS.md',
      'workspace/DREAMS.md',
      'workspace/IDENTITY.md',
      'workspace/MEMORY.md',
      'workspace/SOUL.md',
      'workspace/USER.md',
      'workspace/memory/2026-05-07-vendor-pitch.md',
      'workspace/memory/2026-05-07.md',
    ]);
    expect(targetsOf(report, 'import', 'session').sort()).toEqual([
      `agent:dev:openclaw-${openClawSessionIds.dev}`,
      `agent:main:openclaw-${openClawSessionIds.main}`,
      `agent:main:openclaw-${openClawSessionIds.telegram}`,
    ]);
    expect(targetsOf(report, 'import', 'credential').sort()).toEqual([
      'auth profile openclaw-anthropic-default (anthropic)',
      'auth profile openclaw-deepseek (deepseek)',
      'auth profile openclaw-openrouter-env (openrouter)',
    ]);
    expect(targetsOf(report, 'import', 'provider').sort()).toEqual([
      'providers.deepseek',
      'providers.local',
      'providers.openrouter',
    ]);
    expect(targetsOf(report, 'import', 'agent')).toEqual(['agents.list[dev]']);
    expect(targetsOf(report, 'import', 'binding')).toHaveLength(2);
    expect(targetsOf(report, 'import', 'cron-job')).toHaveLength(2);
    expect(targetsOf(report, 'import', 'allowlist')).toHaveLength(2);
    expect(itemFor(report, 'Old reminder')).toMatchObject({
      status: 'skipped',
      reason: expect.stringMatching(/passed/),
      reasonCode: 'one-shot-passed',
    });
    expect(itemFor(report, 'openai-codex:default')).toMatchObject({
      status: 'skipped',
      reason: expect.stringMatching(/OAuth/),
      reasonCode: 'oauth-not-moved',
    });
    expect(itemFor(report, 'models.providers.local.apiKey')).toMatchObject({
      status: 'skipped',
      reason: expect.stringMatching(/LOCAL_KEY/),
      reasonCode: 'key-from-environment',
      reasonParams: { reference: ['$', '{LOCAL_KEY}'].join('') },
    });
    expect(itemFor(report, 'channels.telegram')).toMatchObject({
      status: 'skipped',
      reasonCode: 'channel-login-not-moved',
      reasonParams: { channel: 'telegram' },
    });
    expect(itemFor(report, 'credentials/')).toMatchObject({ status: 'skipped', reasonCode: 'channel-logins-folder' });
    expect(itemFor(report, 'Drink water')).toMatchObject({ status: 'import', reasonCode: 'switched-off' });
    expect(itemFor(report, 'openclaw-deepseek')).toMatchObject({ status: 'import', reasonCode: 'key-to-secret-store' });
    // Nothing written: no config, no secrets, no workspace.
    await expect(readFile(paths.configFile, 'utf8')).rejects.toThrow(/ENOENT/);
    expect(await secrets.list()).toEqual([]);
    await expect(readFile(join(paths.workspaceDir('main'), 'SOUL.md'), 'utf8')).rejects.toThrow(/ENOENT/);
  });

  it('applies: files, sessions, keys in the secret store (never hearth.json), agents, bindings, jobs, allowlist', async () => {
    const report = await run('openclaw', true);
    expect(report.items.filter((i) => i.status === 'failed')).toEqual([]);
    expect(report.counts.imported).toBeGreaterThan(20);

    expect(await readFile(join(paths.workspaceDir('main'), 'SOUL.md'), 'utf8')).toBe(
      '# Soul\nI am Claw, warm and brief.\n',
    );
    expect(await readFile(join(paths.workspaceDir('main'), 'memory', '2026-05-07.md'), 'utf8')).toContain('API design');
    expect(await readFile(join(paths.workspaceDir('dev'), 'SOUL.md'), 'utf8')).toContain('terse engineer');
    await expect(readFile(join(paths.workspaceDir('main'), 'BOOTSTRAP.md'), 'utf8')).rejects.toThrow(/ENOENT/);

    const sessions = createSessionStore({ paths, clock: systemClock, log: silentLogger });
    const listed = await sessions.list({ agentId: 'main' });
    const trip = listed.sessions.find((s) => s.key === `agent:main:openclaw-${openClawSessionIds.telegram}`)!;
    expect(trip.title).toBe('Trip planning');
    const { messages } = await sessions.read('main', trip.sessionId);
    expect(messages.map((m) => m.kind)).toEqual(['user', 'assistant', 'tool_call', 'tool_result', 'assistant']);
    expect(messages[0]).toMatchObject({ kind: 'user', text: 'Plan a trip to Lisbon' });
    expect(messages[1]).toMatchObject({
      kind: 'assistant',
      model: 'anthropic/claude-opus-4-6',
      usage: { inputTokens: 120 },
    });
    expect(messages[2]).toMatchObject({ toolName: 'web_search', input: { query: 'Lisbon weather May' } });
    expect(messages[3]).toMatchObject({ kind: 'tool_result', output: 'Sunny, 24°C' });
    expect((await sessions.list({ agentId: 'dev' })).sessions).toHaveLength(1);

    expect(await secrets.get('auth-profile:openclaw-anthropic-default')).toBe(openClawKeys.anthropic);
    expect(await secrets.get('auth-profile:openclaw-openrouter-env')).toBe(openClawKeys.openrouter);
    expect(await secrets.get('auth-profile:openclaw-deepseek')).toBe(openClawKeys.deepseekProvider);
    const raw = await hearthJson();
    for (const key of Object.values(openClawKeys)) expect(raw).not.toContain(key);
    const config = JSON.parse(raw);
    expect(config.providers.deepseek).toMatchObject({
      kind: 'openai-compatible',
      baseURL: 'https://api.deepseek.com/v1',
    });
    expect(config.providers.deepseek.models['deepseek-chat']).toEqual({
      contextWindow: 64000,
      maxOutputTokens: 8192,
      name: 'DeepSeek Chat',
    });
    expect(config.providers.openrouter.kind).toBe('openai-compatible');
    expect(config.agents.defaults.model).toEqual({
      primary: 'anthropic/claude-opus-4-6',
      fallbacks: ['openrouter/deepseek/deepseek-chat'],
    });
    expect(config.agents.list).toEqual([
      { id: 'main' },
      { id: 'dev', name: 'Dev helper', model: 'deepseek/deepseek-chat' },
    ]);
    expect(config.agents.bindings).toEqual([
      { agentId: 'dev', match: { channel: 'discord', guildId: '987654321' } },
      { agentId: 'main', match: { channel: 'telegram', peer: { kind: 'direct', id: '207' } } },
    ]);

    const cron = JSON.parse(await readFile(join(paths.stateDir, 'cron', 'jobs.json'), 'utf8'));
    expect(
      cron.jobs.map(
        (j: { name: string; scheduleText: string; delivery: string; enabled: boolean; session: string }) => [
          j.name,
          j.scheduleText,
          j.delivery,
          j.enabled,
          j.session,
        ],
      ),
    ).toEqual([
      ['Morning brief', '0 7 * * *', 'telegram:207', true, 'isolated'],
      ['Drink water', 'every 60m', 'ui', false, 'agent:main:main'],
    ]);
    const permissions = await readFile(join(paths.stateDir, 'permissions.json'), 'utf8');
    expect(permissions).toContain('/usr/bin/rg');
    expect(permissions).toContain('"git"');
  });

  it('a second run imports nothing new', async () => {
    await run('openclaw', true);
    const before = await hearthJson();
    const again = await run('openclaw', false);
    expect(again.items.filter((i) => i.status === 'import')).toEqual([]);
    expect(again.counts.present).toBeGreaterThan(20);
    const applied = await run('openclaw', true);
    expect(applied.counts.imported).toBe(0);
    expect(await hearthJson()).toBe(before);
    const sessions = createSessionStore({ paths, clock: systemClock, log: silentLogger });
    expect((await sessions.list({ agentId: 'main' })).sessions).toHaveLength(2);
    const cron = JSON.parse(await readFile(join(paths.stateDir, 'cron', 'jobs.json'), 'utf8'));
    expect(cron.jobs).toHaveLength(2);
  });

  it("keeps Hearth's own files and settings, reporting conflicts; an unedited starter file is replaced", async () => {
    await mkdir(paths.workspaceDir('main'), { recursive: true });
    await writeFile(join(paths.workspaceDir('main'), 'USER.md'), '# User\nMy own notes.\n');
    await writeFile(join(paths.workspaceDir('main'), 'SOUL.md'), '# SOUL.md starter\n');
    await mkdir(paths.home, { recursive: true });
    await writeFile(
      paths.configFile,
      `${JSON.stringify({ agents: { defaults: { model: { primary: 'openai/gpt-4o', fallbacks: [] } } } })}\n`,
    );
    const report = await run('openclaw', true);
    expect(itemFor(report, 'workspace/USER.md')).toMatchObject({
      status: 'conflict',
      reasonCode: 'workspace-file-differs',
      reasonParams: { file: 'USER.md', source: 'openclaw' },
    });
    expect(await readFile(join(paths.workspaceDir('main'), 'USER.md'), 'utf8')).toBe('# User\nMy own notes.\n');
    expect(itemFor(report, 'workspace/SOUL.md')).toMatchObject({
      status: 'imported',
      reason: expect.stringMatching(/starter/),
      reasonCode: 'replaces-starter',
    });
    expect(await readFile(join(paths.workspaceDir('main'), 'SOUL.md'), 'utf8')).toContain('I am Claw');
    expect(report.items.find((i) => i.kind === 'model')).toMatchObject({
      status: 'conflict',
      reason: expect.stringMatching(/openai\/gpt-4o/),
      reasonCode: 'default-model-differs',
      reasonParams: { model: 'openai/gpt-4o' },
    });
    expect(JSON.parse(await hearthJson()).agents.defaults.model.primary).toBe('openai/gpt-4o');
  });

  it('reports a malformed file clearly and imports the rest', async () => {
    await writeOpenClawFixture(sourceDir, { malformed: true });
    const report = await run('openclaw', true);
    expect(itemFor(report, 'cron/jobs.json')).toMatchObject({
      status: 'skipped',
      reason: expect.stringMatching(/not valid JSON/),
      reasonCode: 'invalid-json',
      // The parser's own words, carried as they are.
      reasonParams: { detail: expect.stringMatching(/JSON/) },
    });
    expect(itemFor(report, openClawSessionIds.telegram)).toMatchObject({
      status: 'imported',
      reason: expect.stringMatching(/1 unreadable line/),
      reasonCode: 'unreadable-lines-and-unmatched-events',
      reasonParams: { unreadable: 1, unmatched: 2 },
    });
    expect(report.items.filter((i) => i.status === 'failed')).toEqual([]);
    expect(await secrets.get('auth-profile:openclaw-anthropic-default')).toBe(openClawKeys.anthropic);
  });

  it('refuses a folder that is not an OpenClaw home, naming what is missing', async () => {
    await expect(readImportSource('openclaw', join(temp.home, 'nowhere'), temp.home)).rejects.toThrow(
      /does not look like an OpenClaw folder \(no openclaw.json/,
    );
  });
});

describe('import from Hermes', () => {
  beforeEach(() => writeHermesFixture(sourceDir));

  it('plans and applies: memories, sessions, keys, model, jobs, profiles; state.db reported', async () => {
    const plan = await run('hermes', false);
    expect(itemFor(plan, 'state.db')).toMatchObject({
      status: 'skipped',
      reason: expect.stringMatching(/SQLite/),
      reasonCode: 'sqlite-sessions',
    });
    expect(itemFor(plan, 'TELEGRAM_BOT_TOKEN')).toMatchObject({ status: 'skipped', reasonCode: 'not-a-provider-key' });
    expect(itemFor(plan, 'command_allowlist')).toMatchObject({
      status: 'skipped',
      reason: expect.stringMatching(/danger pattern/),
      reasonCode: 'allowlist-not-comparable',
    });
    expect(JSON.stringify(plan)).not.toContain(hermesKeys.openrouter);

    const report = await run('hermes', true);
    expect(report.items.filter((i) => i.status === 'failed')).toEqual([]);
    const ws = paths.workspaceDir('main');
    expect(await readFile(join(ws, 'SOUL.md'), 'utf8')).toContain('Curious and kind');
    expect(await readFile(join(ws, 'MEMORY.md'), 'utf8')).toContain('Debian');
    expect(await readFile(join(ws, 'USER.md'), 'utf8')).toContain('backend engineer');
    expect(await readFile(join(paths.workspaceDir('work'), 'SOUL.md'), 'utf8')).toContain('Formal');

    const sessions = createSessionStore({ paths, clock: systemClock, log: silentLogger });
    const listed = (await sessions.list({ agentId: 'main' })).sessions;
    const disk = listed.find((s) => s.key === `agent:main:hermes-${hermesSessionIds.cli}`)!;
    expect(disk.title).toBe('Disk usage');
    const { messages } = await sessions.read('main', disk.sessionId);
    expect(messages.map((m) => m.kind)).toEqual(['user', 'tool_call', 'tool_result', 'assistant']);
    expect(messages[1]).toMatchObject({ toolName: 'terminal', input: { command: 'df -h' } });
    expect(messages[2]).toMatchObject({ toolName: 'terminal', output: '/dev/sda1 40% used' });
    expect(listed.find((s) => s.key === `agent:main:hermes-${hermesSessionIds.telegram}`)?.title).toBe(
      'Ada (Telegram)',
    );

    expect(await secrets.get('auth-profile:hermes-openrouter')).toBe(hermesKeys.openrouter);
    expect(await secrets.get('auth-profile:hermes-anthropic')).toBe(hermesKeys.anthropic);
    expect(await secrets.get('auth-profile:hermes-lab-vllm')).toBe(hermesKeys.custom);
    const raw = await hearthJson();
    for (const key of Object.values(hermesKeys)) expect(raw).not.toContain(key);
    const config = JSON.parse(raw);
    expect(config.agents.defaults.model).toEqual({
      primary: 'openrouter/anthropic/claude-opus-4',
      fallbacks: ['anthropic/claude-sonnet-4'],
    });
    expect(config.providers['lab-vllm']).toEqual({ kind: 'openai-compatible', baseURL: 'http://10.0.0.5:8000/v1' });
    expect(config.agents.list).toEqual([
      { id: 'main' },
      { id: 'work', name: 'work', model: 'anthropic/claude-sonnet-4' },
    ]);
    const cron = JSON.parse(await readFile(join(paths.stateDir, 'cron', 'jobs.json'), 'utf8'));
    expect(cron.jobs.map((j: { scheduleText: string; delivery: string }) => [j.scheduleText, j.delivery])).toEqual([
      ['0 9 * * 1-5', 'telegram:207'],
      ['every 90m', 'ui'],
    ]);

    const again = await run('hermes', true);
    expect(again.counts.imported).toBe(0);
    expect(again.counts.import).toBe(0);
  });

  it('a second run changes nothing and reports everything the first imported as already present', async () => {
    const first = await run('hermes', true);
    const imported = targetsOf(first, 'imported');
    expect(imported.length).toBeGreaterThan(10);
    const ws = paths.workspaceDir('main');
    const snapshot = async () => ({
      config: await hearthJson(),
      files: await Promise.all(['SOUL.md', 'MEMORY.md', 'USER.md'].map((name) => readFile(join(ws, name), 'utf8'))),
      workSoul: await readFile(join(paths.workspaceDir('work'), 'SOUL.md'), 'utf8'),
      cron: await readFile(join(paths.stateDir, 'cron', 'jobs.json'), 'utf8'),
      sessions: await (async () => {
        const store = createSessionStore({ paths, clock: systemClock, log: silentLogger });
        const listed = (await store.list({ agentId: 'main' })).sessions;
        return Promise.all(
          listed.map(async (s) => [s.key, (await store.read('main', s.sessionId)).messages.length] as const),
        );
      })(),
      keys: await Promise.all(
        ['hermes-openrouter', 'hermes-anthropic', 'hermes-lab-vllm'].map((id) => secrets.get(`auth-profile:${id}`)),
      ),
    });
    const before = await snapshot();

    const dry = await run('hermes', false);
    expect(dry.items.filter((i) => i.status === 'import')).toEqual([]);
    expect(dry.items.filter((i) => i.status === 'conflict')).toEqual([]);
    // Everything the first run brought in is reported as there already, item by item.
    expect(targetsOf(dry, 'present').sort()).toEqual([...imported].sort());
    // What was skipped the first time (state.db, a bot token, a danger-pattern allowlist) is skipped again.
    expect(targetsOf(dry, 'skipped').sort()).toEqual(targetsOf(first, 'skipped').sort());

    const applied = await run('hermes', true);
    expect(applied.counts.imported).toBe(0);
    expect(applied.items.filter((i) => i.status === 'failed')).toEqual([]);
    expect(await snapshot()).toEqual(before);

    // A file edited in Hearth since the import is the person's now: a third run keeps the edit.
    await writeFile(join(ws, 'MEMORY.md'), '# Memory\nEdited in Hearth.\n');
    const third = await run('hermes', true);
    expect(third.counts.imported).toBe(0);
    expect(itemFor(third, 'workspace/MEMORY.md')?.status).toMatch(/present|conflict/);
    expect(await readFile(join(ws, 'MEMORY.md'), 'utf8')).toBe('# Memory\nEdited in Hearth.\n');
  });

  it('reports invalid YAML and still imports the memories and sessions', async () => {
    await writeHermesFixture(sourceDir, { malformed: true });
    const report = await run('hermes', true);
    expect(itemFor(report, 'config.yaml')).toMatchObject({
      status: 'skipped',
      reason: expect.stringMatching(/not valid YAML/),
      reasonCode: 'invalid-yaml-config',
      reasonParams: { detail: expect.any(String) },
    });
    expect(itemFor(report, hermesSessionIds.cli)).toMatchObject({
      status: 'imported',
      reason: expect.stringMatching(/unreadable/),
      reasonCode: 'unreadable-lines',
    });
    expect(await readFile(join(paths.workspaceDir('main'), 'MEMORY.md'), 'utf8')).toContain('Debian');
  });
});

/**
 * Every reason comes as a code with params (worded in the person's language by the Control UI) and
 * the English sentence the CLI prints, which must be that code's own words: no bare English reason.
 */
function expectEveryReasonCoded(report: ImportReport): void {
  for (const item of report.items) {
    if (item.reason === undefined) {
      expect(item.reasonCode, item.origin).toBeUndefined();
      continue;
    }
    const again = importReason(item.reasonCode as 'apply-failed', item.reasonParams as { detail: string });
    expect(again.reason, `${item.origin}: ${item.reasonCode}`).toBe(item.reason);
  }
}

const codeOf = (report: ImportReport, text: string) => {
  const item = itemFor(report, text);
  return item && { status: item.status, code: item.reasonCode, params: item.reasonParams };
};

describe('import reasons are codes', () => {
  it('the full fixtures: every reason, in plan and report, is a code whose English is the sentence given', async () => {
    await writeOpenClawFixture(sourceDir, { malformed: true });
    for (const report of [await run('openclaw', false), await run('openclaw', true)]) expectEveryReasonCoded(report);
    sourceDir = join(temp.home, 'hermes');
    await writeHermesFixture(sourceDir, { malformed: true });
    for (const report of [await run('hermes', false), await run('hermes', true)]) expectEveryReasonCoded(report);
  });

  it('OpenClaw: an odd folder gives each reader reason as its code, with the detail from elsewhere verbatim', async () => {
    const message = (id: string, text: string) => ({
      type: 'message',
      id,
      message: { role: 'user', content: [{ type: 'text', text }] },
    });
    await writeTree(sourceDir, {
      'openclaw.json': JSON.stringify({
        agents: { defaults: { model: 'fast' }, list: [{ id: 'Bad Id' }] },
        models: {
          providers: { smoke: { api: 'smoke-signals' }, bad: { api: 'openai-completions', baseUrl: 'not a url' } },
        },
        bindings: [
          { agentId: 'ghost', match: { channel: 'telegram' } },
          { agentId: 'main', match: {} },
        ],
      }),
      'agents/Bad Id/sessions/x.jsonl': jsonl(message('u1', 'hi')),
      'agents/main/agent/auth-profiles.json': JSON.stringify({
        profiles: {
          'mystery:default': { type: 'api_key', provider: 'mystery', key: 'k-mystery' },
          'x:y': { type: 'api_key' },
        },
      }),
      'agents/dev/agent/auth-profiles.json/not-a-file': '',
      'agents/main/sessions/sessions.json': '{',
      'agents/main/sessions/empty.jsonl': jsonl({ type: 'custom', id: 'c1' }),
      'agents/main/sessions/mixed.jsonl': `${jsonl(message('u1', 'hello'), { type: 'custom', id: 'c1' })}{torn\n`,
      'agents/main/sessions/events.jsonl': jsonl(message('u1', 'hello'), { type: 'custom', id: 'c1' }),
      'cron/jobs.json': JSON.stringify({
        jobs: [
          { id: 'silent', schedule: { kind: 'cron', expr: '0 7 * * *' }, payload: {} },
          { id: 'odd', schedule: { kind: 'lunar' }, payload: { message: 'howl' } },
          {
            id: 'bad-expr',
            name: 'Bad expr',
            schedule: { kind: 'cron', expr: 'every full moon' },
            payload: { message: 'x' },
          },
        ],
      }),
      'exec-approvals.json': '{',
    });
    await symlink(join(temp.home, 'nowhere.jsonl'), join(sourceDir, 'agents', 'main', 'sessions', 'gone.jsonl'));
    const plan = await run('openclaw', false);
    expectEveryReasonCoded(plan);
    expect(codeOf(plan, 'agents.defaults.model')).toMatchObject({ code: 'model-unresolved' });
    expect(codeOf(plan, 'agent "Bad Id"')).toMatchObject({ code: 'invalid-agent-id' });
    expect(codeOf(plan, 'agents/Bad Id/')).toMatchObject({ code: 'invalid-agent-id-sessions' });
    expect(codeOf(plan, 'models.providers.smoke')).toMatchObject({
      code: 'no-adapter',
      params: { api: 'smoke-signals' },
    });
    expect(codeOf(plan, 'models.providers.bad')).toMatchObject({
      code: 'invalid-provider',
      params: { detail: expect.any(String) },
    });
    expect(codeOf(plan, '→ ghost')).toMatchObject({
      status: 'skipped',
      code: 'unknown-agent',
      params: { agent: 'ghost' },
    });
    expect(codeOf(plan, 'bindings[1]')).toMatchObject({ code: 'invalid-binding', params: { detail: /channel/ } });
    expect(codeOf(plan, 'auth-profiles.json x:y')).toMatchObject({
      code: 'credential-without-key',
      params: { type: 'api_key' },
    });
    expect(codeOf(plan, 'mystery')).toMatchObject({
      status: 'import',
      code: 'key-to-secret-store-unknown-provider',
      params: { provider: 'mystery' },
    });
    expect(codeOf(plan, 'agents/dev/agent/auth-profiles.json')).toMatchObject({
      code: 'unreadable-file',
      params: { detail: 'EISDIR' },
    });
    expect(codeOf(plan, 'sessions/sessions.json')).toMatchObject({
      code: 'invalid-json-session-index',
      params: { detail: expect.any(String) },
    });
    expect(codeOf(plan, 'gone.jsonl')).toMatchObject({ code: 'vanished' });
    expect(codeOf(plan, 'empty.jsonl')).toMatchObject({
      status: 'skipped',
      code: 'no-messages',
      params: { unreadable: 0, unmatched: 1 },
    });
    expect(codeOf(plan, 'mixed.jsonl')).toMatchObject({
      status: 'import',
      code: 'unreadable-lines-and-unmatched-events',
      params: { unreadable: 1, unmatched: 1 },
    });
    expect(codeOf(plan, 'events.jsonl')).toMatchObject({ code: 'unmatched-events', params: { count: 1 } });
    expect(codeOf(plan, 'jobs.json silent')).toMatchObject({ code: 'cron-no-message' });
    expect(codeOf(plan, 'jobs.json odd')).toMatchObject({
      code: 'schedule-not-understood',
      params: { detail: '{"kind":"lunar"}' },
    });
    // Hearth's schedule parser refuses the expression: its message is the detail, as it wrote it.
    expect(codeOf(plan, 'Bad expr')).toMatchObject({
      status: 'skipped',
      code: 'schedule-not-understood',
      params: { detail: expect.stringMatching(/every full moon/) },
    });
    expect(codeOf(plan, 'exec-approvals.json')).toMatchObject({ code: 'invalid-json' });
  });

  it('OpenClaw: a config that is not JSON is one coded reason naming what was not read', async () => {
    await writeTree(sourceDir, { 'openclaw.json': '{ "agents": ', 'workspace/SOUL.md': '# Soul\n' });
    const plan = await run('openclaw', false);
    expectEveryReasonCoded(plan);
    expect(codeOf(plan, 'openclaw.json')).toMatchObject({
      code: 'invalid-json-config',
      params: { detail: expect.any(String) },
    });
    expect(itemFor(plan, 'openclaw.json')?.reason).toMatch(/agents, models and bindings were not read/);
  });

  it("conflicts with what Hearth has name Hearth's own, each as its code", async () => {
    await writeOpenClawFixture(sourceDir);
    await mkdir(paths.home, { recursive: true });
    await writeFile(
      paths.configFile,
      `${JSON.stringify({
        providers: { deepseek: { kind: 'openai-compatible', baseURL: 'https://deepseek.example/v1' } },
        agents: { list: [{ id: 'main' }, { id: 'dev', model: 'openai/gpt-4o' }] },
      })}\n`,
    );
    const targets = await openTargets();
    try {
      await targets.auth.set({ id: 'openclaw-deepseek', provider: 'deepseek', type: 'api_key', secret: 'sk-other' });
      await targets.auth.set({
        id: 'my-anthropic',
        provider: 'anthropic',
        type: 'api_key',
        secret: openClawKeys.anthropic,
      });
      await targets.cron.add({
        name: 'Morning brief',
        agentId: 'main',
        schedule: '0 8 * * *',
        message: 'My own brief',
        session: 'isolated',
        delivery: 'ui',
      });
    } finally {
      await targets.close();
    }
    const plan = await run('openclaw', false);
    expectEveryReasonCoded(plan);
    expect(codeOf(plan, 'providers.deepseek')).toMatchObject({
      status: 'conflict',
      code: 'provider-differs',
      params: { target: 'providers.deepseek', kind: 'openai-compatible', baseURL: 'https://deepseek.example/v1' },
    });
    expect(codeOf(plan, 'agents.list[dev]')).toMatchObject({
      status: 'conflict',
      code: 'agent-differs',
      params: { agent: 'dev' },
    });
    expect(codeOf(plan, 'openclaw-deepseek')).toMatchObject({
      status: 'conflict',
      code: 'profile-exists',
      params: { profile: 'openclaw-deepseek' },
    });
    expect(codeOf(plan, 'openclaw-anthropic-default')).toMatchObject({
      status: 'present',
      code: 'same-key-stored',
      params: { profile: 'my-anthropic' },
    });
    expect(codeOf(plan, 'Morning brief')).toMatchObject({
      status: 'conflict',
      code: 'cron-job-differs',
      params: { name: 'Morning brief' },
    });
  });

  it('Hermes: an odd home gives each reader reason as its code', async () => {
    await writeTree(sourceDir, {
      'config.yaml': 'model:\n  provider: custom\ncustom_providers:\n  - name: half\n',
      '.env/not-a-file': '',
      'sessions/sessions.json/not-a-file': '',
      'sessions/s1.jsonl': jsonl({ role: 'user', content: 'hello' }),
      'cron/jobs.json': JSON.stringify({
        jobs: [
          { id: 'silent', schedule: { kind: 'cron', expr: '0 7 * * *' } },
          { id: 'odd', prompt: 'howl', schedule: { kind: 'lunar' } },
        ],
      }),
      'profiles/Not Valid/SOUL.md': '# x\n',
    });
    const plan = await run('hermes', false);
    expectEveryReasonCoded(plan);
    expect(codeOf(plan, 'config.yaml model')).toMatchObject({ code: 'custom-provider-no-base-url' });
    expect(plan.items.filter((i) => i.origin === 'config.yaml model').map((i) => i.reasonCode)).toContain(
      'model-unresolved',
    );
    expect(codeOf(plan, 'custom_providers')).toMatchObject({ code: 'custom-provider-incomplete' });
    expect(codeOf(plan, '.env')).toMatchObject({ code: 'unreadable-file', params: { detail: 'EISDIR' } });
    expect(codeOf(plan, 'sessions/sessions.json')).toMatchObject({
      code: 'unreadable-session-index',
      params: { detail: 'EISDIR' },
    });
    expect(codeOf(plan, 'jobs.json silent')).toMatchObject({ code: 'cron-no-message' });
    expect(codeOf(plan, 'jobs.json odd')).toMatchObject({
      code: 'schedule-not-understood',
      params: { detail: '{"kind":"lunar"}' },
    });
    expect(codeOf(plan, 'profiles/Not Valid/')).toMatchObject({ code: 'invalid-agent-id' });
  });
});
