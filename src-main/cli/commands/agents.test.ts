import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runCliCaptured } from '../../testing/cli-run.js';
import { type ProductFixture, startProductFixture } from '../../testing/product-fixture.js';

// `hearth agents list|show|add|edit|remove` with every setting, against the composed product.

let product: ProductFixture;
beforeAll(async () => {
  product = await startProductFixture({ config: { memory: { recall: { enabled: false } } } });
}, 60_000);
afterAll(async () => {
  await product?.close();
});

const cli = (args: string[]) =>
  runCliCaptured(args, { HEARTH_HOME: product.home, HEARTH_PORT: String(product.host.port) });
const agentsSection = async () =>
  (
    JSON.parse(await readFile(join(product.home, 'hearth.json'), 'utf8')) as {
      agents: { list: Record<string, unknown>[]; bindings: Record<string, unknown>[] };
    }
  ).agents;

describe('hearth agents', () => {
  it('sets every field from the command line, shows it, and changes it with edit', async () => {
    const added = await cli([
      'agents',
      'add',
      'Night Shift',
      '--model',
      'openai/gpt-4o',
      '--fallback',
      'openai/gpt-4o-mini',
      '--fallback',
      'deepseek/deepseek-chat',
      '--tool-profile',
      'coding',
      '--engine',
      'codex',
      '--engine-access',
      'workspace-write',
      '--memory-scope',
      'per-user',
      '--exec-security',
      'full',
      '--exec-ask',
      'always',
      '--bind',
      'telegram,peer=direct:42',
      '--bind',
      'discord,guild=987,account=night-bot',
      '--emoji',
      '🌙',
    ]);
    expect(added.stderr).toBe('');
    expect(added.stdout).toContain('created agent night-shift (Night Shift)');
    const section = await agentsSection();
    expect(section.list).toContainEqual({
      id: 'night-shift',
      name: 'Night Shift',
      emoji: '🌙',
      model: { primary: 'openai/gpt-4o', fallbacks: ['openai/gpt-4o-mini', 'deepseek/deepseek-chat'] },
      tools: { profile: 'coding', exec: { security: 'full', ask: 'always' } },
      engine: { cli: 'codex', access: 'workspace-write' },
      memory: { scope: 'per-user' },
    });
    expect(section.bindings).toEqual([
      { agentId: 'night-shift', match: { channel: 'telegram', peer: { kind: 'direct', id: '42' } } },
      { agentId: 'night-shift', match: { channel: 'discord', guildId: '987', accountId: 'night-bot' } },
    ]);

    const shown = (await cli(['agents', 'show', 'night-shift'])).stdout;
    expect(shown).toMatch(/^name {9}🌙 Night Shift$/m);
    expect(shown).toMatch(/^model {8}openai\/gpt-4o → openai\/gpt-4o-mini → deepseek\/deepseek-chat$/m);
    expect(shown).toMatch(/^engine {7}codex$/m);
    expect(shown).toMatch(/^memory scope per-user$/m);
    expect(shown).toMatch(/^bindings {5}telegram,peer=direct:42; discord,account=night-bot,guild=987$/m);

    const edited = await cli([
      'agents',
      'edit',
      'night-shift',
      '--name',
      'Day Shift',
      '--engine',
      'hearth',
      '--memory-scope',
      'inherit',
      '--exec-inherit',
      '--bind',
      'slack',
      '--tool-profile',
      'minimal',
    ]);
    expect(edited.stdout).toContain('updated agent night-shift');
    const after = await agentsSection();
    expect(after.list).toContainEqual({
      id: 'night-shift',
      name: 'Day Shift',
      emoji: '🌙',
      model: { primary: 'openai/gpt-4o', fallbacks: ['openai/gpt-4o-mini', 'deepseek/deepseek-chat'] },
      tools: { profile: 'minimal' },
    });
    expect(after.bindings).toEqual([{ agentId: 'night-shift', match: { channel: 'slack' } }]);
    expect((await cli(['agents', 'edit', 'night-shift', '--bind', 'none'])).code).toBe(0);
    expect((await agentsSection()).bindings).toEqual([]);
  });

  it('says which flag is wrong and changes nothing', async () => {
    const before = await readFile(join(product.home, 'hearth.json'), 'utf8');
    const cases: [string[], string][] = [
      [['agents', 'add', 'X', '--tool-profile', 'everything'], '--tool-profile "everything": use one of minimal'],
      [['agents', 'add', 'X', '--memory-scope', 'shared'], '--memory-scope "shared"'],
      [['agents', 'add', 'X', '--bind', 'telegram,peer=friend'], 'peer is kind:id'],
      [['agents', 'add', 'X', '--bind', 'telegram,room=1'], 'unknown part "room"'],
      [['agents', 'add', 'X', '--engine-model', 'o3'], '--engine-model, --engine-access, --engine-for need --engine'],
      [['agents', 'add', 'X', '--exec-ask', 'sometimes'], '--exec-ask "sometimes"'],
      [['agents', 'edit', 'main'], 'nothing to change'],
      [['agents', 'edit', 'ghost', '--name', 'Boo'], 'no agent "ghost"'],
    ];
    for (const [args, message] of cases) {
      const result = await cli(args);
      expect(result.code, args.join(' ')).not.toBe(0);
      expect(result.stderr, args.join(' ')).toContain(message);
    }
    expect(await readFile(join(product.home, 'hearth.json'), 'utf8')).toBe(before);
  });

  it('removes an agent and keeps its workspace unless asked', async () => {
    const added = await cli(['agents', 'add', 'Temp']);
    expect(added.code).toBe(0);
    const workspace = join(product.home, 'workspace-temp');
    await vi.waitFor(() => expect(existsSync(join(workspace, 'SOUL.md'))).toBe(true), { timeout: 10_000 });
    const removed = await cli(['agents', 'remove', 'temp']);
    expect(removed.stdout).toContain('removed agent temp; its workspace, sessions and memory stay on disk');
    expect(existsSync(join(workspace, 'SOUL.md'))).toBe(true);
    expect((await agentsSection()).list).not.toContainEqual(expect.objectContaining({ id: 'temp' }));
  });
});
