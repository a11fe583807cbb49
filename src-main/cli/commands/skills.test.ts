import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliCaptured } from '../../testing/cli-run.js';
import { type ProductFixture, startProductFixture } from '../../testing/product-fixture.js';

// `hearth skills …` through the CLI's own code path against a running product.

let product: ProductFixture;
beforeAll(async () => {
  product = await startProductFixture({ config: { memory: { recall: { enabled: false } } } });
});
afterAll(async () => {
  await product?.close();
});

const cli = (args: string[]) =>
  runCliCaptured(args, { HEARTH_HOME: product.home, HEARTH_PORT: String(product.host.port) });

describe('hearth skills', () => {
  it('lists, shows, disables and enables skills; an unknown one is a clear error', async () => {
    const listed = await cli(['skills', 'list']);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/^Skills of agent main:/);
    expect(listed.stdout).toMatch(/^ {2}commit-message\s+0 uses\s+\[bundled\]\s+Write a git commit message/m);
    expect(listed.stdout).toMatch(/^ {2}find-large-files\s+0 uses\s+\[bundled, scripts\]/m);

    const shown = await cli(['skills', 'show', 'find-large-files']);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain('files: scripts/largest.sh');
    expect(shown.stdout).toContain('## Verification');

    expect((await cli(['skills', 'disable', 'commit-message'])).stdout).toBe(
      'commit-message: disabled for agent main\n',
    );
    const json = JSON.parse((await cli(['skills', 'list', '--json'])).stdout) as {
      skills: { name: string; enabled: boolean }[];
    };
    expect(json.skills.find((skill) => skill.name === 'commit-message')!.enabled).toBe(false);
    expect((await cli(['skills', 'enable', 'commit-message'])).stdout).toBe('commit-message: enabled for agent main\n');

    const missing = await cli(['skills', 'show', 'nope']);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain('no skill named "nope" (skills: commit-message, find-large-files)');
  });
});
