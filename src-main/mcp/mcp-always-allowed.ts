import { mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';
import type { PermissionStore } from '../exec/index.js';
import { writeFileAtomic } from '../fs/atomic-write.js';

export interface McpAlwaysAllowedEntry {
  /** The agent tool name, `<server>__<tool>`. */
  tool: string;
  addedAtMs: number;
}

/** `state/mcp-approvals.json` as `save` writes it; `loose`, so a key a newer Hearth adds still reads. */
const alwaysFileSchema = z.looseObject({
  always: z.array(z.looseObject({ tool: z.string().min(1), addedAtMs: z.number().optional() })),
});

/**
 * MCP tools the person answered "allow always" for: they run without asking from then on, across
 * restarts, until revoked (`mcp.approvals.revoke`, `permissions.revoke`). In the host this is a view
 * of the permission store (`over`), where the approval service itself saves and matches the rules
 * (per tool, per server, per exact arguments, with an expiry); `open` keeps the older standalone
 * file (`state/mcp-approvals.json`) for a hub used without that store.
 */
export class McpAlwaysAllowed {
  private writing: Promise<void> = Promise.resolve();

  private constructor(
    private readonly file: string,
    private readonly entries: Map<string, McpAlwaysAllowedEntry>,
    private readonly store?: PermissionStore,
  ) {}

  /**
   * The permission store's MCP tool rules. `has` answers only for rules of every agent (the
   * service matches per-agent, per-server and exact rules itself, where it knows the agent).
   */
  static over(store: PermissionStore): McpAlwaysAllowed {
    return new McpAlwaysAllowed('', new Map(), store);
  }

  /** A missing file is an empty list; a file that is not ours is an error naming it. */
  static async open(file: string): Promise<McpAlwaysAllowed> {
    let text: string | undefined;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    const entries = new Map<string, McpAlwaysAllowedEntry>();
    if (text !== undefined) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        throw new Error(`${file} is not JSON; fix or remove it`);
      }
      const decoded = alwaysFileSchema.safeParse(parsed);
      if (!decoded.success) {
        const issue = decoded.error.issues[0];
        throw new Error(
          `${file} is not an MCP "allow always" list (${issue?.path.join('.') || 'file'}: ${issue?.message ?? 'invalid'}); expected { "always": [{ "tool": "<server>__<tool>", "addedAtMs": <ms> }] }`,
        );
      }
      for (const entry of decoded.data.always)
        entries.set(entry.tool, { tool: entry.tool, addedAtMs: entry.addedAtMs ?? 0 });
    }
    return new McpAlwaysAllowed(file, entries);
  }

  has(tool: string): boolean {
    if (this.store) return this.toolRules().some((rule) => rule.tool === tool && rule.agentId === undefined);
    return this.entries.has(tool);
  }

  /** Every MCP tool allowed always for every call (the tool scope, any agent). */
  list(): McpAlwaysAllowedEntry[] {
    if (this.store) {
      const seen = new Map<string, McpAlwaysAllowedEntry>();
      for (const rule of this.toolRules())
        if (rule.tool && !seen.has(rule.tool)) seen.set(rule.tool, { tool: rule.tool, addedAtMs: rule.addedAtMs });
      return [...seen.values()];
    }
    return [...this.entries.values()];
  }

  add(tool: string, now: number): Promise<void> {
    if (this.store) return this.store.add({ kind: 'mcp', scope: 'tool', tool, origin: 'mcp' }).ready;
    if (this.entries.has(tool)) return this.writing;
    this.entries.set(tool, { tool, addedAtMs: now });
    return this.save();
  }

  /** Revokes every rule that names the tool (any agent, any scope but the server's). */
  async remove(tool: string): Promise<boolean> {
    if (this.store) {
      const store = this.store;
      const rules = store.list().filter((rule) => rule.kind === 'mcp' && rule.tool === tool);
      for (const rule of rules) await store.revoke(rule.id);
      return rules.length > 0;
    }
    if (!this.entries.delete(tool)) return false;
    await this.save();
    return true;
  }

  private toolRules() {
    return (this.store?.list() ?? []).filter((rule) => rule.kind === 'mcp' && rule.scope === 'tool');
  }

  /** Writes queue behind each other, so the file always holds the latest list. */
  private save(): Promise<void> {
    const text = `${JSON.stringify({ version: 1, always: this.list() }, null, 2)}\n`;
    this.writing = this.writing
      .catch(() => {})
      .then(async () => {
        await mkdir(dirname(this.file), { recursive: true });
        await writeFileAtomic(this.file, text);
      });
    return this.writing;
  }
}
