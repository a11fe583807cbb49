import type { MemoryEmbedderConfig } from '../memory-config.js';
import type { Embedder } from './embedder.js';
import { createHashedEmbedder } from './hashed-embedder.js';
import { createOnnxEmbedder } from './onnx-embedder.js';
import { createProviderEmbedder } from './provider-embedder.js';

export interface EmbedderDeps {
  fetch?: typeof globalThis.fetch;
  /** Reads the API key from the secret store; never from plain config. */
  resolveSecret?(name: string): Promise<string | undefined>;
  /** Told the tokens of each provider embeddings request (the usage meter). */
  onUsage?(usage: { provider: string; model: string; tokens: number }): void;
}

/** Builds the configured embedder. Throws an EmbedderError that names what is wrong. */
export async function createEmbedder(config: MemoryEmbedderConfig, deps: EmbedderDeps = {}): Promise<Embedder> {
  switch (config.kind) {
    case 'hashed':
      return createHashedEmbedder(config.dimension);
    case 'provider': {
      const apiKey = config.apiKeySecret ? await deps.resolveSecret?.(config.apiKeySecret) : undefined;
      return createProviderEmbedder({
        provider: config.provider,
        model: config.model,
        baseUrl: config.baseUrl,
        apiKey,
        dimension: config.dimension,
        fetch: deps.fetch,
        onUsage: deps.onUsage
          ? (tokens) => deps.onUsage?.({ provider: config.provider, model: config.model, tokens })
          : undefined,
      });
    }
    case 'onnx':
      return createOnnxEmbedder({
        modelDir: config.modelDir,
        maxTokens: config.maxTokens,
        threads: config.threads,
        pooling: config.pooling,
      });
  }
}
