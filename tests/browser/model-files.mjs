// Model files for the browser tests, written from the formats' specifications: GGUF v3 headers
// (ggml docs/gguf.md: magic, version, tensor count, metadata count, key/values, tensor infos,
// data aligned to 32 bytes) and safetensors headers (8-byte little-endian length, JSON table).
// A file is { head, size }: the header bytes, then zeros up to `size` (tensor data is never read).

const GGUF_TYPE = { u16: 2, u32: 4, str: 8, u64: 10 };
export const GGML = { F32: { id: 0, block: 1, bytes: 4 }, Q8_0: { id: 8, block: 32, bytes: 34 } };

// Bytes of a tensor of `shape` (ne0 first) in a ggml type: ne0 / block x block bytes x rows.
export function ggmlBytes(type, shape) {
  const rows = shape.slice(1).reduce((product, n) => product * n, 1);
  return (shape[0] / type.block) * type.bytes * rows;
}

// metadata: [[key, 'str' | 'u16' | 'u32' | 'u64', value]]; tensors: [{ name, shape, type }].
export function ggufFile(metadata, tensors) {
  const parts = [];
  const u16 = (v) => { const b = Buffer.alloc(2); b.writeUInt16LE(v); parts.push(b); };
  const u32 = (v) => { const b = Buffer.alloc(4); b.writeUInt32LE(v); parts.push(b); };
  const u64 = (v) => { const b = Buffer.alloc(8); b.writeBigUInt64LE(BigInt(v)); parts.push(b); };
  const str = (s) => { const b = Buffer.from(s, 'utf8'); u64(b.length); parts.push(b); };
  parts.push(Buffer.from('GGUF'));
  u32(3); u64(tensors.length); u64(metadata.length);
  for (const [key, type, value] of metadata) {
    str(key);
    u32(GGUF_TYPE[type]);
    ({ u16, u32, u64, str })[type](value);
  }
  let offset = 0;
  for (const tensor of tensors) {
    str(tensor.name);
    u32(tensor.shape.length);
    tensor.shape.forEach((n) => u64(n));
    u32(tensor.type.id);
    u64(offset);
    offset += Math.ceil(ggmlBytes(tensor.type, tensor.shape) / 32) * 32;
  }
  const header = Buffer.concat(parts);
  const dataStart = Math.ceil(header.length / 32) * 32;
  return { head: Buffer.concat([header, Buffer.alloc(dataStart - header.length)]), size: dataStart + offset };
}

// The whole file as a Buffer (small files only).
export const fileBytes = (file) => Buffer.concat([file.head, Buffer.alloc(file.size - file.head.length)]);

// tensors: [{ name, dtype, shape, bytesPerElement }] laid out back to back.
export function safetensorsFile(tensors) {
  const table = { __metadata__: { format: 'pt' } };
  let offset = 0;
  for (const t of tensors) {
    const bytes = t.shape.reduce((product, n) => product * n, 1) * t.bytesPerElement;
    table[t.name] = { dtype: t.dtype, shape: t.shape, data_offsets: [offset, offset + bytes] };
    offset += bytes;
  }
  const json = Buffer.from(JSON.stringify(table), 'utf8');
  const length = Buffer.alloc(8);
  length.writeBigUInt64LE(BigInt(json.length));
  return { head: Buffer.concat([length, json]), size: 8 + json.length + offset };
}

// Llama 3.2 1B (data/models/llama-3.2-1b.json: hidden 2,048, 16 layers, 32 heads, 8 KV heads of
// 64, MLP 8,192, vocabulary 128,256, tied embeddings) as transformers names its tensors.
export function llama32OneBTensors() {
  const tensors = [{ name: 'model.embed_tokens.weight', shape: [128256, 2048] }];
  for (let i = 0; i < 16; ++i) {
    const p = `model.layers.${i}.`;
    tensors.push({ name: p + 'input_layernorm.weight', shape: [2048] },
      { name: p + 'self_attn.q_proj.weight', shape: [2048, 2048] },
      { name: p + 'self_attn.k_proj.weight', shape: [512, 2048] },
      { name: p + 'self_attn.v_proj.weight', shape: [512, 2048] },
      { name: p + 'self_attn.o_proj.weight', shape: [2048, 2048] },
      { name: p + 'post_attention_layernorm.weight', shape: [2048] },
      { name: p + 'mlp.gate_proj.weight', shape: [8192, 2048] },
      { name: p + 'mlp.up_proj.weight', shape: [8192, 2048] },
      { name: p + 'mlp.down_proj.weight', shape: [2048, 8192] });
  }
  tensors.push({ name: 'model.norm.weight', shape: [2048] });
  return tensors.map((t) => Object.assign(t, { dtype: 'BF16', bytesPerElement: 2 }));
}

// The same model as llama.cpp's convert + llama-quantize Q8_0 write it (GGUF names, ne0 first):
// every matrix Q8_0, norms and the llama3 rope_freqs F32, no output.weight (tied).
export function llama32OneBGgufTensors() {
  const q8 = GGML.Q8_0;
  const f32 = GGML.F32;
  const tensors = [{ name: 'token_embd.weight', shape: [2048, 128256], type: q8 },
    { name: 'rope_freqs.weight', shape: [32], type: f32 }];
  for (let i = 0; i < 16; ++i) {
    const p = `blk.${i}.`;
    tensors.push({ name: p + 'attn_norm.weight', shape: [2048], type: f32 },
      { name: p + 'attn_q.weight', shape: [2048, 2048], type: q8 },
      { name: p + 'attn_k.weight', shape: [2048, 512], type: q8 },
      { name: p + 'attn_v.weight', shape: [2048, 512], type: q8 },
      { name: p + 'attn_output.weight', shape: [2048, 2048], type: q8 },
      { name: p + 'ffn_norm.weight', shape: [2048], type: f32 },
      { name: p + 'ffn_gate.weight', shape: [2048, 8192], type: q8 },
      { name: p + 'ffn_up.weight', shape: [2048, 8192], type: q8 },
      { name: p + 'ffn_down.weight', shape: [8192, 2048], type: q8 });
  }
  tensors.push({ name: 'output_norm.weight', shape: [2048], type: f32 });
  return tensors;
}

// llama.cpp's metadata for that model (the keys the calculator reads).
export function llama32OneBGgufMetadata(name) {
  return [['general.architecture', 'str', 'llama'], ['general.name', 'str', name],
    ['general.file_type', 'u32', 7],  // LLAMA_FTYPE_MOSTLY_Q8_0
    ['llama.block_count', 'u32', 16], ['llama.context_length', 'u32', 131072],
    ['llama.embedding_length', 'u32', 2048], ['llama.feed_forward_length', 'u32', 8192],
    ['llama.attention.head_count', 'u32', 32], ['llama.attention.head_count_kv', 'u32', 8],
    ['llama.attention.key_length', 'u32', 64], ['llama.vocab_size', 'u32', 128256]];
}
