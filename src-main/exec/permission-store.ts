import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import type { Clock } from '../base/clock.js';
import { writeFileAtomic } from '../fs/atomic-write.js';
import type { AllowlistStore } from './allowlist-store.js';
import type { ApprovalSubject } from './approval-types.js';
import type { AllowlistEntry } from './exec-policy.js';
import { rulesFromOlderPermissionFiles } from './older-permission-files.js';

const ruleSchema = z.object({
  id: z.string().min(1),
  kind: z.enum(['exec', 'mcp', 'file', 'network']),
  scope: z.enum(['binary', 'exact', 'folder', 'tool', 'server']),
  /** Absent: every agent (rules imported from the old MCP list were never per agent). */
  agentId: z.string().optional(),
  tool: z.string().optional(),
  server: z.string().optional(),
  /** Tools, scope `exact`: the arguments (MCP input JSON, file path) the rule is pinned to. */
  args: z.string().optional(),
  /** Exec: the allowlist entry the rule adds to the agent's policy. */
  pattern: z.string().optional(),
  argPattern: z.string().optional(),
  /** Exec, scope `folder`: the rule applies only when the command runs in this folder or below it. */
  cwdWithin: z.string().optional(),
  /** Who made it: `operator:<client>`, `prompter:desktop`, `chat:<client>`, `imported:<file>`. */
  origin: z.string(),
  /** The request that made it (the command line), shown in the Permissions view. */
  example: z.string().optional(),
  addedAtMs: z.number(),
  expiresAtMs: z.number().optional(),
});

export type PermissionRule = z.infer<typeof ruleSchema>;
export type NewPermissionRule = Omit<PermissionRule, 'id' | 'addedAtMs'>;

const fileSchema = z.object({ version: z.literal(1), rules: z.array(ruleSchema) });

export function permissionsFilePath(stateDir: string): string {
  return join(stateDir, 'permissions.json');
}

/** Two rules that allow the same thing are one rule (a second "always" only moves its expiry). */
function sameRule(a: NewPermissionRule, b: NewPermissionRule): boolean {
  return (
    a.kind === b.kind &&
    a.scope === b.scope &&
    a.agentId === b.agentId &&
    a.tool === b.tool &&
    a.server === b.server &&
    a.args === b.args &&
    a.pattern === b.pattern &&
    a.argPattern === b.argPattern &&
    a.cwdWithin === b.cwdWithin
  );
}

/**
 * Every "allow always" rule, of every tool, in `state/permissions.json`: exec allowlist entries
 * (per agent, read by the exec policy), MCP tools per tool / server / exact arguments, file paths
 * outside the workspace. One file, so one view lists them and one method revokes them. A rule
 * with `expiresAtMs` stops applying then (by the host's clock) and is dropped at the next write.
 */
export class PermissionStore {
  private writing: Promise<void> = Promise.resolve();

  private constructor(
    private readonly path: string,
    private rules: PermissionRule[],
    private readonly clock: Pick<Clock, 'now'>,
  ) {}

  /**
   * A missing file starts from the older per-capability files (`exec-approvals.json`,
   * `mcp-approvals.json`), which are left as they are; a file that is not ours is an error naming it.
   */
  static async open(stateDir: string, clock: Pick<Clock, 'now'>): Promise<PermissionStore> {
    const path = permissionsFilePath(stateDir);
    const text = await readIfThere(path);
    if (text !== undefined) {
      const parsed = fileSchema.safeParse(parseJson(text, path));
      if (!parsed.success)
        throw new Error(
          `${path} is not a permissions file: ${parsed.error.issues[0]?.path.join('.')} ${parsed.error.issues[0]?.message}`,
        );
      return new PermissionStore(path, parsed.data.rules, clock);
    }
    const imported = await importOlderFiles(stateDir, clock.now());
    const store = new PermissionStore(path, imported, clock);
    if (imported.length > 0) await store.save();
    return store;
  }

  /** The rules in force now (expired ones are not listed). */
  list(): PermissionRule[] {
    const now = this.clock.now();
    return this.rules.filter((rule) => rule.expiresAtMs === undefined || rule.expiresAtMs > now).map((r) => ({ ...r }));
  }

  get(id: string): PermissionRule | undefined {
    return this.list().find((rule) => rule.id === id);
  }

