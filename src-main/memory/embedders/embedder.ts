/** One interface for every way of turning text into vectors. */
export interface Embedder {
  /** Stable id stored with every vector, e.g. `hashed-v2:384` or `openai:text-embedding-3-small`. */
  readonly id: string;
  readonly dimension: number;
  embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[]>;
  /** Releases what the embedder holds (the ONNX embedder's thread); later calls fail. */
  close?(): Promise<void>;
}

export class EmbedderError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EmbedderError';
  }
}

export function l2Normalize(vector: Float32Array): Float32Array {
  let sum = 0;
  for (let i = 0; i < vector.length; i++) sum += vector[i]! * vector[i]!;
  if (sum === 0) return vector;
  const inverse = 1 / Math.sqrt(sum);
  for (let i = 0; i < vector.length; i++) vector[i]! *= inverse;
  return vector;
}

/** Dot product; equals cosine similarity for normalised vectors. */
export function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) sum += a[i]! * b[i]!;
  return sum;
}
