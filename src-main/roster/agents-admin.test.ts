import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runCliCaptured } from '../testing/cli-run.js';
import { type ProductFixture, startProductFixture } from '../testing/product-fixture.js';

// Agents created, changed and removed through the gateway (agents.create|update|delete) and
// `hearth agents …`, against the composed product with the fake LLM.

let product: ProductFixture;
beforeAll(async () => {
  product = await startProductFixture({ config: { memory: { recall: { enabled: false } } } });
});
afterAll(async () => {
  await product?.close();
});

const configFile = () => join(product.home, 'hearth.json');
const readConfig = async () =>
  JSON.parse(await readFile(configFile(), 'utf8')) as { agents?: { list?: Record<string, unknown>[] } };
/** One request on the admin socket: its payload, or its error thrown. */
async function call<T = Record<string, unknown>>(method: string, params: Record<string, unknown>): Promise<T> {
  const frame = await product.socket.request(method, params);
  if (!frame.ok) throw new Error(frame.error?.message ?? `${method} failed`);
  return frame.payload as T;
}
const cli = (args: string[]) =>
  runCliCaptured(args, { HEARTH_HOME: product.home, HEARTH_PORT: String(product.host.port) });

describe('agents.create / update / delete', () => {
  it('creates an agent whose seeded workspace answers its own chats, changes it, and removes it with its files', async () => {
    const created = await call<{ agentId: string; workspace: string }>('agents.create', {
      name: 'Research Bot',
      toolProfile: 'minimal',
    });
    expect(created).toMatchObject({ ok: true, agentId: 'research-bot', name: 'Research Bot' });
    expect((await readConfig()).agents?.list).toContainEqual(
      expect.objectContaining({ id: 'research-bot', name: 'Research Bot', tools: { profile: 'minimal' } }),
    );
    // The host seeds a new agent's workspace when it sees the config change.
    await vi.waitFor(() => expect(existsSync(join(created.workspace, 'SOUL.md'))).toBe(true), { timeout: 10_000 });

    const listed = (await call('agents.list', {})) as { agents: { id: string; name?: string }[] };
    expect(listed.agents.map((agent) => agent.id)).toEqual(['main', 'research-bot']);

    product.llm.script([{ type: 'text', text: 'Researching.' }]);
    const end = await product.turn('roster-turn-1', 'look into it', 'agent:research-bot:main');
    expect(end).toMatchObject({ state: 'final' });

    await call('agents.update', {
      agentId: 'research-bot',
      name: 'Researcher',
      model: 'openai/gpt-4o-mini',
    });
    expect((await readConfig()).agents?.list).toContainEqual(
      expect.objectContaining({ id: 'research-bot', name: 'Researcher', model: 'openai/gpt-4o-mini' }),
    );

    const removed = (await call('agents.delete', { agentId: 'research-bot', deleteFiles: true })) as {
      removedFiles: string[];
    };
    expect(removed.removedFiles).toContain(created.workspace);
    expect(existsSync(created.workspace)).toBe(false);
    expect((await readConfig()).agents?.list ?? []).not.toContainEqual(expect.objectContaining({ id: 'research-bot' }));
  });

  it('refuses what cannot be done with a reason, and writes nothing', async () => {
    const before = await readFile(configFile(), 'utf8');
    await expect(call('agents.delete', { agentId: 'main' })).rejects.toThrow('the main agent cannot be removed');
    await expect(call('agents.update', { agentId: 'ghost', name: 'x' })).rejects.toThrow('no agent "ghost"');
    await expect(call('agents.create', { name: 'x', workspace: 'relative/folder' })).rejects.toThrow(
      'workspace must be an absolute path',
    );
    await expect(call('agents.create', { name: '' })).rejects.toThrow('name must not be empty');
    expect(await readFile(configFile(), 'utf8')).toBe(before);
  });

  it('never deletes a workspace outside HEARTH_HOME', async () => {
    const outside = join(product.home, '..', `outside-${Date.now()}`);
    await call('agents.create', { name: 'Outside', workspace: outside });
    await vi.waitFor(() => expect(existsSync(join(outside, 'SOUL.md'))).toBe(true), { timeout: 10_000 });
    await writeFile(join(outside, 'mine.md'), 'my own notes\n');
    const removed = (await call('agents.delete', { agentId: 'outside', deleteFiles: true })) as {
      keptWorkspace?: string;
    };
    expect(removed.keptWorkspace).toBe(outside);
    expect(await readFile(join(outside, 'mine.md'), 'utf8')).toBe('my own notes\n');
  });
});

