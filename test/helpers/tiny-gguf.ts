import { writeFileSync } from 'node:fs';

/**
 * Writes a tiny llama-architecture GGUF (v3) with random weights: a byte-level SentencePiece
 * vocabulary (the 256 byte tokens, "▁" and three specials), 2 layers, 64 dimensions, ~0.5 MB of
 * F32 tensors. Real enough for llama.cpp to load, tokenize, evaluate and sample under a grammar;
 * what it writes is noise. One hidden dimension is held constant, and the output row of each token
 * weighs it by that token's preference, so under a JSON grammar the model closes strings, arrays
 * and objects as soon as it may: replies stay a few dozen tokens long, which keeps CPU tests short.
 */
export interface TinyGgufOptions {
  /** The context length the file declares (`llama.context_length`). */
  contextLength?: number;
  /** Seeds the random weights: the same seed writes the same file. */
  seed?: number;
  /** A letter the model prefers inside strings and at choices (the first letter of an action). */
  preferredLetter?: string;
}

const embedding = 64;
const layers = 2;
const heads = 4;
const feedForward = 128;
const alignment = 32;

enum ValueType {
  Uint32 = 4,
  Int32 = 5,
  Float32 = 6,
  Bool = 7,
  String = 8,
  Array = 9,
}

type MetadataValue =
  | { type: ValueType.Uint32 | ValueType.Int32 | ValueType.Float32; value: number }
  | { type: ValueType.Bool; value: boolean }
  | { type: ValueType.String; value: string }
  | { type: ValueType.Array; itemType: ValueType.String; value: string[] }
  | { type: ValueType.Array; itemType: ValueType.Float32 | ValueType.Int32; value: number[] };

interface Tensor {
  name: string;
  /** ggml order: the first dimension varies fastest. */
  dims: number[];
  data: Float32Array;
}

/** The vocabulary: ids 0-2 special, 3-258 the bytes 0x00-0xFF, 259 "▁" (a space in SentencePiece). */
export function tinyVocabulary(): { tokens: string[]; types: number[] } {
  const tokens = ['<unk>', '<s>', '</s>'];
  const types = [2, 3, 3];
  for (let byte = 0; byte < 256; byte++) {
    tokens.push(`<0x${byte.toString(16).toUpperCase().padStart(2, '0')}>`);
    types.push(6);
  }
  tokens.push('\u2581');
  types.push(1);
  return { tokens, types };
}

export function writeTinyGguf(file: string, options: TinyGgufOptions = {}): void {
  writeFileSync(file, buildTinyGguf(options));
}

export function buildTinyGguf(options: TinyGgufOptions = {}): Buffer {
  const { tokens, types } = tinyVocabulary();
  const metadata: Array<[string, MetadataValue]> = [
    ['general.architecture', { type: ValueType.String, value: 'llama' }],
    ['general.name', { type: ValueType.String, value: 'deepsearch-tiny-test' }],
    ['general.alignment', { type: ValueType.Uint32, value: alignment }],
    ['llama.context_length', { type: ValueType.Uint32, value: options.contextLength ?? 16_384 }],
    ['llama.embedding_length', { type: ValueType.Uint32, value: embedding }],
    ['llama.block_count', { type: ValueType.Uint32, value: layers }],
    ['llama.feed_forward_length', { type: ValueType.Uint32, value: feedForward }],
    ['llama.attention.head_count', { type: ValueType.Uint32, value: heads }],
    ['llama.attention.head_count_kv', { type: ValueType.Uint32, value: heads }],
    ['llama.rope.dimension_count', { type: ValueType.Uint32, value: embedding / heads }],
    ['llama.attention.layer_norm_rms_epsilon', { type: ValueType.Float32, value: 1e-5 }],
    ['tokenizer.ggml.model', { type: ValueType.String, value: 'llama' }],
    ['tokenizer.ggml.tokens', { type: ValueType.Array, itemType: ValueType.String, value: tokens }],
    [
      'tokenizer.ggml.scores',
      { type: ValueType.Array, itemType: ValueType.Float32, value: tokens.map(() => 0) },
    ],
    ['tokenizer.ggml.token_type', { type: ValueType.Array, itemType: ValueType.Int32, value: types }],
    ['tokenizer.ggml.unknown_token_id', { type: ValueType.Uint32, value: 0 }],
    ['tokenizer.ggml.bos_token_id', { type: ValueType.Uint32, value: 1 }],
    ['tokenizer.ggml.eos_token_id', { type: ValueType.Uint32, value: 2 }],
    ['tokenizer.ggml.add_bos_token', { type: ValueType.Bool, value: true }],
    ['tokenizer.ggml.add_eos_token', { type: ValueType.Bool, value: false }],
  ];
  const tensors = buildTensors(tokens, options);
  return serialize(metadata, tensors);
}

