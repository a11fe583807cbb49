import { type EmbeddingModel, embedMany } from 'ai';
import { type Embedder, EmbedderError, l2Normalize } from './embedder.js';

export interface ProviderEmbedderOptions {
  provider: 'openai' | 'google' | 'ollama';
  model: string;
  /** Injected so tests (and self-hosted gateways) point it anywhere. */
  baseUrl?: string;
  apiKey?: string;
  /** Expected dimension; when unset it is learned from the first answer. */
  dimension?: number;
  fetch?: typeof globalThis.fetch;
  /** Values per request (OpenAI accepts up to 2048). */
  batchSize?: number;
  /** The tokens each request used, as the provider reported them (the usage meter counts them). */
  onUsage?(tokens: number): void;
}

/** Provider embeddings through the AI SDK: one request per batch, no silent retries. */
export function createProviderEmbedder(options: ProviderEmbedderOptions): Embedder & { dimension: number } {
  if (!options.model.trim()) throw new EmbedderError('provider embedder needs a model name');
  if (!providers.includes(options.provider))
    throw new EmbedderError(`unknown embeddings provider: ${String(options.provider)}`);
  // The SDK is imported on the first embed, not while the gateway composes (issue 23: ~535 KB of
  // JS before Ready); a failed import is not kept, so the next embed tries again.
  let model: Promise<EmbeddingModel> | undefined;
  const modelOnce = () =>
    (model ??= resolveModel(options).catch((error: unknown) => {
      model = undefined;
      const message = error instanceof Error ? error.message : String(error);
      throw new EmbedderError(`${options.provider} embeddings: the SDK could not be loaded: ${message}`);
    }));
  const batchSize = options.batchSize ?? 256;
  let dimension = options.dimension ?? 0;
  return {
    id: `${options.provider}:${options.model}`,
    get dimension() {
      return dimension;
    },
    async embed(texts, signal) {
      const resolved = await modelOnce();
      const out: Float32Array[] = [];
      for (let i = 0; i < texts.length; i += batchSize) {
        const values = texts.slice(i, i + batchSize);
        let result: { embeddings: number[][]; usage?: { tokens?: number } };
        try {
          result = await embedMany({ model: resolved, values, maxRetries: 0, abortSignal: signal });
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          throw new EmbedderError(`${options.provider} embeddings (${options.model}) failed: ${message}`);
        }
        options.onUsage?.(result.usage?.tokens ?? 0);
        for (const embedding of result.embeddings) {
          if (dimension === 0) dimension = embedding.length;
          if (embedding.length !== dimension)
            throw new EmbedderError(
              `${options.provider} embeddings (${options.model}) returned ${embedding.length} dimensions, expected ${dimension}`,
            );
          out.push(l2Normalize(Float32Array.from(embedding)));
        }
      }
      return out;
    },
  };
}

const providers: readonly ProviderEmbedderOptions['provider'][] = ['openai', 'google', 'ollama'];

async function resolveModel(options: ProviderEmbedderOptions): Promise<EmbeddingModel> {
  const common = { baseURL: options.baseUrl, fetch: options.fetch };
  switch (options.provider) {
    case 'openai': {
      const { createOpenAI } = await import('@ai-sdk/openai');
      return createOpenAI({ ...common, apiKey: options.apiKey ?? 'missing-key' }).embedding(options.model);
    }
    case 'google': {
      const { createGoogleGenerativeAI } = await import('@ai-sdk/google');
      return createGoogleGenerativeAI({ ...common, apiKey: options.apiKey ?? 'missing-key' }).embedding(options.model);
    }
    case 'ollama': {
      const { createOllama } = await import('ollama-ai-provider-v2');
      return createOllama(common).embedding(options.model);
    }
  }
}
