import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { McpAlwaysAllowed } from './mcp-always-allowed.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hearth-mcp-always-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the standalone MCP "allow always" file', () => {
  it('reads back what it saved; a missing file is an empty list', async () => {
    const file = join(dir, 'mcp-approvals.json');
    const first = await McpAlwaysAllowed.open(file);
    expect(first.list()).toEqual([]);
    await first.add('notes__add', 5);
    expect((await McpAlwaysAllowed.open(file)).list()).toEqual([{ tool: 'notes__add', addedAtMs: 5 }]);
  });

  it('refuses a file that is not one, naming it and the field, and leaves it as it is', async () => {
    const file = join(dir, 'mcp-approvals.json');
    const text = JSON.stringify({ always: [{ tool: 'notes__add' }, { tool: 3 }] });
    await writeFile(file, text);
    await expect(McpAlwaysAllowed.open(file)).rejects.toThrow(
      new RegExp(
        `${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} is not an MCP "allow always" list \\(always\\.1\\.tool: `,
      ),
    );
    expect(await readFile(file, 'utf8')).toBe(text);
    await writeFile(file, '{"always": {}}');
    await expect(McpAlwaysAllowed.open(file)).rejects.toThrow(/\(always: /);
  });
});
