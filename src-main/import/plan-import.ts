import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { nextRunAfter, parseSchedule } from '../cron/index.js';
import { writeFileAtomic } from '../fs/atomic-write.js';
import { type ImportFile, importFileSchema } from './import-config.js';
import { type ImportReason, importReason } from './import-reasons.js';
import type { ImportTargets } from './import-targets.js';
import {
  countItems,
  type ImportInventory,
  type ImportItem,
  type ImportItemKind,
  type ImportReport,
} from './import-types.js';
import { isKnownProvider, providerEntryFor } from './known-providers.js';
import { sessionLabel } from './source-files.js';

/** A plan: the dry-run report, and `apply` to carry out its `import` items. */
export interface PlannedImport {
  report: ImportReport;
  /** Runs every `import` item in dependency order; a failing item is reported, the rest go on. */
  apply(): Promise<ImportReport>;
}

interface Step {
  item: ImportItem;
  run?: () => Promise<void>;
}

// Config before what refers to it: providers and keys, then agents, then bindings and the rest.
const applyOrder: readonly ImportItemKind[] = [
  'provider',
  'credential',
  'agent',
  'model',
  'binding',
  'workspace-file',
  'session',
  'cron-job',
  'allowlist',
  'other',
];

/**
 * hearth.json as written (not `current`, whose defaults a patch would write back), typed by the
 * import's view schema (import-config.ts): checked against it, so no field needs a cast to be read.
 */
const rawConfig = (targets: ImportTargets): ImportFile =>
  importFileSchema.parse(targets.config.snapshot().parsed ?? {});

/**
 * Compares what the other tool has with what Hearth has, item by item. Nothing Hearth has is
 * ever replaced (an unedited starter workspace file is not the person's: it may be): a
 * difference is a `conflict`, and the same thing twice is `present`, so a second run imports nothing.
 */
export async function planImport(inventory: ImportInventory, targets: ImportTargets): Promise<PlannedImport> {
  const steps: Step[] = [];
  const source = inventory.source;
  const add = (item: ImportItem, run?: () => Promise<void>) => steps.push({ item, ...(run ? { run } : {}) });

  for (const file of inventory.workspaceFiles) await planWorkspaceFile(file, targets, add, source);
  for (const session of inventory.sessions) await planSession(session, targets, add, source);
  planProviders(inventory, targets, add);
  for (const credential of inventory.credentials) await planCredential(credential, inventory, targets, add, source);
  planModel(inventory, targets, add);
  planAgents(inventory, targets, add);
  planBindings(inventory, targets, add);
  planCron(inventory, targets, add);
  for (const entry of inventory.allowlist) {
    const target = `exec allowlist of ${entry.agentId}: ${entry.pattern}`;
    const present = targets.allowlist.entries(entry.agentId).some((e) => e.pattern === entry.pattern && !e.argPattern);
    if (present) add({ kind: 'allowlist', target, origin: entry.origin, status: 'present' });
    else
      add({ kind: 'allowlist', target, origin: entry.origin, status: 'import' }, () =>
        targets.allowlist.add(entry.agentId, { pattern: entry.pattern }),
      );
  }
  for (const { kind, what, ...why } of inventory.skipped)
    add({ kind, target: '-', origin: what, status: 'skipped', ...why });

  const report = (applied: boolean): ImportReport => {
    const items = steps.map((step) => step.item);
    return { source, from: inventory.from, applied, items, counts: countItems(items) };
  };
  return {
    report: report(false),
    async apply() {
      const ordered = [...steps].sort((a, b) => applyOrder.indexOf(a.item.kind) - applyOrder.indexOf(b.item.kind));
      for (const step of ordered) {
        if (step.item.status !== 'import' || !step.run) continue;
        try {
          await step.run();
          step.item.status = 'imported';
        } catch (error) {
          step.item = {
            ...step.item,
            status: 'failed',
            ...importReason('apply-failed', { detail: (error as Error).message }),
          };
        }
      }
      return report(true);
    },
  };
}

