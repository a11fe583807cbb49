import { type Embedder, EmbedderError } from './embedder.js';

/** Short and plain: its only job is to make the provider say how long its vectors are. */
const PROBE_TEXT = 'dimension probe';

/**
 * The embedder's dimension, learned with one embedding of a probe text when it is not known
 * yet (a provider embedder without `dimension` in config reports 0 until its first answer).
 * The index table is created with a fixed vector size, so this runs before anything is
 * opened or written: a provider that fails here leaves nothing half-made on disk.
 */
export async function ensureEmbedderDimension(embedder: Embedder, signal?: AbortSignal): Promise<number> {
  if (embedder.dimension > 0) return embedder.dimension;
  try {
    await embedder.embed([PROBE_TEXT], signal);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new EmbedderError(`could not learn the vector dimension of ${embedder.id}: ${message}`);
  }
  if (!(embedder.dimension > 0))
    throw new EmbedderError(
      `could not learn the vector dimension of ${embedder.id}: it answered no vector; set memory.embedder.dimension`,
    );
  return embedder.dimension;
}
