import { basename, join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { isValidAgentId } from '../sessions/index.js';
import type { AgentMessage } from '../transcript/index.js';
import { parseDotenv } from './dotenv-file.js';
import { fileReason, type ImportReason, importReason } from './import-reasons.js';
import { emptyInventory, type ImportInventory } from './import-types.js';
import { hearthProviderId, isEnvReference, providerKeyVariables } from './known-providers.js';
import { hearthModelRef } from './model-refs.js';
import {
  epochMs,
  isFile,
  jsonlRecords,
  listFolder,
  readSourceJson,
  readSourceText,
  record,
  text,
} from './source-files.js';

export interface ReadHermesOptions {
  /** The Hermes home, usually ~/.hermes (HERMES_HOME). */
  from: string;
}

/**
 * Reads a Hermes Agent home in its real layout: `config.yaml`, `.env` (keys), `SOUL.md`,
 * `memories/{MEMORY,USER}.md`, `sessions/{sessions.json,<id>.jsonl}`, `cron/jobs.json`, and
 * `profiles/<name>/` (the same layout again, one Hearth agent per profile). Sessions Hermes keeps
 * only in `state.db` (SQLite) are reported, not read: Node 20 has no SQLite and Hearth adds no
 * dependency for it.
 */
export async function readHermes(options: ReadHermesOptions): Promise<ImportInventory> {
  const inventory = emptyInventory('hermes', options.from);
  const seenSecrets = new Set<string>();
  await readHome(inventory, options.from, 'main', '', seenSecrets);
  for (const profile of (await listFolder(join(options.from, 'profiles'))).filter((e) => e.isDirectory)) {
    const where = `profiles/${profile.name}/`;
    if (!isValidAgentId(profile.name)) {
      inventory.skipped.push({ kind: 'agent', what: where, ...importReason('invalid-agent-id') });
      continue;
    }
    inventory.agents.push({ id: profile.name, name: profile.name, origin: where });
    await readHome(inventory, join(options.from, 'profiles', profile.name), profile.name, where, seenSecrets);
  }
  return inventory;
}

async function readHome(
  inventory: ImportInventory,
  dir: string,
  agentId: string,
  prefix: string,
  seenSecrets: Set<string>,
): Promise<void> {
  const skip = (kind: ImportInventory['skipped'][number]['kind'], what: string, why: ImportReason) =>
    inventory.skipped.push({ kind, what: `${prefix}${what}`, ...why });

  const configFile = await readSourceText(join(dir, 'config.yaml'));
  let config: Record<string, unknown> = {};
  if (configFile.state === 'bad') skip('other', 'config.yaml', fileReason(configFile));
  if (configFile.state === 'ok') {
    try {
      config = record(parseYaml(configFile.value)) ?? {};
    } catch (error) {
      // The YAML parser's first line, as it wrote it.
      skip(
        'other',
        'config.yaml',
        importReason('invalid-yaml-config', { detail: (error as Error).message.split('\n')[0]! }),
      );
    }
  }

  const env = new Map<string, string>();
  const envFile = await readSourceText(join(dir, '.env'));
  if (envFile.state === 'ok') for (const [k, v] of parseDotenv(envFile.value)) env.set(k, v);
  if (envFile.state === 'bad') skip('credential', '.env', fileReason(envFile));

  // The model: `model: "provider/id"` or `{default, provider, base_url}`; `provider: custom` is
  // an OpenAI-compatible endpoint of the person's own.
  const modelSection = record(config.model);
  const modelText =
    typeof config.model === 'string' ? config.model : (text(modelSection?.default) ?? text(modelSection?.model));
  let provider = text(modelSection?.provider);
  const baseUrl = text(modelSection?.base_url);
  if (provider === 'custom' || (!provider && baseUrl)) {
    const id = agentId === 'main' ? 'hermes-custom' : `hermes-${agentId}-custom`;
    if (baseUrl)
      inventory.providers.push({
        id,
        entry: { kind: 'openai-compatible', baseURL: baseUrl },
        origin: `${prefix}config.yaml model.base_url`,
      });
    else skip('provider', 'config.yaml model', importReason('custom-provider-no-base-url'));
    provider = id;
    const key = text(modelSection?.api_key) ?? env.get('OPENAI_API_KEY');
    if (key && !isEnvReference(key))
      addSecret(inventory, seenSecrets, id, id, key, `${prefix}config.yaml model / .env OPENAI_API_KEY`);
  } else if (provider === 'auto') {
    provider = env.has('OPENROUTER_API_KEY') ? 'openrouter' : undefined;
  }
  // Hermes sends a bare `vendor/model` (anthropic/claude-opus-4) through OpenRouter by default.
  let routed: string | undefined;
  if (modelText && provider)
    routed = modelText.startsWith(`${provider}/`)
      ? hearthModelRef(modelText)
      : `${hearthProviderId(provider)}/${modelText}`;
  else if (modelText) routed = env.has('OPENROUTER_API_KEY') ? `openrouter/${modelText}` : hearthModelRef(modelText);
  const fallbackSection = record(config.fallback_model);
  const fallback = fallbackSection
    ? hearthModelRef(text(fallbackSection.model), text(fallbackSection.provider))
    : undefined;
  if (routed) {
    const selection = { primary: routed, fallbacks: fallback ? [fallback] : [] };
    if (agentId === 'main') inventory.defaultModel = { ...selection, origin: `${prefix}config.yaml model` };
    else {
      const agent = inventory.agents.find((a) => a.id === agentId);
      if (agent) agent.model = selection.fallbacks.length > 0 ? selection : selection.primary;
    }
  } else if (config.model !== undefined) skip('model', 'config.yaml model', importReason('model-unresolved'));

  // custom_providers: [{name, base_url, api_key}]
  for (const value of Array.isArray(config.custom_providers) ? config.custom_providers : []) {
    const entry = record(value) ?? {};
    const name = text(entry.name);
    const url = text(entry.base_url);
    if (!name || !url) {
      skip('provider', 'config.yaml custom_providers', importReason('custom-provider-incomplete'));
      continue;
    }
    const id = hearthProviderId(name).replace(/[^a-z0-9._-]+/g, '-');
    inventory.providers.push({
      id,
      entry: { kind: 'openai-compatible', baseURL: url },
      origin: `${prefix}config.yaml custom_providers ${name}`,
    });
    const key = text(entry.api_key);
    if (key && !isEnvReference(key))
      addSecret(inventory, seenSecrets, `hermes-${id}`, id, key, `${prefix}config.yaml custom_providers ${name}`);
  }

  for (const [name, value] of env) {
    const keyProvider = providerKeyVariables[name];
    if (keyProvider)
      addSecret(inventory, seenSecrets, `hermes-${keyProvider}`, keyProvider, value, `${prefix}.env ${name}`);
    else if (/(_KEY|_TOKEN|_SECRET)$/.test(name))
      skip('credential', `.env ${name}`, importReason('not-a-provider-key'));
  }

  if (Array.isArray(config.command_allowlist) && config.command_allowlist.length > 0)
    skip('allowlist', 'config.yaml command_allowlist', importReason('allowlist-not-comparable'));

  for (const [source, target] of [
    ['SOUL.md', 'SOUL.md'],
    ['memories/MEMORY.md', 'MEMORY.md'],
    ['memories/USER.md', 'USER.md'],
  ] as const) {
    if (await isFile(join(dir, source)))
      inventory.workspaceFiles.push({ agentId, relPath: target, sourcePath: join(dir, source) });
  }

  await readSessions(inventory, dir, agentId, prefix);
  await readCron(inventory, dir, agentId, prefix);
}

function addSecret(
  inventory: ImportInventory,
  seen: Set<string>,
  profileId: string,
  provider: string,
  secret: string,
  origin: string,
): void {
  if (isEnvReference(secret) || seen.has(`${provider}\n${secret}`)) return;
  seen.add(`${provider}\n${secret}`);
  const taken = inventory.credentials.some((c) => c.profileId === profileId);
  inventory.credentials.push({
    profileId: taken ? `${profileId}-${inventory.credentials.length + 1}` : profileId,
    provider,
    type: 'api_key',
    secret,
    origin,
  });
}

async function readSessions(inventory: ImportInventory, dir: string, agentId: string, prefix: string): Promise<void> {
  const sessionsDir = join(dir, 'sessions');
  const files = (await listFolder(sessionsDir)).filter((e) => !e.isDirectory && e.name.endsWith('.jsonl'));
  const titles = new Map<string, { key: string; title?: string }>();
  const index = await readSourceJson(join(sessionsDir, 'sessions.json'));
  if (index.state === 'bad')
    inventory.skipped.push({
      kind: 'session',
      what: `${prefix}sessions/sessions.json`,
      ...fileReason(index, 'session-titles'),
    });
  if (index.state === 'ok') {
    for (const [key, value] of Object.entries(record(index.value) ?? {})) {
      const entry = record(value);
      const id = text(entry?.session_id);
      if (!id) continue;
      const title = text(entry?.display_name) ?? text(entry?.title);
      titles.set(id, { key, ...(title ? { title } : {}) });
    }
  }
  for (const file of files) {
    const sourcePath = join(sessionsDir, file.name);
    const sourceId = basename(file.name, '.jsonl');
    const content = await readSourceText(sourcePath);
    if (content.state !== 'ok') {
      inventory.skipped.push({
        kind: 'session',
        what: `${prefix}sessions/${file.name}`,
        ...(content.state === 'bad' ? fileReason(content) : importReason('vanished')),
      });
      continue;
    }
    const converted = convertHermesTranscript(content.value, sourceId);
    const known = titles.get(sourceId);
    inventory.sessions.push({
      agentId,
      sourceId,
      sourcePath,
      ...(known ? { sourceKey: known.key } : {}),
      ...((known?.title ?? converted.title) ? { title: known?.title ?? converted.title } : {}),
      messages: converted.messages,
      droppedLines: converted.droppedLines,
      malformedLines: converted.malformedLines,
    });
  }
  if (await isFile(join(dir, 'state.db'))) {
    inventory.skipped.push({
      kind: 'session',
      what: `${prefix}state.db`,
      ...importReason('sqlite-sessions'),
    });
  }
}

/** Hermes transcripts: a `session_meta` line, then OpenAI chat messages (user, assistant with tool_calls, tool). */
export function convertHermesTranscript(
  content: string,
  sourceId: string,
): { messages: AgentMessage[]; title?: string; droppedLines: number; malformedLines: number } {
  const messages: AgentMessage[] = [];
  const toolNames = new Map<string, string>();
  let title: string | undefined;
  let droppedLines = 0;
  let last = 0;
  const { records, malformedLines } = jsonlRecords(content);
  for (const { entry, lineNumber: line } of records) {
    // Hermes writes local ISO times without a zone; they are read as this machine's local time.
    const ts = epochMs(entry.timestamp) ?? last;
    last = ts;
    const id = `hm-${sourceId}-${line}`;
    const body = contentText(entry.content);
    switch (entry.role) {
      case 'session_meta':
        title = text(entry.title);
        break;
      case 'user':
        if (body) messages.push({ kind: 'user', id, ts, text: body });
        else droppedLines += 1;
        break;
      case 'assistant': {
        if (body) messages.push({ kind: 'assistant', id, ts, text: body });
        const calls = Array.isArray(entry.tool_calls) ? entry.tool_calls.map(record) : [];
        calls.forEach((call, index) => {
          const fn = record(call?.function);
          const callId = text(call?.id) ?? `${id}-call${index}`;
          const name = text(fn?.name) ?? 'tool';
          toolNames.set(callId, name);
          let input: unknown = fn?.arguments ?? {};
          if (typeof input === 'string') {
            try {
              input = JSON.parse(input);
            } catch {
              // Kept as the text the model wrote.
            }
          }
          messages.push({ kind: 'tool_call', id: `${id}-call${index}`, ts, toolCallId: callId, toolName: name, input });
        });
        if (!body && calls.length === 0) droppedLines += 1;
        break;
      }
      case 'tool': {
        const callId = text(entry.tool_call_id) ?? id;
        messages.push({
          kind: 'tool_result',
          id,
          ts,
          toolCallId: callId,
          toolName: toolNames.get(callId) ?? text(entry.name) ?? 'tool',
          output: body,
        });
        break;
      }
      default:
        droppedLines += 1;
    }
  }
  return { messages, ...(title ? { title } : {}), droppedLines, malformedLines };
}

function contentText(content: unknown): string {
  if (typeof content === 'string') return content.trim();
  if (!Array.isArray(content)) return '';
  return content
    .map(record)
    .filter((part) => part?.type === 'text' && typeof part.text === 'string')
    .map((part) => part!.text as string)
    .join('\n')
    .trim();
}

async function readCron(inventory: ImportInventory, dir: string, agentId: string, prefix: string): Promise<void> {
  const file = await readSourceJson(join(dir, 'cron', 'jobs.json'));
  if (file.state === 'missing') return;
  if (file.state === 'bad') {
    inventory.skipped.push({ kind: 'cron-job', what: `${prefix}cron/jobs.json`, ...fileReason(file) });
    return;
  }
  const jobs = record(file.value)?.jobs;
  (Array.isArray(jobs) ? jobs : []).forEach((value, index) => {
    const job = record(value) ?? {};
    const origin = `${prefix}cron/jobs.json ${text(job.id) ?? `#${index}`}`;
    const message = text(job.prompt);
    const schedule = record(job.schedule) ?? {};
    let when: string | undefined;
    if (schedule.kind === 'cron') when = text(schedule.expr);
    else if (schedule.kind === 'interval' && typeof schedule.minutes === 'number') when = `every ${schedule.minutes}m`;
    else if (schedule.kind === 'once') {
      const at = epochMs(schedule.run_at);
      when = at === undefined ? undefined : `at ${new Date(at).toISOString()}`;
    }
    if (!message || !when) {
      inventory.skipped.push({
        kind: 'cron-job',
        what: origin,
        ...(!message
          ? importReason('cron-no-message')
          : importReason('schedule-not-understood', { detail: JSON.stringify(schedule) })),
      });
      return;
    }
    const origin_ = record(job.origin);
    const deliver = text(job.deliver);
    const delivery =
      deliver === 'origin' && text(origin_?.platform) && origin_?.chat_id !== undefined
        ? `${origin_!.platform as string}:${String(origin_!.chat_id)}`
        : deliver && deliver !== 'local' && deliver !== 'origin'
          ? 'owner'
          : 'ui';
    inventory.cronJobs.push({
      input: {
        name: (text(job.name) ?? message.slice(0, 60)).slice(0, 120),
        schedule: when,
        agentId,
        message,
        session: 'isolated',
        delivery,
        enabled: job.enabled !== false,
      },
      origin,
    });
  });
}
