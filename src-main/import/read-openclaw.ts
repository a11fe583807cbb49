import { basename, join } from 'node:path';
import { providerEntrySchema } from '../providers/index.js';
import { bindingSchema, isValidAgentId } from '../sessions/index.js';
import { parseDotenv } from './dotenv-file.js';
import { fileReason, type ImportReason, importReason } from './import-reasons.js';
import { type CronJobFound, emptyInventory, type ImportInventory } from './import-types.js';
import {
  hearthProviderId,
  isEnvReference,
  kindOfOpenClawApi,
  providerEntryFor,
  providerKeyVariables,
} from './known-providers.js';
import { hearthModelSelection } from './model-refs.js';
import { convertOpenClawTranscript } from './openclaw-transcript.js';
import { parseRelaxedJson } from './relaxed-json.js';
import {
  dailyNotes,
  epochMs,
  isFile,
  isFolder,
  listFolder,
  readSourceJson,
  readSourceText,
  record,
  text,
  workspaceFileNames,
} from './source-files.js';

export interface ReadOpenClawOptions {
  /** The OpenClaw state folder, usually ~/.openclaw. */
  from: string;
  /** The person's home folder, for `~/` in configured workspace paths. */
  userHome: string;
}

/**
 * Reads an OpenClaw state folder in its real layout: `openclaw.json` (JSON5), `workspace/` and
 * `workspace-<agent>/`, `agents/<agent>/sessions/{sessions.json,<id>.jsonl}`,
 * `agents/<agent>/agent/auth-profiles.json`, `.env`, `cron/jobs.json`, `exec-approvals.json`.
 */
export async function readOpenClaw(options: ReadOpenClawOptions): Promise<ImportInventory> {
  const { from } = options;
  const inventory = emptyInventory('openclaw', from);
  const skip = (kind: ImportInventory['skipped'][number]['kind'], what: string, why: ImportReason) =>
    inventory.skipped.push({ kind, what, ...why });

  const configFile = await readSourceJson(join(from, 'openclaw.json'), parseRelaxedJson);
  if (configFile.state === 'bad') skip('other', 'openclaw.json', fileReason(configFile, 'config'));
  const config = configFile.state === 'ok' ? (record(configFile.value) ?? {}) : {};
  const agentsSection = record(config.agents) ?? {};
  const defaults = record(agentsSection.defaults) ?? {};

  // agents.list is an array of {id,…} (current) or an object keyed by id (older configs).
  const listed = new Map<string, Record<string, unknown>>();
  const rawList = agentsSection.list;
  if (Array.isArray(rawList)) {
    for (const entry of rawList.map(record)) if (entry && text(entry.id)) listed.set(entry.id as string, entry);
  } else if (record(rawList)) {
    for (const [id, entry] of Object.entries(record(rawList)!)) listed.set(id, record(entry) ?? {});
  }

  const defaultModel = hearthModelSelection(defaults.model);
  if (defaultModel) inventory.defaultModel = { ...defaultModel, origin: 'openclaw.json agents.defaults.model' };
  else if (defaults.model !== undefined) skip('model', 'agents.defaults.model', importReason('model-unresolved'));

  for (const [id, entry] of listed) {
    if (!isValidAgentId(id)) {
      skip('agent', `agent "${id}"`, importReason('invalid-agent-id'));
      continue;
    }
    const model = hearthModelSelection(entry.model);
    if (id === 'main') {
      if (model && !inventory.defaultModel)
        inventory.defaultModel = { ...model, origin: 'openclaw.json agents.list[main].model' };
      continue;
    }
    const identity = record(entry.identity);
    const name = text(identity?.name) ?? text(entry.name) ?? text(entry.identity);
    inventory.agents.push({
      id,
      ...(name ? { name } : {}),
      ...(model ? { model: model.fallbacks.length > 0 ? model : model.primary } : {}),
      ...(entry.default === true ? { default: true } : {}),
      origin: `openclaw.json agents.list[${id}]`,
    });
  }

  const agentDirs = (await listFolder(join(from, 'agents'))).filter((e) => e.isDirectory).map((e) => e.name);
  const agentIds = [...new Set(['main', ...listed.keys(), ...agentDirs])].filter(isValidAgentId);

  for (const agentId of agentIds) {
    await readWorkspace(inventory, options, agentId, listed.get(agentId), defaults);
    await readSessions(inventory, join(from, 'agents', agentId, 'sessions'), agentId);
  }
  for (const id of agentDirs.filter((id) => !isValidAgentId(id)))
    skip('session', `agents/${id}/`, importReason('invalid-agent-id-sessions'));

  await readProviders(inventory, config);
  await readCredentials(inventory, from, agentDirs, config);
  readBindings(inventory, config);
  await readCron(inventory, from);
  await readExecApprovals(inventory, from);

  for (const channel of Object.keys(record(config.channels) ?? {}))
    skip('other', `channels.${channel}`, importReason('channel-login-not-moved', { channel }));
  if (await isFolder(join(from, 'credentials'))) skip('other', 'credentials/', importReason('channel-logins-folder'));
  return inventory;
}

