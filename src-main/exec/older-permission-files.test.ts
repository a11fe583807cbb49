import { describe, expect, it } from 'vitest';
import { rulesFromOlderPermissionFiles } from './older-permission-files.js';

describe('the older "allow always" lists', () => {
  it('become permission rules: a binary, an exact command, an MCP tool', () => {
    const rules = rulesFromOlderPermissionFiles(
      {
        exec: {
          agents: { main: { allowlist: [{ pattern: '/usr/bin/git' }, { pattern: '/bin/ls', argPattern: '-la' }] } },
        },
        mcp: { always: [{ tool: 'notes__add', addedAtMs: 7 }] },
      },
      100,
    );
    expect(rules.map(({ id: _id, ...rule }) => rule)).toEqual([
      {
        kind: 'exec',
        scope: 'binary',
        agentId: 'main',
        pattern: '/usr/bin/git',
        origin: 'imported:exec-approvals.json',
        addedAtMs: 100,
      },
      {
        kind: 'exec',
        scope: 'exact',
        agentId: 'main',
        pattern: '/bin/ls',
        argPattern: '-la',
        origin: 'imported:exec-approvals.json',
        addedAtMs: 100,
      },
      { kind: 'mcp', scope: 'tool', tool: 'notes__add', origin: 'imported:mcp-approvals.json', addedAtMs: 7 },
    ]);
  });

  it('refuses a file that is not one, naming it and the field, instead of dropping its rules', () => {
    expect(() =>
      rulesFromOlderPermissionFiles({ exec: { agents: { main: { allowlist: [{ pattern: 42 }] } } } }, 1),
    ).toThrow(/state\/exec-approvals\.json cannot be read .*agents\.main\.allowlist\.0\.pattern: /);
    expect(() => rulesFromOlderPermissionFiles({ mcp: { always: [{ tool: 'a', addedAtMs: 'soon' }] } }, 1)).toThrow(
      /state\/mcp-approvals\.json cannot be read .*always\.0\.addedAtMs: /,
    );
  });

  it('no files, no rules', () => {
    expect(rulesFromOlderPermissionFiles({}, 1)).toEqual([]);
  });
});