type Add = (item: ImportItem, run?: () => Promise<void>) => void;

async function readIfThere(path: string): Promise<Buffer | undefined> {
  return readFile(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
}

async function planWorkspaceFile(
  file: ImportInventory['workspaceFiles'][number],
  targets: ImportTargets,
  add: Add,
  source: string,
): Promise<void> {
  const path = join(targets.workspaceDir(file.agentId), ...file.relPath.split('/'));
  const target = `${file.agentId === 'main' ? 'workspace' : `workspace of ${file.agentId}`}/${file.relPath}`;
  const item = { kind: 'workspace-file' as const, target, origin: file.sourcePath };
  const content = await readIfThere(file.sourcePath);
  if (!content) return add({ ...item, status: 'skipped', ...importReason('vanished') });
  const existing = await readIfThere(path);
  const starter =
    targets.templatesDir && !file.relPath.includes('/')
      ? await readIfThere(join(targets.templatesDir, file.relPath))
      : undefined;
  const write = (replaceStarter: boolean) => async () => {
    await mkdir(dirname(path), { recursive: true });
    if (replaceStarter) {
      // Re-checked at apply time: an edit made since the plan is the person's and stays.
      const now = await readIfThere(path);
      if (now && !(starter && now.equals(starter))) throw new Error(`${path} was edited since the plan; kept`);
      await writeFileAtomic(path, content);
      return;
    }
    try {
      await writeFile(path, content, { flag: 'wx' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      // A running gateway seeds a new agent's workspace from the starters as soon as the agent is
      // in the config (a step of this same import): a starter that appeared meanwhile is replaced.
      const now = await readIfThere(path);
      if (now?.equals(content)) return;
      // (A starter still being copied is a prefix of it; the atomic rename leaves that copy behind.)
      const seeding = starter && now && starter.subarray(0, now.length).equals(now);
      if (!seeding) throw new Error(`${path} appeared since the plan; kept`);
      await writeFileAtomic(path, content);
    }
  };
  if (!existing) return add({ ...item, status: 'import' }, write(false));
  if (existing.equals(content)) return add({ ...item, status: 'present' });
  if (starter?.equals(existing))
    return add({ ...item, status: 'import', ...importReason('replaces-starter') }, write(true));
  add({ ...item, status: 'conflict', ...importReason('workspace-file-differs', { file: file.relPath, source }) });
}

async function planSession(
  session: ImportInventory['sessions'][number],
  targets: ImportTargets,
  add: Add,
  source: string,
): Promise<void> {
  const key = `agent:${session.agentId}:${sessionLabel(source, session.sourceId)}`;
  const origin = session.sourceKey ? `${session.sourcePath} (${session.sourceKey})` : session.sourcePath;
  const item = { kind: 'session' as const, target: key, origin };
  const unreadable = session.malformedLines;
  const unmatched = session.droppedLines;
  const leftOut: ImportReason | undefined =
    unreadable > 0 && unmatched > 0
      ? importReason('unreadable-lines-and-unmatched-events', { unreadable, unmatched })
      : unreadable > 0
        ? importReason('unreadable-lines', { count: unreadable })
        : unmatched > 0
          ? importReason('unmatched-events', { count: unmatched })
          : undefined;
  if (await targets.sessions.get(session.agentId, key)) return add({ ...item, status: 'present' });
  if (session.messages.length === 0)
    return add({ ...item, status: 'skipped', ...importReason('no-messages', { unreadable, unmatched }) });
  add({ ...item, status: 'import', ...leftOut }, async () => {
    const record = await targets.sessions.resolve(session.agentId, key);
    await targets.sessions.append(session.agentId, record.sessionId, session.messages);
    await targets.sessions.sync(session.agentId, record.sessionId);
    if (session.title) await targets.sessions.patch(session.agentId, key, { title: session.title.slice(0, 200) });
  });
}

function planProviders(inventory: ImportInventory, targets: ImportTargets, add: Add): void {
  const configured = targets.config.current.providers;
  const wanted = new Map(inventory.providers.map((p) => [p.id, p]));
  // A key for OpenRouter, DeepSeek… needs that provider's entry (its base URL) to be usable.
  for (const credential of inventory.credentials) {
    const entry = providerEntryFor(credential.provider);
    if (entry && !wanted.has(credential.provider))
      wanted.set(credential.provider, { id: credential.provider, entry, origin: `needed by ${credential.origin}` });
  }
  const model = inventory.defaultModel?.primary.split('/')[0];
  const modelEntry = model ? providerEntryFor(model) : undefined;
  if (model && modelEntry && !wanted.has(model))
    wanted.set(model, { id: model, entry: modelEntry, origin: `needed by ${inventory.defaultModel!.origin}` });
  for (const provider of wanted.values()) {
    const target = `providers.${provider.id}`;
    const existing = configured[provider.id];
    const item = { kind: 'provider' as const, target, origin: provider.origin };
    if (existing && existing.kind === provider.entry.kind && existing.baseURL === provider.entry.baseURL)
      add({ ...item, status: 'present' });
    else if (existing)
      add({
        ...item,
        status: 'conflict',
        ...importReason('provider-differs', { target, kind: existing.kind, baseURL: existing.baseURL ?? '' }),
      });
    else
      add({ ...item, status: 'import' }, async () => {
        await targets.config.patch({ providers: { [provider.id]: provider.entry } });
      });
  }
}

async function planCredential(
  credential: ImportInventory['credentials'][number],
  inventory: ImportInventory,
  targets: ImportTargets,
  add: Add,
  source: string,
): Promise<void> {
  const item = {
    kind: 'credential' as const,
    target: `auth profile ${credential.profileId} (${credential.provider})`,
    origin: credential.origin,
  };
  const secretOf = async (profile: Parameters<ImportTargets['auth']['credential']>[0]) =>
    (await targets.auth.credential(profile).catch(() => undefined))?.value;
  const existing = targets.auth.get(credential.profileId);
  if (existing) {
    const same = existing.provider === credential.provider && (await secretOf(existing)) === credential.secret;
    return add(
      same
        ? { ...item, status: 'present' }
        : { ...item, status: 'conflict', ...importReason('profile-exists', { profile: credential.profileId }) },
    );
  }
  for (const profile of targets.auth.profilesFor(credential.provider)) {
    if ((await secretOf(profile)) === credential.secret)
      return add({ ...item, status: 'present', ...importReason('same-key-stored', { profile: profile.id }) });
  }
  const reachable =
    isKnownProvider(credential.provider) ||
    credential.provider in targets.config.current.providers ||
    inventory.providers.some((p) => p.id === credential.provider);
  add(
    {
      ...item,
      status: 'import',
      ...(reachable
        ? importReason('key-to-secret-store')
        : importReason('key-to-secret-store-unknown-provider', { provider: credential.provider })),
    },
    async () => {
      await targets.auth.set({
        id: credential.profileId,
        provider: credential.provider,
        type: credential.type,
        label: `imported from ${source}`,
        secret: credential.secret,
      });
    },
  );
}

function planModel(inventory: ImportInventory, targets: ImportTargets, add: Add): void {
  const model = inventory.defaultModel;
  if (!model) return;
  const wanted = { primary: model.primary, fallbacks: model.fallbacks };
  const target = `agents.defaults.model = ${model.primary}${model.fallbacks.length ? ` (fallbacks ${model.fallbacks.join(', ')})` : ''}`;
  const item = { kind: 'model' as const, target, origin: model.origin };
  const current = rawConfig(targets).agents?.defaults?.model;
  const currentPrimary = typeof current === 'string' ? current : current?.primary;
  if (current === undefined)
    return add({ ...item, status: 'import' }, async () => {
      await targets.config.patch({ agents: { defaults: { model: wanted } } });
    });
  if (currentPrimary === model.primary) return add({ ...item, status: 'present' });
  add({ ...item, status: 'conflict', ...importReason('default-model-differs', { model: currentPrimary ?? '(set)' }) });
}

function planAgents(inventory: ImportInventory, targets: ImportTargets, add: Add): void {
  for (const agent of inventory.agents) {
    const entry: Record<string, unknown> = {
      id: agent.id,
      ...(agent.name ? { name: agent.name } : {}),
      ...(agent.model ? { model: agent.model } : {}),
    };
    const item = { kind: 'agent' as const, target: `agents.list[${agent.id}]`, origin: agent.origin };
    const existing = (rawConfig(targets).agents?.list ?? []).find((a) => a.id === agent.id);
    if (existing) {
      const same = isDeepStrictEqual(existing.model, entry.model) || entry.model === undefined;
      add(
        same
          ? { ...item, status: 'present' }
          : { ...item, status: 'conflict', ...importReason('agent-differs', { agent: agent.id }) },
      );
      continue;
    }
    add({ ...item, status: 'import' }, async () => {
      const list = rawConfig(targets).agents?.list ?? [];
      // Once the list has entries only listed agents exist for bindings: keep main among them.
      const withMain = list.some((a) => a.id === 'main') ? list : [{ id: 'main' }, ...list];
      await targets.config.patch({ agents: { list: [...withMain, entry] } });
    });
  }
}

function planBindings(inventory: ImportInventory, targets: ImportTargets, add: Add): void {
  const known = new Set([
    'main',
    ...(rawConfig(targets).agents?.list ?? []).map((a) => String(a.id)),
    ...inventory.agents.map((a) => a.id),
  ]);
  for (const { binding, origin } of inventory.bindings) {
    const m = binding.match;
    const target = `binding ${m.channel}${m.accountId ? `:${m.accountId}` : ''}${m.peer ? ` ${m.peer.kind}:${m.peer.id}` : ''}${m.guildId ? ` guild ${m.guildId}` : ''} → ${binding.agentId}`;
    const item = { kind: 'binding' as const, target, origin };
    if ((rawConfig(targets).agents?.bindings ?? []).some((b) => isDeepStrictEqual(b, binding))) {
      add({ ...item, status: 'present' });
      continue;
    }
    if (!known.has(binding.agentId)) {
      add({ ...item, status: 'skipped', ...importReason('unknown-agent', { agent: binding.agentId }) });
      continue;
    }
    add({ ...item, status: 'import' }, async () => {
      const bindings = rawConfig(targets).agents?.bindings ?? [];
      await targets.config.patch({ agents: { bindings: [...bindings, binding] } });
    });
  }
}

function planCron(inventory: ImportInventory, targets: ImportTargets, add: Add): void {
  const jobs = targets.cron.list();
  for (const job of inventory.cronJobs) {
    const { input } = job;
    const item = {
      kind: 'cron-job' as const,
      target: `cron job "${input.name}" (${input.schedule}) for ${input.agentId ?? 'main'}`,
      origin: job.origin,
    };
    const same = jobs.find((j) => j.name === input.name && j.agentId === (input.agentId ?? 'main'));
    if (same) {
      add(
        same.message === input.message
          ? { ...item, status: 'present' }
          : { ...item, status: 'conflict', ...importReason('cron-job-differs', { name: same.name }) },
      );
      continue;
    }
    let reason: ImportReason | undefined;
    try {
      const now = targets.now();
      const schedule = parseSchedule(input.schedule, { ...(input.tz ? { tz: input.tz } : {}), now });
      if (nextRunAfter(schedule, now) === undefined) reason = importReason('one-shot-passed');
    } catch (error) {
      // Hearth's schedule parser's own words, shown as they are.
      reason = importReason('schedule-not-understood', { detail: (error as Error).message });
    }
    if (reason) {
      add({ ...item, status: 'skipped', ...reason });
      continue;
    }
    add({ ...item, status: 'import', ...(input.enabled === false ? importReason('switched-off') : {}) }, async () => {
      await targets.cron.add(input);
    });
  }
}