function expandHome(path: string, userHome: string): string {
  return path === '~' ? userHome : path.startsWith('~/') ? join(userHome, path.slice(2)) : path;
}

async function readWorkspace(
  inventory: ImportInventory,
  options: ReadOpenClawOptions,
  agentId: string,
  entry: Record<string, unknown> | undefined,
  defaults: Record<string, unknown>,
): Promise<void> {
  const standard = join(options.from, agentId === 'main' ? 'workspace' : `workspace-${agentId}`);
  const configured = text(entry?.workspace) ?? (agentId === 'main' ? text(defaults.workspace) : undefined);
  // A configured folder that is not here (a copy from another machine) falls back to the standard one.
  const candidates = [configured ? expandHome(configured, options.userHome) : undefined, standard];
  let workspace: string | undefined;
  for (const candidate of candidates) if (!workspace && candidate && (await isFolder(candidate))) workspace = candidate;
  if (!workspace) return;
  for (const name of workspaceFileNames) {
    if (await isFile(join(workspace, name)))
      inventory.workspaceFiles.push({ agentId, relPath: name, sourcePath: join(workspace, name) });
  }
  for (const note of await dailyNotes(workspace))
    inventory.workspaceFiles.push({ agentId, relPath: `memory/${note}`, sourcePath: join(workspace, 'memory', note) });
}

async function readSessions(inventory: ImportInventory, dir: string, agentId: string): Promise<void> {
  const files = (await listFolder(dir)).filter((e) => !e.isDirectory && e.name.endsWith('.jsonl'));
  if (files.length === 0) return;
  const keyById = new Map<string, { key: string; title?: string }>();
  const index = await readSourceJson(join(dir, 'sessions.json'));
  if (index.state === 'bad')
    inventory.skipped.push({
      kind: 'session',
      what: `agents/${agentId}/sessions/sessions.json`,
      ...fileReason(index, 'session-titles'),
    });
  if (index.state === 'ok') {
    for (const [key, value] of Object.entries(record(index.value) ?? {})) {
      const entry = record(value);
      const sessionId = text(entry?.sessionId);
      if (!sessionId) continue;
      const title = text(entry?.label) ?? text(entry?.displayName) ?? text(entry?.subject);
      keyById.set(sessionId, { key, ...(title ? { title } : {}) });
    }
  }
  for (const file of files) {
    const sourcePath = join(dir, file.name);
    const sourceId = basename(file.name, '.jsonl');
    const content = await readSourceText(sourcePath);
    if (content.state !== 'ok') {
      inventory.skipped.push({
        kind: 'session',
        what: `agents/${agentId}/sessions/${file.name}`,
        ...(content.state === 'bad' ? fileReason(content) : importReason('vanished')),
      });
      continue;
    }
    const converted = convertOpenClawTranscript(content.value);
    const known = keyById.get(sourceId);
    inventory.sessions.push({
      agentId,
      sourceId,
      sourcePath,
      ...(known ? { sourceKey: known.key } : {}),
      ...(known?.title ? { title: known.title } : {}),
      messages: converted.messages,
      droppedLines: converted.droppedLines,
      malformedLines: converted.malformedLines,
    });
  }
}