function buildTensors(tokens: string[], options: TinyGgufOptions): Tensor[] {
  const random = seededRandom(options.seed ?? 7);
  const noise = (count: number, scale: number) =>
    Float32Array.from({ length: count }, () => (random() * 2 - 1) * scale);
  const ones = (count: number) => new Float32Array(count).fill(1);
  const vocabulary = tokens.length;
  const embeddings = noise(embedding * vocabulary, 0.02);
  // Dimension 0 is the same for every token: after the final norm it dominates, so each token's
  // output weight on it (its preference) decides the logits, whatever the context.
  for (let token = 0; token < vocabulary; token++) embeddings[token * embedding] = 1;
  const output = noise(embedding * vocabulary, 0.02);
  for (let token = 0; token < vocabulary; token++) {
    // Scaled so that even the closest preferences (0.2 apart) differ by ~13 logits at temperature
    // 0.6: sampling then picks the preferred token all but once in hundreds of thousands.
    output[token * embedding] = 5 * preference(tokens[token]!, options.preferredLetter ?? 's');
  }
  const result: Tensor[] = [
    { name: 'token_embd.weight', dims: [embedding, vocabulary], data: embeddings },
    { name: 'output_norm.weight', dims: [embedding], data: ones(embedding) },
    { name: 'output.weight', dims: [embedding, vocabulary], data: output },
  ];
  for (let layer = 0; layer < layers; layer++) {
    const block = (name: string, dims: number[], data: Float32Array) =>
      result.push({ name: `blk.${layer}.${name}.weight`, dims, data });
    block('attn_norm', [embedding], ones(embedding));
    block('attn_q', [embedding, embedding], noise(embedding * embedding, 0.02));
    block('attn_k', [embedding, embedding], noise(embedding * embedding, 0.02));
    block('attn_v', [embedding, embedding], noise(embedding * embedding, 0.02));
    block('attn_output', [embedding, embedding], noise(embedding * embedding, 0.02));
    block('ffn_norm', [embedding], ones(embedding));
    block('ffn_gate', [embedding, feedForward], noise(embedding * feedForward, 0.02));
    block('ffn_up', [embedding, feedForward], noise(embedding * feedForward, 0.02));
    block('ffn_down', [feedForward, embedding], noise(feedForward * embedding, 0.02));
  }
  return result;
}

/**
 * How much the model wants a token wherever the grammar allows it: end of text first, then a
 * closing quote, the preferred letter, closing brackets; whitespace least. A string thus holds
 * one letter, an array one item, and an object only its required keys.
 */
function preference(token: string, letter: string): number {
  if (token === '</s>') return 3;
  const byte = /^<0x([0-9A-F]{2})>$/.exec(token);
  if (!byte) return -2;
  const char = String.fromCharCode(Number.parseInt(byte[1]!, 16));
  if (char === '"') return 2.5;
  if (char === '}' || char === ']') return 2;
  if (char === letter) return 2.2;
  if (/\s/.test(char)) return -2;
  if (/[a-z0-9]/.test(char)) return 0.5;
  return 0;
}

/** mulberry32: a small seeded generator, so the same options write the same bytes. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function serialize(metadata: Array<[string, MetadataValue]>, tensors: Tensor[]): Buffer {
  const out = new ByteWriter();
  out.bytes(Buffer.from('GGUF', 'latin1'));
  out.u32(3);
  out.u64(tensors.length);
  out.u64(metadata.length);
  for (const [key, value] of metadata) {
    out.string(key);
    writeValue(out, value);
  }
  let offset = 0;
  const offsets: number[] = [];
  for (const tensor of tensors) {
    out.string(tensor.name);
    out.u32(tensor.dims.length);
    for (const dim of tensor.dims) out.u64(dim);
    out.u32(0); // GGML_TYPE_F32
    out.u64(offset);
    offsets.push(offset);
    offset = alignUp(offset + tensor.data.byteLength);
  }
  out.padTo(alignment);
  const dataStart = out.length;
  for (const [index, tensor] of tensors.entries()) {
    out.padTo(alignment);
    if (out.length - dataStart !== offsets[index]) throw new Error('tensor offset mismatch');
    out.bytes(Buffer.from(tensor.data.buffer, tensor.data.byteOffset, tensor.data.byteLength));
  }
  return out.toBuffer();
}

function writeValue(out: ByteWriter, value: MetadataValue): void {
  out.u32(value.type);
  if ('itemType' in value) {
    out.u32(value.itemType);
    out.u64(value.value.length);
    for (const item of value.value) {
      if (value.itemType === ValueType.String) out.string(item as string);
      else if (value.itemType === ValueType.Float32) out.f32(item as number);
      else out.i32(item as number);
    }
  } else if (value.type === ValueType.Bool) out.bytes(Buffer.from([value.value ? 1 : 0]));
  else if (value.type === ValueType.String) out.string(value.value);
  else if (value.type === ValueType.Float32) out.f32(value.value);
  else if (value.type === ValueType.Int32) out.i32(value.value);
  else out.u32(value.value);
}

const alignUp = (value: number) => Math.ceil(value / alignment) * alignment;

class ByteWriter {
  private readonly chunks: Buffer[] = [];
  length = 0;

  bytes(buffer: Buffer): void {
    this.chunks.push(buffer);
    this.length += buffer.length;
  }
  u32(value: number): void {
    const buffer = Buffer.alloc(4);
    buffer.writeUInt32LE(value);
    this.bytes(buffer);
  }
  i32(value: number): void {
    const buffer = Buffer.alloc(4);
    buffer.writeInt32LE(value);
    this.bytes(buffer);
  }
  f32(value: number): void {
    const buffer = Buffer.alloc(4);
    buffer.writeFloatLE(value);
    this.bytes(buffer);
  }
  u64(value: number): void {
    const buffer = Buffer.alloc(8);
    buffer.writeBigUInt64LE(BigInt(value));
    this.bytes(buffer);
  }
  string(value: string): void {
    const encoded = Buffer.from(value, 'utf8');
    this.u64(encoded.length);
    this.bytes(encoded);
  }
  padTo(boundary: number): void {
    const pad = (boundary - (this.length % boundary)) % boundary;
    if (pad > 0) this.bytes(Buffer.alloc(pad));
  }
  toBuffer(): Buffer {
    return Buffer.concat(this.chunks);
  }
}
