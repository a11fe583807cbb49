import { z } from 'zod';
import { method } from './define.js';

/** Why a provider did not list its models; the UI words each (see providers/provider-models.ts). */
export type ProviderProblem = 'auth' | 'down' | 'timeout' | 'http' | 'format' | 'unsupported' | 'bad_input';

/** What `providers.test` found: the provider's own model ids, or its refusal in its words. */
export type ProviderTestResult =
  | { ok: true; url: string; models: string[] }
  | { ok: false; url?: string; problem: ProviderProblem; status?: number; message: string };

/** A model server on this machine, asked on its default port. */
export interface LocalProviderRow {
  id: string;
  name: string;
  kind: 'ollama' | 'openai-compatible';
  baseURL: string;
  available: boolean;
  models: string[];
  reason?: string;
}

/** Provider kinds onboarding can set up (providers.<id>.kind). */
export const setupKinds = ['openai', 'anthropic', 'google', 'ollama', 'openai-compatible'] as const;

const providerId = z
  .string()
  .regex(/^[a-z0-9][a-z0-9._-]*$/i, 'use letters, digits, . _ - (e.g. "lmstudio")')
  .max(40);
const modelRef = z.string().regex(/^[^/\s]+\/\S+$/, 'a model is "provider/model", e.g. "openai/gpt-4o"');

export const providersMethods = {
  /** Lists a provider's models with the given (unsaved) settings: onboarding's Test connection. */
  'providers.test': method<ProviderTestResult>()({
    scope: 'operator.admin',
    params: z
      .object({
        kind: z.enum(setupKinds),
        baseURL: z.string().min(1).optional(),
        /** The key to try; omitted: the one stored for `profileId`, or none (local servers). */
        apiKey: z.string().min(1).optional(),
        profileId: z.string().min(1).optional(),
      })
      .strict(),
  }),
  /** Ollama and LM Studio on this machine's default ports, each asked with a short timeout. */
  'providers.detect': method<{ local: LocalProviderRow[] }>()({
    scope: 'operator.admin',
    params: z.object({}).strict(),
  }),
  /**
   * Saves a provider from the app: `providers.<id>` and the model chain go through the config
   * service (validated like config.patch), the key into the secret store as profile `<id>:default`.
   */
  'providers.save': method<{ providerId: string; profileId?: string; primary: string; fallbacks: string[] }>()({
    scope: 'operator.admin',
    params: z
      .object({
        id: providerId,
        kind: z.enum(setupKinds),
        baseURL: z.string().url().optional(),
        apiKey: z.string().min(1).optional(),
        primary: modelRef,
        fallbacks: z.array(modelRef).max(8).default([]),
      })
      .strict(),
    controlPlaneWrite: true,
  }),
};