async function readProviders(inventory: ImportInventory, config: Record<string, unknown>): Promise<void> {
  const providers = record(record(config.models)?.providers) ?? {};
  for (const [rawId, value] of Object.entries(providers)) {
    const provider = record(value) ?? {};
    const id = hearthProviderId(rawId);
    const origin = `openclaw.json models.providers.${rawId}`;
    const kind = kindOfOpenClawApi(provider.api);
    if (!kind) {
      inventory.skipped.push({
        kind: 'provider',
        what: origin,
        ...importReason('no-adapter', { api: String(provider.api) }),
      });
      continue;
    }
    const models: Record<string, { contextWindow: number; maxOutputTokens: number; name?: string }> = {};
    for (const model of Array.isArray(provider.models) ? provider.models.map(record) : []) {
      const modelId = text(model?.id);
      const contextWindow = model?.contextWindow;
      const maxOutputTokens = model?.maxTokens ?? model?.maxOutputTokens;
      if (!modelId || typeof contextWindow !== 'number' || typeof maxOutputTokens !== 'number') continue;
      models[modelId] = {
        contextWindow,
        maxOutputTokens,
        ...(text(model?.name) ? { name: model?.name as string } : {}),
      };
    }
    const baseURL = text(provider.baseUrl) ?? text(provider.baseURL);
    const candidate = {
      kind,
      ...(baseURL ? { baseURL } : {}),
      ...(Object.keys(models).length > 0 ? { models } : {}),
    };
    const parsed = providerEntrySchema.safeParse(candidate);
    if (!parsed.success) {
      inventory.skipped.push({
        kind: 'provider',
        what: origin,
        ...importReason('invalid-provider', { detail: parsed.error.issues[0]?.message ?? 'invalid' }),
      });
      continue;
    }
    // A built-in provider listed only to carry a key needs no entry of its own.
    if (baseURL || Object.keys(models).length > 0 || providerEntryFor(id) === undefined)
      inventory.providers.push({ id, entry: parsed.data, origin });
    const apiKey = text(provider.apiKey);
    if (apiKey && isEnvReference(apiKey)) {
      inventory.skipped.push({
        kind: 'credential',
        what: `${origin}.apiKey`,
        ...importReason('key-from-environment', { reference: apiKey.trim() }),
      });
    } else if (apiKey) {
      inventory.credentials.push({
        profileId: `openclaw-${id}`,
        provider: id,
        type: 'api_key',
        secret: apiKey,
        origin: `${origin}.apiKey`,
      });
    }
  }
}

async function readCredentials(
  inventory: ImportInventory,
  from: string,
  agentDirs: readonly string[],
  config: Record<string, unknown>,
): Promise<void> {
  const seen = new Set(inventory.credentials.map((c) => `${c.provider}\n${c.secret}`));
  const add = (profileId: string, provider: string, type: 'api_key' | 'token', secret: string, origin: string) => {
    // The same key is often copied into every agent's auth-profiles.json: one Hearth profile.
    if (seen.has(`${provider}\n${secret}`)) return;
    seen.add(`${provider}\n${secret}`);
    inventory.credentials.push({ profileId, provider, type, secret, origin });
  };
  for (const agentId of agentDirs) {
    const path = join(from, 'agents', agentId, 'agent', 'auth-profiles.json');
    const file = await readSourceJson(path);
    const relative = `agents/${agentId}/agent/auth-profiles.json`;
    if (file.state === 'missing') continue;
    if (file.state === 'bad') {
      inventory.skipped.push({ kind: 'credential', what: relative, ...fileReason(file) });
      continue;
    }
    for (const [id, value] of Object.entries(record(record(file.value)?.profiles) ?? {})) {
      const profile = record(value) ?? {};
      const provider = hearthProviderId(text(profile.provider) ?? id.split(':')[0] ?? id);
      const type = text(profile.type) ?? text(profile.mode);
      const origin = `${relative} ${id}`;
      const profileId = `openclaw-${id.replace(/[^A-Za-z0-9._-]+/g, '-')}`.slice(0, 64);
      const secret = text(profile.key) ?? text(profile.apiKey) ?? text(profile.token);
      if ((type === 'api_key' || type === 'token') && secret) add(profileId, provider, type, secret, origin);
      else if (type === 'oauth')
        inventory.skipped.push({
          kind: 'credential',
          what: origin,
          ...importReason('oauth-not-moved'),
        });
      else
        inventory.skipped.push({
          kind: 'credential',
          what: origin,
          ...importReason('credential-without-key', { type: String(type) }),
        });
    }
  }
  const fromEnv = async (values: Map<string, string>, where: string) => {
    for (const [name, value] of values) {
      const provider = providerKeyVariables[name];
      if (provider && !isEnvReference(value))
        add(`openclaw-${provider}-env`, provider, 'api_key', value, `${where} ${name}`);
    }
  };
  const configEnv = record(config.env);
  if (configEnv) {
    const values = new Map<string, string>();
    for (const [name, value] of Object.entries(record(configEnv.vars) ?? configEnv))
      if (typeof value === 'string') values.set(name, value);
    await fromEnv(values, 'openclaw.json env');
  }
  const dotenv = await readSourceText(join(from, '.env'));
  if (dotenv.state === 'ok') await fromEnv(parseDotenv(dotenv.value), '.env');
}

