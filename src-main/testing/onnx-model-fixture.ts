import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import protobuf from 'protobufjs';

/**
 * Test support (never shipped): writes a small but real sentence-embedding model folder —
 * `model.onnx` and a BERT WordPiece `tokenizer.json` — laid out like the sentence-transformers
 * exports people download, so the ONNX embedder is exercised end to end by the real runtime.
 *
 * The model is one Gather over a learned-looking embedding table: each token's row is a
 * "concept" direction, so words we declare synonyms (tea / chai) land near each other while
 * sharing no letters. That is a behaviour the hashed n-gram embedder cannot produce, which
 * is how the tests know the model, not a fallback, produced the vectors.
 */

/** The subset of onnx.proto (field numbers from the ONNX spec) a Gather-only model needs. */
const ONNX_SUBSET = `
syntax = "proto2";
package onnx;
message TensorShapeProto {
  message Dimension { oneof value { int64 dim_value = 1; string dim_param = 2; } }
  repeated Dimension dim = 1;
}
message TypeProto {
  message Tensor { optional int32 elem_type = 1; optional TensorShapeProto shape = 2; }
  oneof value { Tensor tensor_type = 1; }
}
message ValueInfoProto { optional string name = 1; optional TypeProto type = 2; }
message TensorProto {
  repeated int64 dims = 1;
  optional int32 data_type = 2;
  optional string name = 8;
  optional bytes raw_data = 9;
}
message NodeProto {
  repeated string input = 1;
  repeated string output = 2;
  optional string name = 3;
  optional string op_type = 4;
}
message GraphProto {
  repeated NodeProto node = 1;
  optional string name = 2;
  repeated TensorProto initializer = 5;
  repeated ValueInfoProto input = 11;
  repeated ValueInfoProto output = 12;
}
message OperatorSetIdProto { optional string domain = 1; optional int64 version = 2; }
message ModelProto {
  optional int64 ir_version = 1;
  optional string producer_name = 2;
  optional GraphProto graph = 7;
  repeated OperatorSetIdProto opset_import = 8;
}
`;

const FLOAT = 1;
const INT64 = 7;
const SPECIAL_TOKENS = ['[PAD]', '[UNK]', '[CLS]', '[SEP]'] as const;

/** Concept directions; words listed together are synonyms for the model. */
const CONCEPTS: readonly (readonly string[])[] = [
  ['tea', 'chai', 'matcha', '茶'],
  ['coffee', 'espresso', 'latte', '咖'],
  ['garden', 'hose', 'lawn', 'tomatoes'],
  ['dentist', 'teeth', 'appointment'],
  ['flight', 'plane', 'airport', 'tokyo'],
];
const FUNCTION_WORDS = ['i', 'my', 'the', 'a', 'every', 'morning', 'drink', 'is', 'at', 'on', 'to', 'and', '.', ','];

export interface OnnxModelFixtureOptions {
  /** Inputs the graph declares (the first feeds the lookup); real BERT exports want all three. */
  inputs?: readonly string[];
  /** Width of the output vectors. */
  dimension?: number;
  /** Shifts every vector: a "different model" with the same vocabulary (for re-embed tests). */
  variant?: number;
}

export interface OnnxModelFixture {
  dir: string;
  dimension: number;
  vocabulary: string[];
}

export async function writeOnnxModelFixture(
  dir: string,
  options: OnnxModelFixtureOptions = {},
): Promise<OnnxModelFixture> {
  const dimension = options.dimension ?? 16;
  if (dimension < CONCEPTS.length + 2) throw new RangeError(`dimension must be ≥ ${CONCEPTS.length + 2}`);
  const vocabulary = [...SPECIAL_TOKENS, ...CONCEPTS.flat(), ...FUNCTION_WORDS];
  const table = new Float32Array(vocabulary.length * dimension);
  const variant = options.variant ?? 0;
  vocabulary.forEach((token, row) => {
    const base = row * dimension;
    const concept = CONCEPTS.findIndex((words) => words.includes(token));
    if (concept >= 0) {
      table[base + concept] = 1;
      // A small per-word offset so synonyms are close, not identical.
      table[base + dimension - 1] = 0.15 * ((row % 3) - 1);
    } else {
      // Special and function words share one weak direction: they carry little meaning.
      table[base + CONCEPTS.length] = 0.2;
    }
    if (variant) table[base + ((row + variant) % dimension)]! += 0.5;
  });

  const root = protobuf.parse(ONNX_SUBSET).root;
  const Model = root.lookupType('onnx.ModelProto');
  const valueInfo = (name: string, elemType: number, dims: (number | string)[]) => ({
    name,
    type: {
      tensorType: {
        elemType,
        shape: { dim: dims.map((d) => (typeof d === 'number' ? { dimValue: d } : { dimParam: d })) },
      },
    },
  });
  const inputs = options.inputs ?? ['input_ids', 'attention_mask', 'token_type_ids'];
  const model = Model.create({
    irVersion: 8,
    producerName: 'hearth-test-fixture',
    opsetImport: [{ domain: '', version: 17 }],
    graph: {
      name: 'tiny-sentence-encoder',
      node: [
        {
          input: ['embeddings', inputs[0] ?? 'input_ids'],
          output: ['last_hidden_state'],
          opType: 'Gather',
          name: 'lookup',
        },
      ],
      initializer: [
        {
          name: 'embeddings',
          dims: [vocabulary.length, dimension],
          dataType: FLOAT,
          rawData: Buffer.from(table.buffer),
        },
      ],
      input: inputs.map((name) => valueInfo(name, INT64, ['batch', 'sequence'])),
      output: [valueInfo('last_hidden_state', FLOAT, ['batch', 'sequence', dimension])],
    },
  });

  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'model.onnx'), Model.encode(model).finish());
  await writeFile(join(dir, 'tokenizer.json'), JSON.stringify(wordPieceTokenizer(vocabulary)));
  await writeFile(join(dir, 'tokenizer_config.json'), JSON.stringify({ model_max_length: 128, do_lower_case: true }));
  return { dir, dimension, vocabulary };
}

/** A BERT-style tokenizer.json, the format Hugging Face tokenizers save. */
function wordPieceTokenizer(vocabulary: string[]) {
  const id = (token: string) => vocabulary.indexOf(token);
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: SPECIAL_TOKENS.map((content) => ({
      id: id(content),
      content,
      single_word: false,
      lstrip: false,
      rstrip: false,
      normalized: false,
      special: true,
    })),
    normalizer: {
      type: 'BertNormalizer',
      clean_text: true,
      handle_chinese_chars: true,
      strip_accents: null,
      lowercase: true,
    },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: { type: 'BertProcessing', sep: ['[SEP]', id('[SEP]')], cls: ['[CLS]', id('[CLS]')] },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: {
      type: 'WordPiece',
      unk_token: '[UNK]',
      continuing_subword_prefix: '##',
      max_input_chars_per_word: 100,
      vocab: Object.fromEntries(vocabulary.map((token, index) => [token, index])),
    },
  };
}
