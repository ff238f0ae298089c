// "My model": reads a config.json, .gguf or .safetensors in the browser (only the header bytes)
// and turns it into a custom model for the estimate. The bytes come from a byte source: a
// dropped file (File.slice) here, a Hugging Face repository (HTTP Range) in 55-model-hub.mjs.
// A source is { name, size, read(end) }, read resolving to the first `end` bytes.
import { LlmCalc } from './00-namespace.mjs';

const FIRST_SLICE = 16 * 1024 * 1024;
const MAX_HEADER = 512 * 1024 * 1024;
const MAX_JSON = 16 * 1024 * 1024;
const MAX_SAFETENSORS_HEADER = 100 * 1024 * 1024;

function fileSource(file) {
  return {
    name: file.name,
    size: file.size,
    read: (end) => file.slice(0, end).arrayBuffer().then((buffer) => new Uint8Array(buffer)),
  };
}

const issuesText = (answer) => answer.issues.map((i) => i.message).join(' ');
const mib = (bytes) => Math.round(bytes / 1048576);

// Resolves to { model, weights, weights_bytes, label, split_no, split_count, summary }; the
// header is read in growing slices from `size` bytes until the core has all of it.
function readGguf(core, source, progress, size) {
  const end = Math.min(source.size, size || FIRST_SLICE);
  progress('Reading GGUF header: ' + mib(end) + ' MiB of ' + mib(source.size) + ' MiB');
  return source.read(end).then((bytes) => {
    const answer = core.readGguf(bytes, source.size);
    if (!answer.ok) throw new Error(issuesText(answer));
    const result = answer.result;
    if (result.status === 'need_more_bytes') {
      if (end >= source.size || end >= MAX_HEADER) throw new Error('The GGUF header is larger than 512 MiB.');
      return readGguf(core, source, progress, Math.max(result.bytes_needed, end * 2));
    }
    return {
      model: result.config,
      weights: result.file_type_name || 'Q4_K_M',
      weights_bytes: result.tensor_data_bytes,
      // The file's MTP (nextn) layers load only with MTP drafting.
      weights_include_mtp: Number((result.metadata || {})[result.architecture + '.nextn_predict_layers'] || 0) > 0,
      label: result.name || source.name,
      split_no: result.split ? Number(result.split.no) : 0,
      split_count: result.split ? Number(result.split.count) : 1,
      summary: 'GGUF ' + (result.file_type_name || '') + ': ' + result.tensor_count + ' tensors, ' +
               result.tensor_data_bytes + ' bytes of tensor data' +
               (result.split ? ' (split ' + (Number(result.split.no) + 1) + ' of ' + result.split.count + ')' : ''),
    };
  });
}

// The splits of one GGUF model (model-00001-of-00003.gguf ...): every header is read and the
// tensor bytes summed; the architecture comes from the first split.
function readGgufSplits(core, sources, progress, firstSlice) {
  if (sources.length === 1) return readGguf(core, sources[0], progress, firstSlice);
  return sources.reduce((chain, source) => chain.then((parts) =>
    readGguf(core, source, progress, firstSlice).then((part) => parts.concat([part]))), Promise.resolve([]))
    .then((parts) => {
      const first = parts.find((part) => part.split_no === 0) || parts[0];
      const total = parts.reduce((sum, part) => sum + part.weights_bytes, 0);
      const expected = first.split_count > 1 ? first.split_count : parts.length;
      if (parts.length !== expected) {
        throw new Error('This model has ' + expected + ' splits; ' + parts.length + ' were given.');
      }
      return Object.assign({}, first, {
        weights_bytes: total,
        summary: 'GGUF ' + (first.weights || '') + ': ' + parts.length + ' splits, ' + total + ' bytes of tensor data',
      });
    });
}

// One safetensors file's header: resolves to the core's reading (tensor_count, params_total,
// tensor_data_bytes, ...).
function readSafetensorsHeader(core, source) {
  return source.read(Math.min(source.size, 8)).then((head) => {
    if (head.length < 8) throw new Error('The file is shorter than a safetensors header.');
    const view = new DataView(head.buffer, head.byteOffset, 8);
    const length = view.getUint32(0, true) + view.getUint32(4, true) * 4294967296;
    if (!(length > 1 && length <= MAX_SAFETENSORS_HEADER)) throw new Error('The safetensors header length is not plausible.');
    return source.read(Math.min(source.size, 8 + length));
  }).then((bytes) => {
    const answer = core.readSafetensors(bytes);
    if (!answer.ok) throw new Error(issuesText(answer));
    return answer.result;
  });
}

// config.json or a safetensors index, from its text.
function readJson(core, text, name) {
  let parsed;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new Error('The file is not valid JSON.');
  }
  if (parsed && typeof parsed === 'object' && parsed.weight_map) {
    const index = core.readSafetensors(text);
    if (!index.ok) throw new Error(issuesText(index));
    return { summary: 'safetensors index: ' + index.result.total_size_bytes + ' bytes in ' +
                      index.result.shard_count + ' files (add config.json for the architecture)' };
  }
  const custom = { model: parsed, label: name, summary: 'config.json: ' + name };
  // A quantized checkpoint's config names its format (quantization_config): the core reads it
  // (scenario.checkpoint_format) and the weights menu follows.
  if (parsed && parsed.quantization_config) {
    const answer = core.estimateEnvelope({ model: parsed, engine: 'vllm', omit: ['commands', 'cost', 'finetune'] });
    if (answer.ok && answer.result.scenario.checkpoint_format) custom.weights = answer.result.scenario.checkpoint_format;
  }
  return custom;
}

const isGguf = (name) => name.toLowerCase().endsWith('.gguf');

function readModelFile(core, file, progress) {
  const name = file.name.toLowerCase();
  if (isGguf(name)) return readGguf(core, fileSource(file), progress);
  if (name.endsWith('.safetensors')) {
    progress('Reading safetensors header');
    return readSafetensorsHeader(core, fileSource(file)).then((r) => ({
      summary: 'safetensors: ' + r.tensor_count + ' tensors, ' + r.params_total + ' parameters, ' +
               r.tensor_data_bytes + ' bytes (add config.json for the architecture)',
    }));
  }
  if (file.size > MAX_JSON) return Promise.reject(new Error('This JSON file is larger than 16 MiB.'));
  return file.text().then((text) => readJson(core, text, file.name));
}

// Dropped or picked files: one file, or several GGUF splits of one model.
function readModelFiles(core, files, progress) {
  const list = Array.prototype.slice.call(files);
  if (list.length === 1) return readModelFile(core, list[0], progress);
  if (!list.every((file) => isGguf(file.name))) {
    return Promise.reject(new Error('Several files can only be the splits of one GGUF model.'));
  }
  return readGgufSplits(core, list.map(fileSource), progress);
}

LlmCalc.readModelFiles = readModelFiles;
LlmCalc.modelReaders = {
  readGgufSplits: readGgufSplits,
  readSafetensorsHeader: readSafetensorsHeader,
  readJson: readJson,
  MAX_JSON: MAX_JSON,
};
