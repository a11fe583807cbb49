import { lstat, mkdir, readdir, readFile, realpath, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { z } from 'zod';
import type { Clock } from '../base/clock.js';
import { HearthError } from '../base/errors.js';
import type { Logger } from '../base/logger.js';
import { writeFileAtomic } from '../fs/atomic-write.js';
import { type CurationResult, curateSkills, STALE_AFTER_MS } from './skill-curator.js';
import { formatSkillFile, SKILL_FILE } from './skill-file.js';
import { type GateOptions, type GateResult, gateSkillProposal, type SkillProposal } from './skill-gate.js';
import { discoverSkills, type Skill, type SkillFolders, type SkillOrigin } from './skill-library.js';
import { listSkillsForPrompt } from './skill-prompt.js';
import { createSkillState, type SkillUsage } from './skill-state.js';

/** A skill as the Skills view and `hearth skills list` see it. */
export interface SkillEntry {
  name: string;
  description: string;
  origin: SkillOrigin;
  dir: string;
  files: string[];
  hasScripts: boolean;
  enabled: boolean;
  pinned: boolean;
  stale: boolean;
  usage: SkillUsage;
}

/** A proposal waiting for a person (state/skills/proposals/<id>/). */
export interface PendingSkill {
  id: string;
  agentId: string;
  name: string;
  description: string;
  createdAt: number;
  reasons: string[];
  files: string[];
  replaces?: string;
}

// Typed by the interface it decodes, so a field added to a proposal without its schema breaks the build.
// `loose`: a key a newer Hearth adds still reads.
const pendingSchema: z.ZodType<PendingSkill> = z.looseObject({
  id: z.string().min(1),
  agentId: z.string().min(1),
  name: z.string().min(1),
  description: z.string(),
  createdAt: z.number(),
  reasons: z.array(z.string()),
  files: z.array(z.string()),
  replaces: z.string().optional(),
});

export class SkillError extends Error {
  constructor(
    readonly code: 'not_found' | 'bad_request',
    message: string,
  ) {
    super(message);
  }
}

export interface SkillServiceDeps {
  folders: SkillFolders;
  /** state/skills: state.json, proposals/, archive/. */
  stateDir: string;
  clock: Clock;
  log?: Logger;
  newId?: () => string;
  knownSecrets?: () => Promise<readonly string[]>;
  approval?: GateOptions['approval'];
  /** Every agent's id, for the curator (whose workspace skills it looks at); default `main`. */
  agentIds?: () => readonly string[];
}

export interface ProposeResult extends GateResult {
  /** Where the skill was written (kept) or waits (pending). */
  dir?: string;
  /** The proposal's id, when it waits for approval. */
  id?: string;
}

export interface SkillService {
  list(agentId: string): Promise<SkillEntry[]>;
  /** The skill's SKILL.md; refuses a disabled or unknown one. `count`: a use by the model (skill_view). */
  view(agentId: string, name: string, options?: { count?: boolean }): Promise<{ skill: SkillEntry; text: string }>;
  /** A file of the skill, by a path relative to its folder; refuses escapes and links out. */
  readFile(agentId: string, name: string, path: string): Promise<string>;
  setEnabled(agentId: string, name: string, enabled: boolean): Promise<SkillEntry>;
  setPinned(agentId: string, name: string, pinned: boolean): Promise<SkillEntry>;
  propose(agentId: string, proposal: SkillProposal): Promise<ProposeResult>;
  pending(): Promise<PendingSkill[]>;
  approve(id: string): Promise<{ name: string; dir: string }>;
  reject(id: string): Promise<{ name: string }>;
  /** Marks stale and archives unused skills (skill-curator.ts). */
  curate(): Promise<CurationResult>;
  /** The names and one-line descriptions for the system prompt, within `budgetTokens`. */
  promptListing(agentId: string, budgetTokens?: number): Promise<string | undefined>;
}

const MAX_FILE_CHARS = 100_000;

function inside(root: string, path: string): boolean {
  return path === root || path.startsWith(root + sep);
}

export function createSkillService(deps: SkillServiceDeps): SkillService {
  const state = createSkillState(join(deps.stateDir, 'state.json'));
  const proposalsDir = join(deps.stateDir, 'proposals');
  const newId = deps.newId ?? (() => crypto.randomUUID().slice(0, 8));

  const entriesOf = async (agentId: string): Promise<{ skills: Skill[]; entries: SkillEntry[] }> => {
    const skills = await discoverSkills(deps.folders, agentId, deps.log);
    const now = deps.clock.now();
    // First sighting starts the curator's clock for a skill never used.
    const unseen = (await state.read()).usage;
    if (skills.some((skill) => !unseen[skill.name]))
      await state.update((data) => {
        for (const skill of skills) data.usage[skill.name] ??= { count: 0, firstSeenAt: now };
      });
    const data = await state.read();
    const disabled = new Set(data.disabled[agentId] ?? []);
    const entries = skills.map((skill): SkillEntry => {
      const usage = data.usage[skill.name]!;
      const pinned = data.pinned.includes(skill.name);
      return {
        name: skill.name,
        description: skill.description,
        origin: skill.origin,
        dir: skill.dir,
        files: skill.files,
        hasScripts: skill.hasScripts,
        enabled: !disabled.has(skill.name),
        pinned,
        stale: !pinned && now - (usage.lastUsedAt ?? usage.firstSeenAt) >= STALE_AFTER_MS,
        usage: { ...usage },
      };
    });
    return { skills, entries };
  };

  const find = async (agentId: string, name: string): Promise<SkillEntry> => {
    const { entries } = await entriesOf(agentId);
    const entry = entries.find((skill) => skill.name === name);
    if (!entry) {
      const names = entries.map((skill) => skill.name).join(', ') || 'none';
      throw new SkillError('not_found', `no skill named "${name}" (skills: ${names})`);
    }
    return entry;
  };

  const pendingOf = async (id: string): Promise<PendingSkill> => {
    if (!/^[A-Za-z0-9-]{1,40}$/.test(id)) throw new SkillError('bad_request', `"${id}" is not a proposal id`);
    const file = join(proposalsDir, id, 'proposal.json');
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch {
      throw new SkillError('not_found', `no proposed skill with id "${id}" (hearth skills list shows them)`);
    }
    // A proposal that is not one is named, not hidden: its folder is left as it is for a person to fix or remove.
    const unreadable = (why: string) =>
      new HearthError(
        'unavailable',
        `skill proposal ${file} cannot be read (${why}); it was left as it is: fix or remove it`,
      );
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch (error) {
      throw unreadable(`not JSON: ${(error as Error).message}`);
    }
    const parsed = pendingSchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw unreadable(`${issue?.path.join('.') || 'file'}: ${issue?.message ?? 'invalid'}`);
    }
    return parsed.data;
  };

  const writeSkill = async (dir: string, proposal: SkillProposal) => {
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, SKILL_FILE), formatSkillFile(proposal));
    for (const file of proposal.files ?? []) {
      await mkdir(dirname(join(dir, file.path)), { recursive: true });
      await writeFile(join(dir, file.path), file.content);
    }
  };

  /** Moves a finished skill folder to the agent's workspace skills/, replacing its older self. */
  const install = async (from: string, agentId: string, name: string): Promise<string> => {
    const target = join(deps.folders.workspace(agentId), name);
    await mkdir(dirname(target), { recursive: true });
    await rm(target, { recursive: true, force: true });
    await rename(from, target);
    return target;
  };

  return {
    list: async (agentId) => (await entriesOf(agentId)).entries,

    async view(agentId, name, options = {}) {
      const skill = await find(agentId, name);
      if (!skill.enabled) throw new SkillError('bad_request', `the skill "${name}" is disabled for agent ${agentId}`);
      const text = await readFile(join(skill.dir, SKILL_FILE), 'utf8');
      if (options.count) {
        const now = deps.clock.now();
        await state.update((data) => {
          data.usage[name] ??= { count: 0, firstSeenAt: now };
          const usage = data.usage[name];
          usage.count += 1;
          usage.lastUsedAt = now;
        });
        skill.usage.count += 1;
        skill.usage.lastUsedAt = now;
        skill.stale = false;
      }
      return { skill, text };
    },

    async readFile(agentId, name, path) {
      const skill = await find(agentId, name);
      if (!skill.enabled) throw new SkillError('bad_request', `the skill "${name}" is disabled for agent ${agentId}`);
      if (path.startsWith('/') || path.includes('\\') || path.includes('\0') || path.split('/').includes('..'))
        throw new SkillError(
          'bad_request',
          `refused: "${path}" is outside the skill "${name}"; give a path relative to its folder`,
        );
      const root = await realpath(skill.dir);
      let real: string;
      try {
        real = await realpath(join(root, path));
      } catch {
        const files = skill.files.join(', ') || 'none';
        throw new SkillError('not_found', `the skill "${name}" has no file "${path}" (files: ${files})`);
      }
      if (!inside(root, real) || real === root)
        throw new SkillError(
          'bad_request',
          `refused: "${path}" leads outside the skill "${name}" (${relative(root, real)})`,
        );
      const info = await lstat(real);
      if (!info.isFile()) throw new SkillError('bad_request', `"${path}" is not a file of the skill "${name}"`);
      const data = await readFile(real);
      if (data.subarray(0, 8192).includes(0))
        throw new SkillError(
          'bad_request',
          `refused: "${path}" is a binary file (${data.length} bytes); skill_file reads text`,
        );
      const text = data.toString('utf8');
      return text.length <= MAX_FILE_CHARS
        ? text
        : `${text.slice(0, MAX_FILE_CHARS)}\n[cut: ${path} is ${text.length} characters; the first ${MAX_FILE_CHARS} are shown]`;
    },

    async setEnabled(agentId, name, enabled) {
      const skill = await find(agentId, name);
      await state.update((data) => {
        const off = new Set(data.disabled[agentId] ?? []);
        if (enabled) off.delete(name);
        else off.add(name);
        data.disabled[agentId] = [...off].sort();
      });
      return { ...skill, enabled };
    },

    async setPinned(agentId, name, pinned) {
      const skill = await find(agentId, name);
      await state.update((data) => {
        data.pinned = data.pinned.filter((other) => other !== name);
        if (pinned) data.pinned.push(name);
      });
      return { ...skill, pinned, stale: pinned ? false : skill.stale };
    },

    async propose(agentId, proposal) {
      const { skills } = await entriesOf(agentId);
      const knownSecrets = (await deps.knownSecrets?.()) ?? [];
      const gate = gateSkillProposal(proposal, { existing: skills, knownSecrets, approval: deps.approval });
      deps.log?.info('skill proposed', { agentId, name: proposal.name, verdict: gate.verdict, reasons: gate.reasons });
      if (gate.verdict === 'refused') return gate;
      const id = newId();
      const staging = join(proposalsDir, id);
      await writeSkill(join(staging, 'skill'), proposal);
      if (gate.verdict === 'kept') {
        const dir = await install(join(staging, 'skill'), agentId, proposal.name);
        await rm(staging, { recursive: true, force: true });
        return { ...gate, dir };
      }
      const pending: PendingSkill = {
        id,
        agentId,
        name: proposal.name,
        description: proposal.description.trim(),
        createdAt: deps.clock.now(),
        reasons: gate.reasons,
        files: (proposal.files ?? []).map((file) => file.path),
        ...(gate.replaces ? { replaces: gate.replaces } : {}),
      };
      // Atomic, so a list running meanwhile never reads half a proposal (and reports it as unreadable).
      await writeFileAtomic(join(staging, 'proposal.json'), `${JSON.stringify(pending, null, 2)}\n`);
      return { ...gate, id, dir: join(staging, 'skill') };
    },

    async pending() {
      let ids: string[];
      try {
        ids = await readdir(proposalsDir);
      } catch {
        return [];
      }
      // A folder that is no proposal (a stray name, one still being written) is passed over;
      // a proposal.json that cannot be read fails the list, naming it.
      const found = await Promise.all(
        ids.map((id) =>
          pendingOf(id).catch((error: unknown) => {
            if (error instanceof SkillError) return undefined;
            throw error;
          }),
        ),
      );
      return found.filter((p): p is PendingSkill => p !== undefined).sort((a, b) => a.createdAt - b.createdAt);
    },

    async approve(id) {
      const pending = await pendingOf(id);
      const dir = await install(join(proposalsDir, id, 'skill'), pending.agentId, pending.name);
      await rm(join(proposalsDir, id), { recursive: true, force: true });
      deps.log?.info('skill approved', { id, name: pending.name, agentId: pending.agentId });
      return { name: pending.name, dir };
    },

    async reject(id) {
      const pending = await pendingOf(id);
      await rm(join(proposalsDir, id), { recursive: true, force: true });
      return { name: pending.name };
    },

    async curate() {
      const agents = new Set<string>(deps.agentIds?.() ?? ['main']);
      for (const pending of await this.pending()) agents.add(pending.agentId);
      return curateSkills({
        skills: async () => {
          // Skills of every agent the curator knows of; bundled ones are never moved.
          const all = new Map<string, Skill>();
          for (const agentId of agents)
            for (const skill of (await entriesOf(agentId)).skills) all.set(skill.dir, skill);
          return [...all.values()];
        },
        state,
        archiveDir: join(deps.stateDir, 'archive'),
        clock: deps.clock,
        log: deps.log,
      });
    },

    async promptListing(agentId, budgetTokens) {
      const enabled = (await entriesOf(agentId)).entries.filter((skill) => skill.enabled);
      return listSkillsForPrompt(enabled, budgetTokens);
    },
  };
}