describe('hearth agents', () => {
  it('adds, lists, sets and removes an agent', async () => {
    const added = await cli([
      'agents',
      'add',
      'Writer',
      '--model',
      'openai/gpt-4o',
      '--fallbacks',
      'openai/gpt-4o-mini',
    ]);
    expect(added).toMatchObject({ code: 0 });
    expect(added.stdout).toContain('created agent writer (Writer)');
    const listed = await cli(['agents', 'list']);
    expect(listed.stdout).toMatch(/^writer \(Writer\) {2}openai\/gpt-4o → openai\/gpt-4o-mini/m);
    expect((await cli(['agents', 'set', 'writer', '--model', 'none'])).stdout).toContain('updated agent writer');
    // Without its own model it runs on agents.defaults' (the fixture's openai/gpt-4o), no fallbacks.
    expect((await cli(['agents', 'list'])).stdout).toMatch(/^writer \(Writer\) {2}openai\/gpt-4o {2}\//m);
    const bad = await cli(['agents', 'remove', 'main']);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('the main agent cannot be removed');
    expect((await cli(['agents', 'remove', 'writer'])).stdout).toContain('removed agent writer');
  });
});

describe('every setting of an agent', () => {
  it('creates an agent with engine, memory scope, exec policy and bindings, shows them, and changes them', async () => {
    const created = await call<{ agentId: string; workspace: string }>('agents.create', {
      name: 'Coder',
      emoji: '🛠️',
      model: 'openai/gpt-4o',
      fallbacks: ['openai/gpt-4o-mini'],
      toolProfile: 'coding',
      engine: { cli: 'claude-code', access: 'workspace-write' },
      memoryScope: 'per-user',
      exec: { security: 'full', ask: 'always' },
      bindings: [
        { channel: 'telegram', peer: { kind: 'direct', id: '42' } },
        { channel: 'discord', guildId: '987' },
      ],
    });
    const config = await readConfig();
    expect(config.agents?.list).toContainEqual({
      id: 'coder',
      name: 'Coder',
      emoji: '🛠️',
      model: { primary: 'openai/gpt-4o', fallbacks: ['openai/gpt-4o-mini'] },
      tools: { profile: 'coding', exec: { security: 'full', ask: 'always' } },
      engine: { cli: 'claude-code', access: 'workspace-write' },
      memory: { scope: 'per-user' },
    });
    expect((config.agents as { bindings?: unknown[] }).bindings).toEqual([
      { agentId: 'coder', match: { channel: 'telegram', peer: { kind: 'direct', id: '42' } } },
      { agentId: 'coder', match: { channel: 'discord', guildId: '987' } },
    ]);
    expect(await call('agents.get', { agentId: 'coder' })).toMatchObject({
      agentId: 'coder',
      name: 'Coder',
      workspace: created.workspace,
      model: 'openai/gpt-4o',
      fallbacks: ['openai/gpt-4o-mini'],
      toolProfile: 'coding',
      engine: { cli: 'claude-code', access: 'workspace-write' },
      memoryScope: 'per-user',
      exec: { security: 'full', ask: 'always' },
      bindings: [
        { channel: 'telegram', peer: { kind: 'direct', id: '42' } },
        { channel: 'discord', guildId: '987' },
      ],
      isDefault: false,
    });
    // Its memory now keeps each person apart; main's stays one memory.
    await vi.waitFor(
      async () => expect(await call('memory.status', { agentId: 'coder' })).toMatchObject({ scope: 'per-user' }),
      {
        timeout: 10_000,
      },
    );
    expect(await call('memory.status', { agentId: 'main' })).toMatchObject({ scope: 'per-agent' });

    await call('agents.update', {
      agentId: 'coder',
      engine: 'hearth',
      memoryScope: null,
      exec: { ask: 'off' },
      bindings: [{ channel: 'slack' }],
    });
    const after = await call('agents.get', { agentId: 'coder' });
    expect(after).toMatchObject({
      engine: 'hearth',
      exec: { security: 'full', ask: 'off' },
      bindings: [{ channel: 'slack' }],
    });
    expect(after).not.toHaveProperty('memoryScope');
    await call('agents.update', { agentId: 'coder', exec: null, bindings: [] });
    const entry = (await readConfig()).agents?.list?.find((agent) => agent.id === 'coder');
    expect(entry).toEqual({
      id: 'coder',
      name: 'Coder',
      emoji: '🛠️',
      model: { primary: 'openai/gpt-4o', fallbacks: ['openai/gpt-4o-mini'] },
      tools: { profile: 'coding' },
    });
    expect((await readConfig()).agents as { bindings?: unknown[] }).toMatchObject({ bindings: [] });
    await call('agents.delete', { agentId: 'coder', deleteFiles: true });
  });

  it('names the field that is wrong, and writes nothing', async () => {
    const before = await readFile(configFile(), 'utf8');
    await expect(call('agents.create', { name: 'x', toolProfile: 'everything' })).rejects.toThrow(/toolProfile/);
    await expect(call('agents.create', { name: 'x', memoryScope: 'shared' })).rejects.toThrow(/memoryScope/);
    await expect(call('agents.create', { name: 'x', exec: { security: 'yolo' } })).rejects.toThrow(/exec\/security/);
    await expect(call('agents.create', { name: 'x', bindings: [{ channel: '' }] })).rejects.toThrow(
      'a binding needs a channel',
    );
    await expect(call('agents.create', { name: 'x', avatar: 'file:///etc/passwd' })).rejects.toThrow(
      'avatar must be an http(s) address',
    );
    await expect(call('agents.create', { name: 'x', engine: { cli: '' } })).rejects.toThrow('engine.cli');
    await expect(call('agents.files.get', { agentId: 'main', name: '../hearth.json' })).rejects.toThrow(
      /file must be one of SOUL\.md/,
    );
    await expect(call('agents.get', { agentId: 'ghost' })).rejects.toThrow('no agent "ghost"');
    expect(await readFile(configFile(), 'utf8')).toBe(before);
  });

  it('reads and writes a new agent’s persona files, and indexes its memory like main’s', async () => {
    const created = await call<{ agentId: string; workspace: string }>('agents.create', { name: 'Poet' });
    await vi.waitFor(() => expect(existsSync(join(created.workspace, 'IDENTITY.md'))).toBe(true), { timeout: 10_000 });
    const listed = await call<{ files: { name: string; missing: boolean }[] }>('agents.files.list', {
      agentId: 'poet',
    });
    for (const name of ['SOUL.md', 'IDENTITY.md', 'USER.md'])
      expect(listed.files).toContainEqual(expect.objectContaining({ name, missing: false }));
    const soul = await call<{ file: { content: string } }>('agents.files.get', { agentId: 'poet', name: 'SOUL.md' });
    expect(soul.file.content.length).toBeGreaterThan(0);
    await call('agents.files.set', { agentId: 'poet', name: 'SOUL.md', content: '# Soul\nYou write haiku.\n' });
    expect(await readFile(join(created.workspace, 'SOUL.md'), 'utf8')).toBe('# Soul\nYou write haiku.\n');
    // The new persona is what its next turn reads.
    product.llm.script([{ type: 'text', text: 'Autumn wind.' }]);
    await product.turn('poet-1', 'a poem', 'agent:poet:main');
    expect(JSON.stringify(product.llm.requests.at(-1)!.body)).toContain('You write haiku.');
    // Its workspace is watched: a hand edit to its memory is indexed, with no one asking.
    await mkdir(join(created.workspace, 'memory'), { recursive: true });
    await writeFile(join(created.workspace, 'memory', '2026-12-01.md'), '- The poet’s cat is named Basho.\n');
    await vi.waitFor(
      async () =>
        expect(JSON.stringify(await call('memory.search', { agentId: 'poet', query: 'cat named Basho' }))).toContain(
          'Basho',
        ),
      { timeout: 15_000, interval: 200 },
    );
    await call('agents.delete', { agentId: 'poet', deleteFiles: true });
  });
});
