import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createOpenAI } from '@ai-sdk/openai';
import { type EmbeddingModel, embedMany } from 'ai';
import { createOllama } from 'ollama-ai-provider-v2';
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
  const model = resolveModel(options);
  const batchSize = options.batchSize ?? 256;
  let dimension = options.dimension ?? 0;
  return {
    id: `${options.provider}:${options.model}`,
    get dimension() {
      return dimension;
    },
    async embed(texts, signal) {
      const out: Float32Array[] = [];
      for (let i = 0; i < texts.length; i += batchSize) {
        const values = texts.slice(i, i + batchSize);
        let result: { embeddings: number[][]; usage?: { tokens?: number } };
        try {
          result = await embedMany({ model, values, maxRetries: 0, abortSignal: signal });
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

function resolveModel(options: ProviderEmbedderOptions): EmbeddingModel {
  const common = { baseURL: options.baseUrl, fetch: options.fetch };
  switch (options.provider) {
    case 'openai':
      return createOpenAI({ ...common, apiKey: options.apiKey ?? 'missing-key' }).embedding(options.model);
    case 'google':
      return createGoogleGenerativeAI({ ...common, apiKey: options.apiKey ?? 'missing-key' }).embedding(options.model);
    case 'ollama':
      return createOllama(common).embedding(options.model);
    default:
      throw new EmbedderError(`unknown embeddings provider: ${String(options.provider)}`);
  }
}
