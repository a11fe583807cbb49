import { describe, expect, it } from 'vitest';
import { type AddForm, buildImport, suggestName } from './mcp-import-json.js';

const form = (more: Partial<AddForm> = {}): AddForm => ({
  pasted: '',
  pastedName: '',
  command: { name: '', command: '', args: '', env: '' },
  url: { name: '', url: '' },
  ...more,
});

describe('buildImport', () => {
  it('sends pasted mcpServers, VS Code servers or a bare map as pasted, naming what it holds', () => {
    for (const pasted of [
      '{"mcpServers":{"files":{"command":"npx"},"web":{"url":"https://x.dev/mcp"}}}',
      '{"servers":{"files":{"command":"npx"},"web":{"url":"https://x.dev/mcp"}}}',
      '{"files":{"command":"npx"},"web":{"url":"https://x.dev/mcp"}}',
    ]) {
      expect(buildImport('json', form({ pasted }))).toEqual({
        ok: true,
        json: pasted,
        names: ['files', 'web'],
        single: false,
      });
    }
  });

  it('refuses what is not a JSON object of servers, saying why', () => {
    expect(buildImport('json', form({ pasted: '  ' }))).toMatchObject({ ok: false, message: 'mcp.add.error.empty' });
    expect(buildImport('json', form({ pasted: '[1]' }))).toMatchObject({
      ok: false,
      message: 'mcp.add.error.notObject',
    });
    expect(buildImport('json', form({ pasted: '{"mcpServers":{}}' }))).toMatchObject({
      ok: false,
      message: 'mcp.add.error.noServers',
    });
    const bad = buildImport('json', form({ pasted: '{"mcpServers": ' }));
    expect(bad).toMatchObject({ ok: false, message: 'mcp.add.error.json', field: 'json' });
    expect(bad.ok === false && bad.values?.error).toBeTruthy();
  });

  it('a URL becomes a Streamable HTTP entry; anything but http(s) is refused', () => {
    const built = buildImport('url', form({ url: { name: '', url: ' https://mcp.linear.app/mcp ' } }));
    expect(built.ok && JSON.parse(built.json)).toEqual({
      mcpServers: { linear: { url: 'https://mcp.linear.app/mcp' } },
    });
    expect(buildImport('url', form({ url: { name: 'x', url: 'file:///etc/passwd' } }))).toMatchObject({
      ok: false,
      message: 'mcp.add.error.url',
      values: { url: 'file:///etc/passwd' },
    });
  });

  it('a command keeps each argument line whole and reads KEY=value environment lines', () => {
    const built = buildImport(
      'command',
      form({
        command: {
          name: 'notes',
          command: 'npx',
          args: '-y\n@modelcontextprotocol/server-filesystem\n/home/me/My Notes\n',
          env: 'A=1\nB=x=y\n',
        },
      }),
    );
    expect(built.ok && JSON.parse(built.json)).toEqual({
      mcpServers: {
        notes: {
          command: 'npx',
          args: ['-y', '@modelcontextprotocol/server-filesystem', '/home/me/My Notes'],
          env: { A: '1', B: 'x=y' },
        },
      },
    });
    expect(buildImport('command', form())).toMatchObject({ ok: false, message: 'mcp.add.error.command' });
  });
});

describe('suggestName', () => {
  it('names a server after the package a runner starts, the program, or the URL’s host', () => {
    expect(suggestName({ command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'] })).toBe(
      'filesystem',
    );
    expect(suggestName({ command: 'uvx', args: ['mcp-server-git'] })).toBe('git');
    expect(suggestName({ command: '/usr/local/bin/github-mcp-server', args: ['stdio'] })).toBe('github');
    expect(suggestName({ url: 'https://mcp.example.com/mcp' })).toBe('example');
  });
});
