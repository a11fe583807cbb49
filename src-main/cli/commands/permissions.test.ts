import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliCaptured } from '../../testing/cli-run.js';
import { type ProductFixture, startProductFixture } from '../../testing/product-fixture.js';

// `hearth permissions list|revoke` through the CLI's own code path, against a composed host whose
// state/permissions.json holds a rule from an earlier run.

let product: ProductFixture;

beforeAll(async () => {
  product = await startProductFixture({
    async before(home) {
      await mkdir(join(home, 'state'), { recursive: true });
      await writeFile(
        join(home, 'state', 'permissions.json'),
        JSON.stringify({
          version: 1,
          rules: [
            {
              id: 'perm_make',
              kind: 'exec',
              scope: 'binary',
              agentId: 'main',
              pattern: '/usr/bin/make',
              origin: 'operator:hearth-control-ui(c1)',
              example: 'make test',
              addedAtMs: 1_700_000_000_000,
            },
          ],
        }),
      );
    },
  });
}, 60_000);
afterAll(async () => {
  await product?.close();
});

const hearth = (...args: string[]) =>
  runCliCaptured([...args, '--url', product.host.wsUrl], { HEARTH_HOME: product.home });

describe('hearth permissions', () => {
  it('lists the rules the host keeps, revokes one by id, and names an unknown id', async () => {
    const listed = await hearth('permissions', 'list');
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(
      /^perm_make {2}exec {2}binary {2}\/usr\/bin\/make {2}agent main {2}no end {2}by operator:/m,
    );
    const json = JSON.parse((await hearth('permissions', 'list', '--json')).stdout);
    expect(json.rules).toEqual([expect.objectContaining({ id: 'perm_make', example: 'make test' })]);

    expect(await hearth('permissions', 'revoke', 'perm_make')).toMatchObject({
      code: 0,
      stdout: 'revoked perm_make\n',
    });
    expect((await hearth('permissions', 'list')).stdout).toBe('nothing is allowed always\n');
    expect(JSON.parse(await readFile(join(product.home, 'state', 'permissions.json'), 'utf8')).rules).toEqual([]);

    const again = await hearth('permissions', 'revoke', 'perm_make');
    expect(again.code).not.toBe(0);
    expect(again.stderr).toContain('no permission rule perm_make');
  });
});
