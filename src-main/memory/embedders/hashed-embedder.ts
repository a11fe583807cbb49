import { cjkBigrams, isCjk, isStopWord, rawTokens, stem } from '../text-tokens.js';
import { type Embedder, l2Normalize } from './embedder.js';

/**
 * The offline default: feature hashing of words, word bigrams, character trigrams
 * (typo tolerance: "resturant" still shares most trigrams with "restaurant") and CJK
 * character n-grams. Deterministic, no files, no network. It knows no meanings: paraphrase and
 * translation are the full-text side's job (WordNet and CC-CEDICT, `query-expansion.ts`).
 * v2: the hand-written concept table of v1 is gone.
 */
export function createHashedEmbedder(dimension = 384): Embedder {
  if (!Number.isInteger(dimension) || dimension < 32)
    throw new Error(`hashed embedder dimension must be ≥ 32, got ${dimension}`);
  const cache = new TokenCache(dimension);
  return {
    id: `hashed-v2:${dimension}`,
    dimension,
    async embed(texts) {
      return texts.map((text) => embedWith(cache, text));
    },
  };
}

export function embedOne(text: string, dimension: number): Float32Array {
  return embedWith(new TokenCache(dimension), text);
}

/** A token's features, computed once: notes repeat the same words, so this is most of the speed. */
interface TokenFeatures {
  slots: Int32Array;
  weights: Float32Array;
  /** Hash of the stemmed word for word-pair features; 0 for stop words and CJK runs (they break pairs). */
  wordHash: number;
}

const MAX_CACHED_TOKENS = 100_000;

class TokenCache {
  private readonly map = new Map<string, TokenFeatures>();

  constructor(readonly dimension: number) {}

  get(token: string): TokenFeatures {
    let features = this.map.get(token);
    if (!features) {
      if (this.map.size >= MAX_CACHED_TOKENS) this.map.clear();
      features = computeFeatures(token, this.dimension);
      this.map.set(token, features);
    }
    return features;
  }
}

function computeFeatures(token: string, dimension: number): TokenFeatures {
  const slots: number[] = [];
  const weights: number[] = [];
  const add = (feature: string, weight: number) => {
    const hash = fnv1a(feature);
    slots.push(hash % dimension);
    // The top bit picks the sign so collisions cancel out on average instead of piling up.
    weights.push(hash & 0x80000000 ? -weight : weight);
  };
  let wordHash = 0;
  if (isCjk(token[0]!)) {
    for (const char of token) {
      add(`c:${char}`, 0.5);
    }
    for (const gram of cjkBigrams(token)) {
      add(`b:${gram}`, 1);
    }
  } else if (!isStopWord(token)) {
    const word = stem(token);
    wordHash = fnv1a(`w:${word}`) || 1;
    add(`w:${word}`, 1);
    const padded = `^${token}$`;
    if (padded.length > 4) for (let i = 0; i + 3 <= padded.length; i++) add(`t:${padded.slice(i, i + 3)}`, 0.8);
  }
  return { slots: Int32Array.from(slots), weights: Float32Array.from(weights), wordHash };
}

function embedWith(cache: TokenCache, text: string): Float32Array {
  const { dimension } = cache;
  const vector = new Float32Array(dimension);
  let previous = 0;
  for (const token of rawTokens(text)) {
    const features = cache.get(token);
    for (let i = 0; i < features.slots.length; i++) vector[features.slots[i]!]! += features.weights[i]!;
    if (previous && features.wordHash) {
      // Word pairs hashed from the two word hashes, without building a string per pair.
      const pair = mix(previous, features.wordHash);
      vector[pair % dimension]! += pair & 0x80000000 ? -0.5 : 0.5;
    }
    previous = features.wordHash;
  }
  return l2Normalize(vector);
}

function mix(a: number, b: number): number {
  let h = Math.imul(a ^ 0x9e3779b9, 0x85ebca6b) ^ b;
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d);
  h ^= h >>> 15;
  return h >>> 0;
}

function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}