  /**
   * Adds a rule and persists it; `ready` resolves once it is on disk. An identical rule already
   * there is kept; `update` (a person answering again) moves its expiry to the new one.
   */
  add(rule: NewPermissionRule, options: { update?: boolean } = {}): { rule: PermissionRule; ready: Promise<void> } {
    const existing = this.list().find((candidate) => sameRule(candidate, rule));
    if (existing && !options.update) return { rule: existing, ready: this.writing };
    if (existing) {
      // The newer answer decides the expiry: a date moves it, none makes the rule permanent.
      this.rules = this.rules.map((candidate) => {
        if (candidate.id !== existing.id) return candidate;
        const { expiresAtMs: _previous, ...kept } = candidate;
        return { ...kept, origin: rule.origin, ...optional('expiresAtMs', rule.expiresAtMs) };
      });
      const updated = this.rules.find((candidate) => candidate.id === existing.id) as PermissionRule;
      return { rule: { ...updated }, ready: this.save() };
    }
    const added: PermissionRule = {
      ...rule,
      id: `perm_${randomBytes(5).toString('hex')}`,
      addedAtMs: this.clock.now(),
    };
    this.rules = [...this.prune(), added];
    return { rule: { ...added }, ready: this.save() };
  }

  /** Removes a rule by id; undefined when no rule in force has that id. */
  async revoke(id: string): Promise<PermissionRule | undefined> {
    const rule = this.get(id);
    if (!rule) return undefined;
    this.rules = this.prune().filter((candidate) => candidate.id !== id);
    await this.save();
    return rule;
  }

  /** The rule that allows this tool call without asking, if any. Dangerous calls are never covered. */
  match(subject: ApprovalSubject, agentId: string): PermissionRule | undefined {
    if (subject.access === 'dangerous' || subject.kind === 'exec') return undefined;
    return this.list().find((rule) => {
      if (rule.kind !== subject.kind) return false;
      if (rule.agentId !== undefined && rule.agentId !== agentId) return false;
      if (rule.scope === 'server') return subject.server !== undefined && rule.server === subject.server;
      if (rule.tool !== subject.tool) return false;
      return rule.scope === 'tool' || (rule.scope === 'exact' && rule.args === subject.args);
    });
  }

  /** The exec allowlist entries the rules add to an agent's policy. */
  execEntries(agentId: string): AllowlistEntry[] {
    return this.list()
      .filter((rule) => rule.kind === 'exec' && rule.pattern && (rule.agentId ?? agentId) === agentId)
      .map((rule) => ({
        pattern: rule.pattern as string,
        ...optional('argPattern', rule.argPattern),
        ...optional('cwdWithin', rule.cwdWithin),
      }));
  }

  /** The exec host's view: its "allow always" entries, kept as exec rules here. */
  allowlist(): AllowlistStore {
    return {
      entries: (agentId) => this.execEntries(agentId),
      add: (agentId, entry) =>
        this.add({
          kind: 'exec',
          scope: entry.cwdWithin !== undefined ? 'folder' : entry.argPattern === undefined ? 'binary' : 'exact',
          agentId,
          pattern: entry.pattern,
          ...optional('argPattern', entry.argPattern),
          ...optional('cwdWithin', entry.cwdWithin),
          origin: 'exec',
        }).ready,
    };
  }

  /** Resolves once every queued write reached the file. */
  flush(): Promise<void> {
    return this.writing.catch(() => undefined);
  }

  private prune(): PermissionRule[] {
    const now = this.clock.now();
    return this.rules.filter((rule) => rule.expiresAtMs === undefined || rule.expiresAtMs > now);
  }

  /** Writes queue behind each other, so the file always ends with the latest list. */
  private save(): Promise<void> {
    const text = `${JSON.stringify({ version: 1, rules: this.rules }, null, 2)}\n`;
    this.writing = this.writing.catch(() => undefined).then(() => writeFileAtomic(this.path, text));
    return this.writing;
  }
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

async function readIfThere(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

function parseJson(text: string, path: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new Error(`${path} is not valid JSON; fix or remove it`);
  }
}

/** The rules the older files held, so an upgrade keeps every "always" a person gave. */
async function importOlderFiles(stateDir: string, now: number): Promise<PermissionRule[]> {
  const read = async (name: string) => {
    const text = await readIfThere(join(stateDir, name));
    return text === undefined ? undefined : parseJson(text, join(stateDir, name));
  };
  return rulesFromOlderPermissionFiles(
    { exec: await read('exec-approvals.json'), mcp: await read('mcp-approvals.json') },
    now,
  );
}
