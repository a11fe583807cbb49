import { z } from 'zod';
import { method } from './define.js';

export interface ConfigGetResult {
  path: string;
  exists: boolean;
  /** File text with secrets redacted. */
  raw: string;
  parsed: unknown;
  hash: string;
  valid: boolean;
  errors?: { path: string; message: string }[];
}

export interface ConfigWriteResult {
  ok: true;
  path: string;
  hash: string;
  backupPath?: string;
  changedPrefixes: string[];
}

export const configMethods = {
  'config.get': method<ConfigGetResult>()({ scope: 'operator.read', params: () => z.object({}).strict() }),
  'config.schema': method<{ schema: unknown }>()({ scope: 'operator.read', params: () => z.object({}).strict() }),
  'config.set': method<ConfigWriteResult>()({
    scope: 'operator.admin',
    controlPlaneWrite: true,
    params: () => z.object({ raw: z.string(), baseHash: z.string().optional() }).strict(),
  }),
  'config.patch': method<ConfigWriteResult>()({
    scope: 'operator.admin',
    controlPlaneWrite: true,
    params: () =>
      z
        .object({
          /** JSON merge patch (RFC 7386) applied to the current config. */
          patch: z.record(z.string(), z.unknown()),
          baseHash: z.string().optional(),
        })
        .strict(),
  }),
};
