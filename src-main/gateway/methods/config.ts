import { z } from 'zod';
import { type Disposable, DisposableStore } from '../../base/disposable.js';
import { redactValue } from '../../base/secret-redaction.js';
import { ConfigConflictError, type ConfigService, ConfigValidationError } from '../../config/index.js';
import { GatewayError } from '../../protocol/index.js';
import type { MethodRouter } from '../method-router.js';

function toGatewayError(error: unknown): never {
  if (error instanceof ConfigValidationError) {
    throw new GatewayError('INVALID_REQUEST', error.message, { reason: 'invalid-config', errors: error.errors });
  }
  if (error instanceof ConfigConflictError)
    throw new GatewayError('INVALID_REQUEST', error.message, { reason: 'base-hash-mismatch' });
  throw error;
}

/**
 * config.get / schema / set / patch over whichever file `config` holds: the JSON Schema shown to
 * editors is the one the service validates with (the host's merge of every capability's section).
 */
export function registerConfigMethods(
  router: MethodRouter,
  config: Pick<ConfigService<unknown>, 'path' | 'schema' | 'snapshot' | 'setRaw' | 'patch'>,
): Disposable {
  const store = new DisposableStore();
  // config.set and config.patch answer alike: where the file is, its new hash, what changed.
  const written = (result: { hash: string; backupPath?: string; changedPaths: string[] }) => ({
    ok: true as const,
    path: config.path,
    hash: result.hash,
    backupPath: result.backupPath,
    changedPrefixes: result.changedPaths,
  });
  store.add(
    router.handle('config.get', () => {
      const snapshot = config.snapshot();
      const parsed = redactValue(snapshot.parsed);
      return {
        path: snapshot.path,
        exists: snapshot.exists,
        raw: snapshot.exists ? `${JSON.stringify(parsed, null, 2)}\n` : '',
        parsed,
        hash: snapshot.hash,
        valid: snapshot.valid,
        errors: snapshot.errors,
      };
    }),
  );
  store.add(
    router.handle('config.schema', () => ({
      schema: z.toJSONSchema(config.schema, { io: 'input', unrepresentable: 'any' }),
    })),
  );
  store.add(
    router.handle('config.set', async ({ raw, baseHash }) =>
      written(await config.setRaw(raw, baseHash).catch(toGatewayError)),
    ),
  );
  store.add(
    router.handle('config.patch', async ({ patch, baseHash }) =>
      written(await config.patch(patch, baseHash).catch(toGatewayError)),
    ),
  );
  return store;
}
