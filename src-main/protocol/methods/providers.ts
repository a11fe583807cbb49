import { z } from 'zod';
import { method } from './define.js';

/** Why a provider did not list its models; the UI words each (see providers/provider-models.ts). */
export type ProviderProblem = 'auth' | 'down' | 'timeout' | 'http' | 'format' | 'unsupported' | 'bad_input';

/** What `providers.test` found: the provider's own model ids, or its refusal in its words. */
export type ProviderTestResult =
  | { ok: true; url: string; models: string[] }
  | {
      ok: false;
      url?: string;
      problem: ProviderProblem;
      status?: number;
      /** With `bad_input`: the form field that is wrong (`region`, `deployment`, `accessKeyId`, …). */
      field?: string;
      message: string;
    };

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
export const setupKinds = [
  'openai',
  'openai-responses',
  'anthropic',
  'google',
  'azure',
  'bedrock',
  'ollama',
  'openai-compatible',
] as const;

/**
 * The fields Azure and Bedrock need besides a key (checked again server-side, naming the field).
 * Bedrock's access key pair is a secret: it goes to the secret store, never into hearth.json.
 */
const kindFields = {
  /** Azure: `<name>` of `<name>.openai.azure.com`, when no baseURL is given. */
  resourceName: z.string().min(1).max(64).optional(),
  /** Azure: the deployment Test connection calls (and the model the chat uses). */
  deployment: z.string().min(1).max(64).optional(),
  /** Azure: `v1` or a dated api-version such as `2024-10-21`. */
  apiVersion: z.string().min(1).max(32).optional(),
  /** Bedrock: the AWS region. */
  region: z.string().min(1).max(32).optional(),
  accessKeyId: z.string().min(1).max(128).optional(),
  secretAccessKey: z.string().min(1).max(256).optional(),
  sessionToken: z.string().min(1).max(4096).optional(),
};

const providerId = z
  .string()
  .regex(/^[a-z0-9][a-z0-9._-]*$/i, 'use letters, digits, . _ - (e.g. "lmstudio")')
  .max(40);
const modelRef = z.string().regex(/^[^/\s]+\/\S+$/, 'a model is "provider/model", e.g. "openai/gpt-4o"');

export const providersMethods = {
  /** Lists a provider's models with the given (unsaved) settings: onboarding's Test connection. */
  'providers.test': method<ProviderTestResult>()({
    scope: 'operator.admin',
    params: () =>
      z
        .object({
          kind: z.enum(setupKinds),
          baseURL: z.string().min(1).optional(),
          /** The key to try; omitted: the one stored for `profileId`, or none (local servers). */
          apiKey: z.string().min(1).optional(),
          profileId: z.string().min(1).optional(),
          ...kindFields,
        })
        .strict(),
  }),
  /** Ollama and LM Studio on this machine's default ports, each asked with a short timeout. */
  'providers.detect': method<{ local: LocalProviderRow[] }>()({
    scope: 'operator.admin',
    params: () => z.object({}).strict(),
  }),
  /**
   * Saves a provider from the app: `providers.<id>` and the model chain go through the config
   * service (validated like config.patch), the key into the secret store as profile `<id>:default`.
   */
  'providers.save': method<{ providerId: string; profileId?: string; primary: string; fallbacks: string[] }>()({
    scope: 'operator.admin',
    params: () =>
      z
        .object({
          id: providerId,
          kind: z.enum(setupKinds),
          baseURL: z.string().url().optional(),
          apiKey: z.string().min(1).optional(),
          ...kindFields,
          primary: modelRef,
          fallbacks: z.array(modelRef).max(8).default([]),
        })
        .strict(),
    controlPlaneWrite: true,
  }),
};
