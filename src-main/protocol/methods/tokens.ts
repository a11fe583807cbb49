import { z } from 'zod';
import { operatorScopes } from '../scopes.js';
import { method } from './define.js';

/** An API token as the gateway shows it: never the token itself, which is shown once at creation. */
export interface ApiTokenView {
  id: string;
  name: string;
  scopes: string[];
  createdAtMs: number;
  expiresAtMs?: number;
  lastUsedAtMs?: number;
}

const scope = z.enum(operatorScopes, {
  error: (issue) => `unknown scope ${JSON.stringify(issue.input)} (one of ${operatorScopes.join(', ')})`,
});

export const tokensMethods = {
  /** Mints a bearer token for `/v1` and `/mcp` holding exactly `scopes`; `token` is in this answer only. */
  'tokens.create': method<{ token: string; info: ApiTokenView }>()({
    scope: 'operator.admin',
    params: () =>
      z
        .object({
          name: z
            .string()
            .trim()
            .min(1, 'name must not be empty')
            .max(64, 'name is at most 64 characters')
            .regex(/^[\w.@+-]+$/, 'name is letters, digits, ".", "_", "-", "@" or "+"'),
          scopes: z.array(scope).min(1, 'give at least one scope'),
          expiresAtMs: z.number().int().positive().optional(),
        })
        .strict(),
    controlPlaneWrite: true,
  }),
  'tokens.list': method<{ tokens: ApiTokenView[] }>()({
    scope: 'operator.admin',
    params: () => z.object({}).strict(),
  }),
  /** Revokes a token by id (or by its name if only one has it): its next request is refused. */
  'tokens.revoke': method<{ revoked: ApiTokenView }>()({
    scope: 'operator.admin',
    params: () => z.object({ id: z.string().trim().min(1, 'give the token id (see tokens.list)') }).strict(),
    controlPlaneWrite: true,
  }),
};
