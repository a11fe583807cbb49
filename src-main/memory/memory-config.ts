import { isAbsolute } from 'node:path';
import { z } from 'zod';
import { catalogueModelSchema } from './embedders/model-catalogue.js';

/** Search weights and gates (ARCHITECTURE.md "Constants from the seed"). */
export const memorySearchConfigSchema = z
  .object({
    /**
     * Fusion weights. Unset: chosen by the embedder (`searchWeightsFor`): 0.7 / 0.3 for a model
     * that embeds meaning, 0.3 / 0.7 for the offline hashed embedder, whose vectors are words again.
     */
    vectorWeight: z.number().min(0).max(1).optional(),
    textWeight: z.number().min(0).max(1).optional(),
    /** Half-life of dated daily notes; MEMORY.md / USER.md are evergreen. */
    halfLifeDays: z.number().positive().default(30),
    mmrLambda: z.number().min(0).max(1).default(0.7),
    topK: z.number().int().min(1).max(100).default(6),
    minScore: z.number().min(0).max(1).default(0.15),
  })
  .strict();

export const memoryEmbedderConfigSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('hashed'), dimension: z.number().int().min(32).max(4096).default(384) }).strict(),
  z
    .object({
      kind: z.literal('provider'),
      provider: z.enum(['openai', 'google', 'ollama']),
      model: z.string().min(1),
      baseUrl: z.string().url().optional(),
      /** Name of the secret holding the API key (never the key itself). */
      apiKeySecret: z.string().optional(),
      dimension: z.number().int().positive().optional(),
    })
    .strict(),
  z
    .object({
      kind: z.literal('onnx'),
      /** A folder with model.onnx (or onnx/model.onnx) and tokenizer.json, e.g. a sentence-transformers export. */
      modelDir: z.string().refine((dir) => isAbsolute(dir), 'must be an absolute path to the model folder'),
      maxTokens: z.number().int().min(8).max(8192).optional(),
      threads: z.number().int().min(1).max(64).optional(),
      pooling: z.enum(['mean', 'cls']).optional(),
    })
    .strict(),
]);

/** Active recall's settings, without defaults: the shape of a per-agent override too. */
const recallFields = {
  enabled: z.boolean(),
  mode: z.enum(['message', 'recent', 'full']),
  style: z.enum(['balanced', 'strict', 'contextual', 'recall-heavy', 'precision-heavy', 'preference-only']),
  timeoutMs: z.number().int().positive().max(60_000),
  cacheMs: z.number().int().min(0),
  maxChars: z.number().int().min(40).max(220),
  /**
   * A model reads the weaker hits when the cheap pass finds nothing strong. It costs one extra
   * (small) model call on such turns, so it is opt-in; a model reference, or true for the agent's own.
   */
  model: z.union([z.boolean(), z.string().min(1)]),
};

export const memoryRecallConfigSchema = z
  .object({
    enabled: recallFields.enabled.default(true),
    mode: recallFields.mode.default('message'),
    style: recallFields.style.default('balanced'),
    timeoutMs: recallFields.timeoutMs.default(15_000),
    cacheMs: recallFields.cacheMs.default(15_000),
    maxChars: recallFields.maxChars.default(220),
    model: recallFields.model.default(false),
  })
  .strict();

/** `agents.list[].memory.recall`: what one agent changes of `memory.recall` (unset fields inherit). */
export const memoryRecallOverrideSchema = z.object(recallFields).partial().strict();
export type MemoryRecallOverride = z.output<typeof memoryRecallOverrideSchema>;

/** An agent's agent-level memory settings inside `agents.list[]`. */
export const agentMemoryConfigSchema = z
  .object({
    recall: memoryRecallOverrideSchema.optional(),
    /** Whose memory this agent's sessions see, over `memory.scope` (a family agent per-user, a work agent per-agent). */
    scope: z.enum(['per-agent', 'per-user']).optional(),
  })
  .strict();

export type AgentMemoryConfig = z.output<typeof agentMemoryConfigSchema>;

/** memory's slice of `agents`: each entry's `memory`, typed by this module's schema (validated when hearth.json loads). */
export interface AgentsWithMemory {
  list?: readonly { id: string; memory?: AgentMemoryConfig }[];
}

