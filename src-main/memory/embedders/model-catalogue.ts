import { z } from 'zod';

/**
 * The local embedding models a person can install with one click (`hearth memory model install`,
 * the Memory view). Each file is fetched from a URL pinned to one revision of its Hugging Face
 * repository and must match its SHA-256: a moved branch, a mirror serving other bytes or a
 * truncated download is refused, never loaded. `memory.models` in hearth.json adds entries or
 * replaces one of these by name (the tests point an entry at a loopback server).
 */
const sha256 = z.string().regex(/^[0-9a-f]{64}$/, 'must be a SHA-256: 64 lower-case hex digits');

/** A path inside the model folder: relative, no `..`, the names the ONNX embedder looks for. */
const modelFilePath = z
  .string()
  .min(1)
  .max(200)
  .refine(
    (path) => !path.startsWith('/') && !path.split('/').some((part) => part === '..' || part === '' || part === '.'),
    'must be a relative path inside the model folder (no "..")',
  );

export const modelFileSchema = z
  .object({
    path: modelFilePath,
    url: z.string().url(),
    sha256,
    /** Bytes, when known: the progress bar's total before the server says it. */
    size: z.number().int().positive().optional(),
  })
  .strict();

export const catalogueModelSchema = z
  .object({
    name: z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'model name: letters, digits, ".", "_" and "-" (it names a folder)'),
    description: z.string().max(300).default(''),
    /** ISO codes of the languages the model embeds well, or `multilingual`. */
    languages: z.array(z.string().min(1).max(20)).default([]),
    dimension: z.number().int().positive().optional(),
    /** The token budget the model was trained with (passed to the ONNX embedder). */
    maxTokens: z.number().int().min(8).max(8192).optional(),
    pooling: z.enum(['mean', 'cls']).optional(),
    files: z
      .array(modelFileSchema)
      .min(1)
      .refine(
        (files) => files.some((file) => file.path === 'model.onnx' || file.path === 'onnx/model.onnx'),
        'needs a model.onnx (or onnx/model.onnx) file',
      )
      .refine((files) => files.some((file) => file.path === 'tokenizer.json'), 'needs a tokenizer.json file')
      .refine((files) => new Set(files.map((file) => file.path)).size === files.length, 'lists a file twice'),
  })
  .strict();

export type ModelFile = z.output<typeof modelFileSchema>;
export type CatalogueModel = z.output<typeof catalogueModelSchema>;

const HF = 'https://huggingface.co';

/**
 * Quantised (int8) ONNX exports of the sentence-transformers models, from the Xenova mirrors that
 * transformers.js uses: small enough to download on a home connection, and their graphs output
 * `last_hidden_state`, which the embedder mean-pools. Revisions and checksums are pinned here.
 */
export const BUILT_IN_MODELS: readonly CatalogueModel[] = [
  {
    name: 'all-MiniLM-L6-v2',
    description: 'English sentence embeddings, 384 dimensions, 23 MB (int8). Fast; the default choice.',
    languages: ['en'],
    dimension: 384,
    maxTokens: 256,
    pooling: 'mean',
    files: [
      {
        path: 'model.onnx',
        url: `${HF}/Xenova/all-MiniLM-L6-v2/resolve/751bff37182d3f1213fa05d7196b954e230abad9/onnx/model_quantized.onnx`,
        sha256: 'afdb6f1a0e45b715d0bb9b11772f032c399babd23bfc31fed1c170afc848bdb1',
        size: 22_972_370,
      },
      {
        path: 'tokenizer.json',
        url: `${HF}/Xenova/all-MiniLM-L6-v2/resolve/751bff37182d3f1213fa05d7196b954e230abad9/tokenizer.json`,
        sha256: 'da0e79933b9ed51798a3ae27893d3c5fa4a201126cef75586296df9b4d2c62a0',
        size: 711_661,
      },
    ],
  },
  {
    name: 'paraphrase-multilingual-MiniLM-L12-v2',
    description:
      'Multilingual sentence embeddings (50+ languages, Chinese and English in one space), 384 dimensions, 135 MB (int8).',
    languages: ['multilingual', 'en', 'zh'],
    dimension: 384,
    maxTokens: 128,
    pooling: 'mean',
    files: [
      {
        path: 'model.onnx',
        url: `${HF}/Xenova/paraphrase-multilingual-MiniLM-L12-v2/resolve/2c4055b12046f11709e9df2c122e59ffbdc2f900/onnx/model_quantized.onnx`,
        sha256: '66fc00f5f29afcaff34092e1bdd20008ca3918265a82fb9695a551e510cc4ebc',
        size: 118_308_126,
      },
      {
        path: 'tokenizer.json',
        url: `${HF}/Xenova/paraphrase-multilingual-MiniLM-L12-v2/resolve/2c4055b12046f11709e9df2c122e59ffbdc2f900/tokenizer.json`,
        sha256: 'b60b6b43406a48bf3638526314f3d232d97058bc93472ff2de930d43686fa441',
        size: 17_082_913,
      },
    ],
  },
];

export const DEFAULT_MODEL = BUILT_IN_MODELS[0]!.name;

/** The built-in entries, with `memory.models` adding to them or replacing one by name. */
export function modelCatalogue(overrides: readonly CatalogueModel[] = []): CatalogueModel[] {
  const byName = new Map(BUILT_IN_MODELS.map((model) => [model.name, model]));
  for (const model of overrides) byName.set(model.name, model);
  return [...byName.values()];
}

/** The entry for a name, or an error listing the names there are. */
export function findCatalogueModel(catalogue: readonly CatalogueModel[], name: string): CatalogueModel {
  const model = catalogue.find((entry) => entry.name === name);
  if (!model)
    throw new Error(
      `unknown embedding model "${name}" (available: ${catalogue.map((entry) => entry.name).join(', ')})`,
    );
  return model;
}

/** Bytes to fetch in all, when every file says its size. */
export function totalSize(model: CatalogueModel): number | undefined {
  let total = 0;
  for (const file of model.files) {
    if (file.size === undefined) return undefined;
    total += file.size;
  }
  return total;
}
