import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFileToolsFixture, type FileToolsFixture } from '../../testing/file-tools-fixture.js';

let fx: FileToolsFixture;
beforeEach(async () => {
  fx = await createFileToolsFixture();
  await writeFile(join(fx.workspace, 'notes.md'), 'inside\n');
  await writeFile(join(fx.outside, 'plan.txt'), 'outside\n');
  await writeFile(join(fx.home, '.ssh', 'id_ed25519'), 'PRIVATE KEY\n');
  await writeFile(join(fx.identityDir, 'device.json'), '{"key":"secret"}\n');
});
afterEach(() => fx.dispose());

describe('file tools: where they may go', () => {
  it('use the workspace without asking anyone', async () => {
    expect(await fx.run('read', { path: 'notes.md' })).toEqual({ output: 'inside' });
    expect(fx.asked).toHaveLength(0);
  });

  it('ask a person through the approval service before leaving the workspace, and obey the answer', async () => {
    fx.answers.push('allow-once');
    expect(await fx.run('read', { path: join(fx.outside, 'plan.txt') })).toEqual({ output: 'outside' });
    expect(fx.asked[0]).toMatchObject({
      command: `read ${join(fx.outside, 'plan.txt')}`,
      allowedDecisions: ['allow-once', 'deny'],
      reasons: [{ code: 'outside-workspace' }],
    });
    fx.answers.push('deny');
    const denied = await fx.run('write', { path: join(fx.outside, 'plan.txt'), content: 'overwritten' });
    expect(denied.isError).toBe(true);
    expect(denied.output).toMatch(/refused: .*plan\.txt is outside the workspace .*not allowed/);
    // A read that was allowed is remembered for the session (read-only: one question per session).
    expect(await fx.run('read', { path: join(fx.outside, 'plan.txt') })).toEqual({ output: 'outside' });
    expect(fx.asked).toHaveLength(2);
  });

  it('resolve `..` before judging: climbing out of the workspace is outside', async () => {
    const result = await fx.run('read', { path: '../../outside/plan.txt' });
    expect(result.isError).toBe(true);
    expect(fx.asked[0]?.command).toBe(`read ${join(fx.outside, 'plan.txt')}`);
  });

  it('resolve symlinks before judging: a link in the workspace to a folder outside is outside', async () => {
    await symlink(fx.outside, join(fx.workspace, 'door'));
    const result = await fx.run('read', { path: 'door/plan.txt' });
    expect(result.isError).toBe(true);
    expect(fx.asked.map((request) => request.command)).toEqual([`read ${join(fx.outside, 'plan.txt')}`]);
  });

  it('never touch ~/.ssh, the identity folder or the secret store, not even asking', async () => {
    fx.answers.push('allow-once', 'allow-once', 'allow-once', 'allow-once');
    await symlink(join(fx.home, '.ssh'), join(fx.workspace, 'keys'));
    const attempts = [
      await fx.run('read', { path: '~/.ssh/id_ed25519' }),
      await fx.run('read', { path: 'keys/id_ed25519' }),
      await fx.run('write', { path: 'keys/authorized_keys', content: 'ssh-ed25519 AAAA attacker' }),
      await fx.run('read', { path: join(fx.identityDir, 'device.json') }),
      await fx.run('edit', { path: join(fx.identityDir, '..', 'identity', 'device.json'), old: 'secret', new: 'x' }),
      await fx.run('write', { path: join(fx.root, 'hearth', 'state', 'secrets.enc.json'), content: '{}' }),
    ];
    for (const result of attempts) {
      expect(result.isError).toBe(true);
      expect(result.output).toMatch(
        /refused: .* is inside (~\/\.ssh|the gateway's identity folder|the secret store); file tools never touch it/,
      );
    }
    expect(fx.asked).toHaveLength(0);
  });

  it('ask about credentials every time, even inside a granted folder', async () => {
    await fx.dispose();
    fx = await createFileToolsFixture({ grantedRoots: ['~'] });
    await writeFile(join(fx.home, '.aws', 'credentials'), 'aws_secret_access_key=x\n');
    await writeFile(join(fx.home, 'todo.txt'), 'granted\n');
    expect(await fx.run('read', { path: '~/todo.txt' })).toEqual({ output: 'granted' });
    expect(fx.asked).toHaveLength(0);
    expect((await fx.run('read', { path: '~/.aws/credentials' })).isError).toBe(true);
    expect(fx.asked).toHaveLength(1);
    // The approval service's own screen sees a credential path: only a person may answer, never "always".
    expect(fx.asked[0]?.reasons.map((reason) => reason.code)).toContain('sensitive-read');
  });

  it('judge a file that does not exist yet by its nearest real folder', async () => {
    await mkdir(join(fx.workspace, 'out'));
    await symlink(fx.outside, join(fx.workspace, 'out', 'link'));
    const result = await fx.run('write', { path: 'out/link/new/deep.txt', content: 'x' });
    expect(result.isError).toBe(true);
    expect(fx.asked[0]?.command).toBe(`write ${join(fx.outside, 'new', 'deep.txt')}`);
  });
});
