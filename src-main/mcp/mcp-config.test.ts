import { describe, expect, it } from 'vitest';
import { hearthConfigSchema } from '../host/hearth-config.js';
import { importMcpServers } from './import-mcp-servers.js';
import { mcpConfigSchema } from './mcp-config.js';

function firstError(raw: unknown): string {
  const parsed = mcpConfigSchema.safeParse(raw);
  if (parsed.success) throw new Error('expected the entry to be refused');
  const issue = parsed.error.issues[0]!;
  return `${issue.path.join('.')}: ${issue.message}`;
}

describe('mcp.servers in hearth.json', () => {
  it('accepts a stdio and a Streamable HTTP server, filling in defaults', () => {
    const config = mcpConfigSchema.parse({
      servers: {
        files: { command: 'npx', args: ['-y', 'server-filesystem', '/tmp'], env: { TOKEN: { secret: 'files-token' } } },
        remote: { url: 'https://mcp.example.com/mcp', headers: { Authorization: { secret: 'remote' } } },
      },
    });
    expect(config.servers.files).toMatchObject({ enabled: true, timeoutMs: 60_000, connectTimeoutMs: 15_000 });
    expect(config.servers.remote?.headers).toEqual({ Authorization: { secret: 'remote' } });
  });

  it('refuses bad entries with an error naming what is wrong', () => {
    expect(firstError({ servers: { both: { command: 'x', url: 'http://h/mcp' } } })).toBe(
      'servers.both: give either command (stdio) or url (HTTP), not both',
    );
    expect(firstError({ servers: { none: { args: ['x'] } } })).toBe(
      'servers.none: needs command (a stdio server) or url (a Streamable HTTP server)',
    );
    expect(firstError({ servers: { web: { url: 'ftp://h' } } })).toBe(
      'servers.web.url: url must be an http:// or https:// URL',
    );
    expect(firstError({ servers: { a__b: { command: 'x' } } })).toMatch(
      /^servers\.a__b: an MCP server name is letters/,
    );
    expect(firstError({ servers: { s: { command: 'x', env: { K: 3 } } } })).toBe(
      'servers.s.env.K: must be a string or { "secret": "<secret store entry>" }',
    );
    expect(firstError({ servers: { s: { command: 'x', tools: { t: { access: 'maybe' } } } } })).toMatch(
      /^servers\.s\.tools\.t\.access: /,
    );
  });

  it('is part of hearth.json, with each agent choosing its servers', () => {
    const config = hearthConfigSchema.parse({
      mcp: { servers: { files: { command: 'x' } } },
      agents: { defaults: { mcp: { servers: ['files'] } }, list: [{ id: 'work', mcp: { servers: [] } }] },
    });
    expect(config.mcp.servers.files?.command).toBe('x');
    expect(config.agents.defaults?.mcp?.servers).toEqual(['files']);
    expect(config.agents.list[0]?.mcp?.servers).toEqual([]);
    expect(hearthConfigSchema.safeParse({ agents: { list: [{ id: 'w', mcp: { servers: ['a__b'] } }] } }).success).toBe(
      false,
    );
  });
});

describe('importMcpServers (Claude Desktop, Cursor, VS Code JSON)', () => {
  it('imports the mcpServers map as is', () => {
    const claude = JSON.stringify({
      mcpServers: {
        filesystem: {
          command: 'npx',
          args: ['-y', '@modelcontextprotocol/server-filesystem', '/Users/me/Desktop'],
          env: { DEBUG: '1' },
        },
        'github.com': { url: 'https://api.githubcopilot.com/mcp/', headers: { Authorization: 'Bearer x' } },
        old: { type: 'sse', url: 'http://localhost:8000/sse', disabled: true, autoApprove: ['read'] },
      },
    });
    const imported = importMcpServers(claude);
    expect(imported.errors).toEqual([]);
    expect(imported.servers).toEqual({
      filesystem: {
        command: 'npx',
        args: ['-y', '@modelcontextprotocol/server-filesystem', '/Users/me/Desktop'],
        env: { DEBUG: '1' },
      },
      'github-com': { url: 'https://api.githubcopilot.com/mcp/', headers: { Authorization: 'Bearer x' } },
      old: { type: 'sse', url: 'http://localhost:8000/sse', enabled: false },
    });
    expect(imported.notes).toEqual([
      'server "github.com" is imported as "github-com"',
      'server "old": "autoApprove" is not used by Hearth',
    ]);
    expect(mcpConfigSchema.safeParse({ servers: imported.servers }).success).toBe(true);
  });

  it("reads VS Code's servers map and reports broken entries without dropping the good ones", () => {
    const imported = importMcpServers({
      servers: { ok: { type: 'http', url: 'http://127.0.0.1:3000/mcp' }, bad: { args: ['x'] }, worse: 'npx' },
    });
    expect(Object.keys(imported.servers)).toEqual(['ok']);
    expect(imported.errors).toEqual([
      'server "bad": needs command (a stdio server) or url (a Streamable HTTP server)',
      'server "worse": expected an object with command or url',
    ]);
    expect(importMcpServers('{not json').errors[0]).toMatch(/^not JSON: /);
  });
});
