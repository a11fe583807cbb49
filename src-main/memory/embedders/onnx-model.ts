import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { access, readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { EmbedderError, l2Normalize } from './embedder.js';

/**
 * A local sentence-embedding model from files the user supplies (a sentence-transformers ONNX
 * export such as all-MiniLM-L6-v2 or bge-small: `model.onnx` + `tokenizer.json`), or one installed
 * from the catalogue (`model-install.ts`; loading never downloads anything). The runtime is
 * ONNX Runtime's WebAssembly build, which ships inside its npm package — no native binary to
 * fetch at install time — and the tokenizer is Hugging Face's own
 * tokenizer.json format read by `@huggingface/tokenizers`. Both load only when this embedder is
 * chosen, and only in the embedder's worker thread (`onnx-embedder.ts`).
 */
export interface OnnxEmbedderOptions {
  modelDir: string;
  /** Tokens per text; longer texts are cut. Defaults to the tokenizer's model_max_length, at most 512. */
  maxTokens?: number;
  /** Texts per model run. */
  batchSize?: number;
  /** WebAssembly threads; 1 keeps indexing from competing with the gateway for both cores. */
  threads?: number;
  /** `mean` over the attention mask, or the first token (`cls`); default from 1_Pooling/config.json, else mean. */
  pooling?: 'mean' | 'cls';
}

/** Where sentence-transformers exports keep the graph, in the order we look. */
const MODEL_FILES = ['model.onnx', 'onnx/model.onnx'];
const TOKENIZER_FILE = 'tokenizer.json';
/** Outputs that are already one vector per text. */
const POOLED_OUTPUTS = ['sentence_embedding', 'pooler_output'];
/** Outputs with one vector per token, to be pooled here. */
const TOKEN_OUTPUTS = ['last_hidden_state', 'token_embeddings'];
const SUPPORTED_INPUTS = new Set(['input_ids', 'attention_mask', 'token_type_ids']);

type Ort = typeof import('onnxruntime-web');
type OrtSession = import('onnxruntime-web').InferenceSession;
type OrtTensor = import('onnxruntime-web').Tensor;

/** A loaded model: what the worker thread runs. */
export interface OnnxModel {
  id: string;
  dimension: number;
  /** One batch through tokenizer, graph and pooling: unit vectors, one per text. */
  embedBatch(texts: string[]): Promise<Float32Array[]>;
}

/** The model and tokenizer files of a folder, or an error saying which are missing. */
export async function findModelFiles(modelDir: string): Promise<{ modelPath: string; tokenizerPath: string }> {
  const modelPath = await firstExisting(MODEL_FILES.map((file) => join(modelDir, file)));
  const tokenizerPath = join(modelDir, TOKENIZER_FILE);
  const tokenizerFound = await exists(tokenizerPath);
  if (!modelPath || !tokenizerFound) {
    const missing = [modelPath ? '' : MODEL_FILES.join(' or '), tokenizerFound ? '' : TOKENIZER_FILE].filter(Boolean);
    throw new EmbedderError(
      `onnx embedder needs model files in ${modelDir}: missing ${missing.join(', ')} (install a model with \`hearth memory model install\`, or put the files there yourself)`,
    );
  }
  return { modelPath, tokenizerPath };
}

export async function loadOnnxModel(options: OnnxEmbedderOptions): Promise<OnnxModel> {
  const { modelDir } = options;
  const { modelPath, tokenizerPath } = await findModelFiles(modelDir);

  const tokenizerJson = await readJson(tokenizerPath);
  const tokenizerConfig = (await readOptionalJson(join(modelDir, 'tokenizer_config.json'))) ?? {};
  const poolingConfig = await readOptionalJson(join(modelDir, '1_Pooling', 'config.json'));
  const { Tokenizer } = await import('@huggingface/tokenizers');
  let tokenizer: InstanceType<typeof Tokenizer>;
  try {
    tokenizer = new Tokenizer(tokenizerJson, tokenizerConfig);
  } catch (error) {
    throw new EmbedderError(
      `onnx embedder: ${tokenizerPath} is not a tokenizer this build can read: ${message(error)}`,
    );
  }

  const ort: Ort = await import('onnxruntime-web');
  ort.env.wasm.numThreads = options.threads ?? 1;
  let session: OrtSession;
  try {
    session = await ort.InferenceSession.create(await readFile(modelPath));
  } catch (error) {
    throw new EmbedderError(`onnx embedder: could not load ${modelPath}: ${message(error)}`);
  }
  const inputTypes = describeInputs(session, modelPath);
  const outputName =
    POOLED_OUTPUTS.find((name) => session.outputNames.includes(name)) ??
    TOKEN_OUTPUTS.find((name) => session.outputNames.includes(name)) ??
    session.outputNames[0];
  if (!outputName) throw new EmbedderError(`onnx embedder: ${modelPath} has no outputs`);

  const configuredMax = Number((tokenizerConfig as { model_max_length?: unknown }).model_max_length);
  const maxTokens = options.maxTokens ?? (Number.isFinite(configuredMax) ? Math.min(configuredMax, 512) : 512);
  const pooling = options.pooling ?? (poolingConfig?.pooling_mode_cls_token === true ? 'cls' : 'mean');
  const padId = tokenizer.token_to_id(String((tokenizerConfig as { pad_token?: unknown }).pad_token ?? '[PAD]')) ?? 0;
  // One run at a time: the WebAssembly session is single-threaded state.
  let queue: Promise<unknown> = Promise.resolve();
  const runBatch = (texts: string[]): Promise<Float32Array[]> => {
    const encoded = texts.map((text) => truncate(tokenizer.encode(text), maxTokens));
    const length = Math.max(1, ...encoded.map((e) => e.ids.length));
    const feeds: Record<string, OrtTensor> = {};
    const columns: Record<string, (e: (typeof encoded)[number], i: number) => number> = {
      input_ids: (e, i) => e.ids[i] ?? padId,
      attention_mask: (e, i) => (i < e.ids.length ? 1 : 0),
      // One sentence per text: every token belongs to segment 0.
      token_type_ids: () => 0,
    };
    for (const [name, type] of inputTypes) {
      const values = encoded.flatMap((e) => Array.from({ length }, (_, i) => columns[name]!(e, i)));
      feeds[name] =
        type === 'int32'
          ? new ort.Tensor('int32', Int32Array.from(values), [texts.length, length])
          : new ort.Tensor('int64', BigInt64Array.from(values, BigInt), [texts.length, length]);
    }
    const run = queue.then(async () => {
      const result = await session.run(feeds);
      const output = result[outputName]!;
      return pool(output, encoded, { pooling, modelPath, outputName });
    });
    queue = run.catch(() => undefined);
    return run;
  };

  // Probe once: the dimension is what the model answers, and a model that cannot embed fails here, not mid-index.
  let dimension: number;
  try {
    dimension = (await runBatch(['hearth']))[0]!.length;
  } catch (error) {
    if (error instanceof EmbedderError) throw error;
    throw new EmbedderError(`onnx embedder: ${modelPath} failed on a probe text: ${message(error)}`);
  }

  return {
    // The id names the model's bytes: replacing model.onnx re-embeds even under the same folder name.
    id: `onnx:${basename(modelDir)}@${(await sha256(modelPath)).slice(0, 12)}`,
    dimension,
    async embedBatch(texts) {
      try {
        return await runBatch(texts);
      } catch (error) {
        if (error instanceof EmbedderError) throw error;
        throw new EmbedderError(`onnx embedder (${basename(modelDir)}) failed: ${message(error)}`);
      }
    },
  };
}

interface EncodedText {
  ids: number[];
}

/** Cut to the budget, keeping the closing special token ([SEP] or </s>) the model was trained to see. */
function truncate(encoding: { ids: number[] }, maxTokens: number): EncodedText {
  if (encoding.ids.length <= maxTokens) return { ids: encoding.ids };
  return { ids: [...encoding.ids.slice(0, maxTokens - 1), encoding.ids.at(-1)!] };
}

/** Which inputs the graph wants and their integer type; anything else is a model this embedder cannot feed. */
function describeInputs(session: OrtSession, modelPath: string): Map<string, 'int32' | 'int64'> {
  const unsupported = session.inputNames.filter((name) => !SUPPORTED_INPUTS.has(name));
  if (unsupported.length > 0 || !session.inputNames.includes('input_ids'))
    throw new EmbedderError(
      `onnx embedder: ${modelPath} expects inputs ${session.inputNames.join(', ')}; a text-embedding model takes input_ids (and optionally attention_mask, token_type_ids)`,
    );
  const types = new Map<string, 'int32' | 'int64'>();
  for (const name of session.inputNames) {
    const meta = session.inputMetadata.find((m) => m.name === name);
    types.set(name, meta?.isTensor && meta.type === 'int32' ? 'int32' : 'int64');
  }
  return types;
}

/** One unit vector per text, from either a pooled output or per-token states. */
function pool(
  output: OrtTensor,
  encoded: EncodedText[],
  context: { pooling: 'mean' | 'cls'; modelPath: string; outputName: string },
): Float32Array[] {
  const data = output.data;
  if (!(data instanceof Float32Array))
    throw new EmbedderError(
      `onnx embedder: output ${context.outputName} of ${context.modelPath} is ${output.type}, expected float32`,
    );
  const dims = output.dims;
  if (dims.length === 2) {
    const width = dims[1]!;
    return encoded.map((_, row) => l2Normalize(data.slice(row * width, (row + 1) * width)));
  }
  if (dims.length !== 3)
    throw new EmbedderError(
      `onnx embedder: output ${context.outputName} of ${context.modelPath} has shape [${dims.join(', ')}], expected [batch, tokens, dim] or [batch, dim]`,
    );
  const [, length, width] = dims as [number, number, number];
  return encoded.map((e, row) => {
    const vector = new Float32Array(width);
    const tokens = context.pooling === 'cls' ? 1 : Math.min(e.ids.length, length);
    for (let t = 0; t < tokens; t++) {
      const base = (row * length + t) * width;
      for (let d = 0; d < width; d++) vector[d]! += data[base + d]!;
    }
    for (let d = 0; d < width; d++) vector[d]! /= tokens;
    return l2Normalize(vector);
  });
}

async function firstExisting(paths: string[]): Promise<string | undefined> {
  for (const path of paths) if (await exists(path)) return path;
  return undefined;
}

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}

async function readJson(path: string): Promise<Record<string, unknown>> {
  const text = await readFile(path, 'utf8');
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('not a JSON object');
    return value as Record<string, unknown>;
  } catch (error) {
    throw new EmbedderError(`onnx embedder: ${path} is not valid JSON: ${message(error)}`);
  }
}

async function readOptionalJson(path: string): Promise<Record<string, unknown> | undefined> {
  return (await exists(path)) ? readJson(path) : undefined;
}

async function sha256(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
