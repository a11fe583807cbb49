import { access } from 'node:fs/promises';
import { join } from 'node:path';
import { type Embedder, EmbedderError } from './embedder.js';

/**
 * A local ONNX sentence-embedding model from files the user supplies. Hearth never
 * downloads models and does not bundle an ONNX runtime (it weighs ~475 MB), so this
 * option checks the files and then says exactly what is missing instead of failing later.
 */
export async function createOnnxEmbedder(modelDir: string): Promise<Embedder> {
  const required = ['model.onnx', 'tokenizer.json'];
  const missing: string[] = [];
  for (const file of required) {
    try {
      await access(join(modelDir, file));
    } catch {
      missing.push(file);
    }
  }
  if (missing.length > 0)
    throw new EmbedderError(
      `onnx embedder needs user-supplied model files in ${modelDir}: missing ${missing.join(', ')} (Hearth never downloads models)`,
    );
  throw new EmbedderError(
    'onnx embedder: model files found, but no ONNX runtime is installed in this build; use the "hashed" or a provider embedder',
  );
}