/** `memory.scope` as one agent runs with it: its own `agents.list[].memory.scope`, else the root's. */
export function scopeSettingsFor<T extends { scope: 'per-agent' | 'per-user' }>(
  base: T,
  agents: AgentsWithMemory | undefined,
  agentId: string,
): T {
  const own = agents?.list?.find((agent) => agent.id === agentId)?.memory?.scope;
  return own ? { ...base, scope: own } : base;
}

/** The recall settings one agent runs with: `memory.recall`, then that agent's override. */
export function recallConfigFor(
  base: MemoryRecallConfig,
  agents: AgentsWithMemory | undefined,
  agentId: string,
): MemoryRecallConfig {
  const entry = agents?.list?.find((agent) => agent.id === agentId);
  return { ...base, ...entry?.memory?.recall };
}

export const memoryDreamingConfigSchema = z
  .object({
    enabled: z.boolean().default(false),
    /** croner pattern, local time. */
    cron: z.string().min(1).default('0 3 * * *'),
    lookbackDays: z.number().int().min(1).max(365).default(30),
    /**
     * Review mode: a run that finds promotion candidates keeps them waiting for the person
     * (Dreams view, `hearth memory promote --approve/--reject`) instead of writing MEMORY.md.
     */
    review: z.boolean().default(false),
  })
  .strict();

/**
 * Query rewrite (opt-in): a configured model expands the query and translates it (English ↔
 * Chinese) before memory_search and active recall, one small call per distinct query text.
 */
export const memoryQueryRewriteConfigSchema = z
  .object({
    enabled: z.boolean().default(false),
    /** A model reference (`openai/gpt-4o-mini`), or true for the agent's own primary model. */
    model: z.union([z.literal(true), z.string().min(1)]).default(true),
    /** Languages the query is also written in. */
    languages: z
      .array(z.enum(['en', 'zh']))
      .min(1)
      .default(['en', 'zh']),
    timeoutMs: z.number().int().positive().max(60_000).default(8_000),
    /** Distinct queries whose rewrite is kept (least recently used dropped first). */
    cacheSize: z.number().int().min(0).max(100_000).default(500),
  })
  .strict();

export const memoryConfigSchema = z
  .object({
    scope: z.enum(['per-agent', 'per-user']).default('per-agent'),
    /** userId → account ids (`telegram:123`, `webhook:alice`) that are the same person. */
    identityLinks: z.record(z.string(), z.array(z.string())).default({}),
    embedder: memoryEmbedderConfigSchema.default({ kind: 'hashed', dimension: 384 }),
    search: memorySearchConfigSchema.default(memorySearchConfigSchema.parse({})),
    recall: memoryRecallConfigSchema.default(memoryRecallConfigSchema.parse({})),
    dreaming: memoryDreamingConfigSchema.default(memoryDreamingConfigSchema.parse({})),
    queryRewrite: memoryQueryRewriteConfigSchema.default(memoryQueryRewriteConfigSchema.parse({})),
    /** Local embedding models to offer besides the built-in ones (same name: replaces it). */
    models: z.array(catalogueModelSchema).default([]),
    capture: z
      .object({ enabled: z.boolean().default(true), maxChars: z.number().int().min(20).default(500) })
      .strict()
      .default({ enabled: true, maxChars: 500 }),
  })
  .strict();

export type MemoryConfig = z.output<typeof memoryConfigSchema>;
export type MemoryConfigInput = z.input<typeof memoryConfigSchema>;
export type MemorySearchConfig = z.output<typeof memorySearchConfigSchema>;
export type MemoryEmbedderConfig = z.output<typeof memoryEmbedderConfigSchema>;
export type MemoryRecallConfig = z.output<typeof memoryRecallConfigSchema>;
export type MemoryQueryRewriteConfig = z.output<typeof memoryQueryRewriteConfigSchema>;
export type RecallStyle = MemoryRecallConfig['style'];

export function parseMemoryConfig(input: unknown): MemoryConfig {
  const parsed = memoryConfigSchema.safeParse(input ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`invalid memory config at memory.${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'unknown'}`);
  }
  return parsed.data;
}
