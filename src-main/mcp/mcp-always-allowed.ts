import { mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { writeFileAtomic } from '../fs/atomic-write.js';

export interface McpAlwaysAllowedEntry {
  /** The agent tool name, `<server>__<tool>`. */
  tool: string;
  addedAtMs: number;
}

/**
 * MCP tools the person answered "allow always" for: they run without asking from then on, across
 * restarts, until revoked (`mcp.approvals.revoke`). Kept in `state/mcp-approvals.json`, apart
 * from exec's allowlist, whose entries are programs, not tools.
 */
export class McpAlwaysAllowed {
  private writing: Promise<void> = Promise.resolve();

  private constructor(
    private readonly file: string,
    private readonly entries: Map<string, McpAlwaysAllowedEntry>,
  ) {}

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
      const list = (parsed as { always?: unknown }).always;
      if (!Array.isArray(list)) throw new Error(`${file}: expected { "always": [...] }`);
      for (const entry of list)
        if (typeof entry?.tool === 'string')
          entries.set(entry.tool, { tool: entry.tool, addedAtMs: Number(entry.addedAtMs) || 0 });
    }
    return new McpAlwaysAllowed(file, entries);
  }

  has(tool: string): boolean {
    return this.entries.has(tool);
  }

  list(): McpAlwaysAllowedEntry[] {
    return [...this.entries.values()];
  }

  add(tool: string, now: number): Promise<void> {
    if (this.entries.has(tool)) return this.writing;
    this.entries.set(tool, { tool, addedAtMs: now });
    return this.save();
  }

  async remove(tool: string): Promise<boolean> {
    if (!this.entries.delete(tool)) return false;
    await this.save();
    return true;
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
