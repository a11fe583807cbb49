import { z } from 'zod';
import { HearthError } from '../base/errors.js';

/** The SDK adapter a provider entry uses. */
export const providerKinds = [
  'openai',
  'openai-responses',
  'anthropic',
  'google',
  'bedrock',
  'ollama',
  'azure',
  'openai-compatible',
] as const;
export type ProviderKind = (typeof providerKinds)[number];

/** What a model takes as input besides text (a model without `image` is never sent images). */
export const modelInputKinds = ['text', 'image'] as const;
export type ModelInputKind = (typeof modelInputKinds)[number];

export const modelLimitsSchema = z
  .object({
    name: z.string().min(1).optional(),
    contextWindow: z.number().int().positive(),
    maxOutputTokens: z.number().int().positive(),
    /**
     * What the model accepts, e.g. `["text", "image"]`. A model nobody declared takes text only:
     * an image sent to a text-only API fails the whole call, a note in its place does not.
     */
    input: z.array(z.enum(modelInputKinds)).min(1).optional(),
  })
  .strict();

export const providerEntrySchema = z
  .object({
    kind: z.enum(providerKinds),
    baseURL: z.url().optional(),
    /** Azure resource name (when no baseURL) or Bedrock region. */
    resourceName: z.string().min(1).optional(),
    region: z.string().min(1).optional(),
    /**
     * Azure's api-version. A dated one (e.g. `2024-10-21`) calls `…/openai/deployments/<model>/…`
     * with it; `v1` or none uses Azure's v1 API, where the deployment goes in the body.
     */
    apiVersion: z
      .string()
      .regex(/^(v1|\d{4}-\d{2}-\d{2}(-preview)?)$/, 'an Azure api-version is "v1" or a date like "2024-10-21"')
      .optional(),
    /** Extra headers sent on every request (no secrets: those live in auth profiles). */
    headers: z.record(z.string(), z.string()).optional(),
    /** Per-model limits; overrides the built-in catalog. */
    models: z.record(z.string().min(1), modelLimitsSchema).optional(),
  })
  .strict();

export const authProfileConfigSchema = z
  .object({
    provider: z.string().min(1),
    type: z.enum(['api_key', 'token', 'oauth']),
    label: z.string().optional(),
    /** Epoch ms; for `token` profiles. */
    expiresAt: z.number().int().positive().optional(),
  })
  .strict();

export const modelSelectionSchema = z
  .object({
    primary: z.string().min(3),
    fallbacks: z.array(z.string().min(3)).default([]),
  })
  .strict();

/**
 * providers' slice of an `agents` entry (and of `agents.defaults`): `model`, as written. Checked when
 * hearth.json loads, so a bad selection is refused naming where it is; expanded by resolveModelSelection.
 */
export const agentModelConfigSchema = z.union([z.string().min(3), modelSelectionSchema]);

/**
 * The runtime's part of hearth.json. Mounted by the root schema as
 * `providers`, `auth`, and `agents.defaults.model` (see the report in the PR).
 */
export const providersConfigSchema = z.record(z.string().regex(/^[a-z0-9][a-z0-9._-]*$/i), providerEntrySchema);

export const authConfigSchema = z
  .object({
    /** Profiles declared in config; their secrets are in the SecretStore. */
    profiles: z.record(z.string().min(1), authProfileConfigSchema).default({}),
    /** Explicit order per provider: listed profiles are tried first, in this order. */
    order: z.record(z.string().min(1), z.array(z.string().min(1))).default({}),
    /** How long a billing failure disables a profile (default 5 h). */
    billingDisableMs: z
      .number()
      .int()
      .positive()
      .default(5 * 60 * 60 * 1000),
  })
  .strict();

export const runtimeConfigSchema = z
  .object({
    providers: providersConfigSchema.default({}),
    auth: authConfigSchema.default({ profiles: {}, order: {}, billingDisableMs: 5 * 60 * 60 * 1000 }),
    model: modelSelectionSchema,
  })
  .strict();

export type ProviderEntry = z.infer<typeof providerEntrySchema>;
export type ModelLimits = z.infer<typeof modelLimitsSchema>;
export type AuthProfileConfig = z.infer<typeof authProfileConfigSchema>;
export type AuthConfig = z.infer<typeof authConfigSchema>;
export type ModelSelection = z.infer<typeof modelSelectionSchema>;
export type ProvidersConfig = z.infer<typeof providersConfigSchema>;
export type RuntimeConfig = z.infer<typeof runtimeConfigSchema>;

/** Parses the runtime config, turning zod issues into one message naming each bad path. */
export function parseRuntimeConfig(input: unknown): RuntimeConfig {
  const parsed = runtimeConfigSchema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`);
  throw new ProviderConfigError(`invalid provider config: ${issues.join('; ')}`);
}

export class ProviderConfigError extends HearthError {
  constructor(message: string) {
    super('bad_request', message);
    this.name = 'ProviderConfigError';
  }
}