function readBindings(inventory: ImportInventory, config: Record<string, unknown>): void {
  const underAgents = record(config.agents)?.bindings;
  const raw: unknown[] = Array.isArray(config.bindings)
    ? config.bindings
    : Array.isArray(underAgents)
      ? underAgents
      : [];
  raw.forEach((value, index) => {
    const binding = record(value) ?? {};
    const match = record(binding.match) ?? {};
    const peer = record(match.peer);
    const peerKind = peer?.kind === 'dm' ? 'direct' : peer?.kind;
    const candidate = {
      agentId: binding.agentId,
      match: {
        channel: match.channel,
        ...(text(match.accountId) ? { accountId: match.accountId } : {}),
        ...(peer ? { peer: { kind: peerKind, id: peer.id === undefined ? undefined : String(peer.id) } } : {}),
        ...(text(match.guildId) || text(match.teamId) ? { guildId: text(match.guildId) ?? text(match.teamId) } : {}),
      },
    };
    const origin = `openclaw.json bindings[${index}]`;
    const parsed = bindingSchema.safeParse(candidate);
    if (parsed.success) inventory.bindings.push({ binding: parsed.data, origin });
    else
      inventory.skipped.push({
        kind: 'binding',
        what: origin,
        ...importReason('invalid-binding', {
          detail: parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '),
        }),
      });
  });
}

async function readCron(inventory: ImportInventory, from: string): Promise<void> {
  const file = await readSourceJson(join(from, 'cron', 'jobs.json'));
  if (file.state === 'missing') return;
  if (file.state === 'bad') {
    inventory.skipped.push({ kind: 'cron-job', what: 'cron/jobs.json', ...fileReason(file) });
    return;
  }
  const jobs = record(file.value)?.jobs;
  (Array.isArray(jobs) ? jobs : []).forEach((value, index) => {
    const job = record(value) ?? {};
    const origin = `cron/jobs.json ${text(job.id) ?? `#${index}`}`;
    const payload = record(job.payload) ?? {};
    const message = text(payload.message) ?? text(payload.text);
    const schedule = record(job.schedule) ?? {};
    const agentId = text(job.agentId) ?? 'main';
    const found = scheduleText(schedule);
    if (!message || !found) {
      inventory.skipped.push({
        kind: 'cron-job',
        what: origin,
        ...(!message
          ? importReason('cron-no-message')
          : importReason('schedule-not-understood', { detail: JSON.stringify(schedule) })),
      });
      return;
    }
    const delivery = record(job.delivery);
    const mode = text(delivery?.mode);
    const channel = text(delivery?.channel);
    const to = delivery?.to === undefined ? undefined : String(delivery.to);
    const cron: CronJobFound = {
      input: {
        name: (text(job.name) ?? message.slice(0, 60)).slice(0, 120),
        schedule: found.schedule,
        ...(found.tz ? { tz: found.tz } : {}),
        agentId,
        message,
        session: job.sessionTarget === 'main' ? `agent:${agentId}:main` : 'isolated',
        delivery: mode === 'none' ? 'none' : channel && to ? `${channel}:${to}` : 'ui',
        enabled: job.enabled !== false,
      },
      origin,
    };
    inventory.cronJobs.push(cron);
  });
}

function scheduleText(schedule: Record<string, unknown>): { schedule: string; tz?: string } | undefined {
  switch (schedule.kind) {
    case 'cron':
      return text(schedule.expr)
        ? { schedule: schedule.expr as string, ...(text(schedule.tz) ? { tz: schedule.tz as string } : {}) }
        : undefined;
    case 'every': {
      const everyMs = schedule.everyMs;
      if (typeof everyMs !== 'number' || everyMs <= 0) return undefined;
      return { schedule: `every ${Math.max(1, Math.round(everyMs / 60_000))}m` };
    }
    case 'at': {
      const at = epochMs(schedule.at ?? schedule.atMs);
      return at === undefined ? undefined : { schedule: `at ${new Date(at).toISOString()}` };
    }
    default:
      return undefined;
  }
}

async function readExecApprovals(inventory: ImportInventory, from: string): Promise<void> {
  const file = await readSourceJson(join(from, 'exec-approvals.json'));
  if (file.state === 'missing') return;
  if (file.state === 'bad') {
    inventory.skipped.push({ kind: 'allowlist', what: 'exec-approvals.json', ...fileReason(file) });
    return;
  }
  for (const [agentId, value] of Object.entries(record(record(file.value)?.agents) ?? {})) {
    const entries = record(value)?.allowlist;
    for (const entry of Array.isArray(entries) ? entries : []) {
      const pattern = text(record(entry)?.pattern) ?? text(entry);
      if (!pattern) continue;
      const origin = `exec-approvals.json agents.${agentId}`;
      if (!isValidAgentId(agentId))
        inventory.skipped.push({
          kind: 'allowlist',
          what: `${origin} ${pattern}`,
          ...importReason('invalid-agent-id'),
        });
      else inventory.allowlist.push({ agentId, pattern, origin });
    }
  }
}
