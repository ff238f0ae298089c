// "My model": reads a dropped or picked config.json, .gguf or .safetensors in the browser (only
// the header bytes, with File.slice) and turns it into a custom model for the estimate. Nothing
// leaves the page.
(function (LlmCalc) {
  'use strict';

  const FIRST_SLICE = 16 * 1024 * 1024;
  const MAX_HEADER = 512 * 1024 * 1024;
  const MAX_JSON = 16 * 1024 * 1024;

  function readSlice(file, end) {
    return file.slice(0, end).arrayBuffer().then((buffer) => new Uint8Array(buffer));
  }

  // Resolves to { model, weights, weights_bytes, label, summary } or rejects with an Error whose
  // message is plain text.
  function readModelFile(core, file, progress) {
    const name = file.name.toLowerCase();
    if (name.endsWith('.gguf')) return readGguf(core, file, progress, FIRST_SLICE);
    if (name.endsWith('.safetensors')) return readSafetensors(core, file, progress);
    if (file.size > MAX_JSON) return Promise.reject(new Error('This JSON file is larger than 16 MiB.'));
    return file.text().then((text) => {
      let parsed;
      try {
        parsed = JSON.parse(text);
      } catch (error) {
        throw new Error('The file is not valid JSON.');
      }
      if (parsed && typeof parsed === 'object' && parsed.weight_map) {
        const index = core.readSafetensors(text);
        if (!index.ok) throw new Error(index.issues.map((i) => i.message).join(' '));
        return { summary: 'safetensors index: ' + index.result.total_size_bytes + ' bytes in ' +
                          index.result.shard_count + ' files (add config.json for the architecture)' };
      }
      return { model: parsed, label: file.name, summary: 'config.json: ' + file.name };
    });
  }

  function readGguf(core, file, progress, size) {
    const end = Math.min(file.size, size);
    progress('Reading GGUF header: ' + Math.round(end / 1048576) + ' MiB of ' +
             Math.round(file.size / 1048576) + ' MiB');
    return readSlice(file, end).then((bytes) => {
      const answer = core.readGguf(bytes, file.size);
      if (!answer.ok) throw new Error(answer.issues.map((i) => i.message).join(' '));
      const result = answer.result;
      if (result.status === 'need_more_bytes') {
        if (end >= file.size || end >= MAX_HEADER) throw new Error('The GGUF header is larger than 512 MiB.');
        return readGguf(core, file, progress, Math.max(result.bytes_needed, end * 2));
      }
      return {
        model: result.config,
        weights: result.file_type_name || 'Q4_K_M',
        weights_bytes: result.tensor_data_bytes,
        label: result.name || file.name,
        split_no: result.split ? Number(result.split.no) : 0,
        split_count: result.split ? Number(result.split.count) : 1,
        summary: 'GGUF ' + (result.file_type_name || '') + ': ' + result.tensor_count + ' tensors, ' +
                 result.tensor_data_bytes + ' bytes of tensor data' +
                 (result.split ? ' (split ' + (Number(result.split.no) + 1) + ' of ' + result.split.count + ')' : ''),
      };
    });
  }

  function readSafetensors(core, file, progress) {
    progress('Reading safetensors header');
    return readSlice(file, Math.min(file.size, 8)).then((head) => {
      if (head.length < 8) throw new Error('The file is shorter than a safetensors header.');
      const length = new DataView(head.buffer).getUint32(0, true) + new DataView(head.buffer).getUint32(4, true) * 4294967296;
      if (!(length > 1 && length <= 100 * 1024 * 1024)) throw new Error('The safetensors header length is not plausible.');
      return readSlice(file, Math.min(file.size, 8 + length));
    }).then((bytes) => {
      const answer = core.readSafetensors(bytes);
      if (!answer.ok) throw new Error(answer.issues.map((i) => i.message).join(' '));
      const r = answer.result;
      return { summary: 'safetensors: ' + r.tensor_count + ' tensors, ' + r.params_total +
                        ' parameters, ' + r.tensor_data_bytes + ' bytes (add config.json for the architecture)' };
    });
  }

  // Several .gguf files of one split model (model-00001-of-00003.gguf ...): every header is read
  // and the tensor bytes summed; the architecture comes from the first split.
  function readModelFiles(core, files, progress) {
    const list = Array.prototype.slice.call(files);
    if (list.length === 1) return readModelFile(core, list[0], progress);
    if (!list.every((file) => file.name.toLowerCase().endsWith('.gguf'))) {
      return Promise.reject(new Error('Several files can only be the splits of one GGUF model.'));
    }
    return list.reduce((chain, file) => chain.then((parts) =>
      readGguf(core, file, progress, FIRST_SLICE).then((part) => parts.concat([part]))), Promise.resolve([]))
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

  LlmCalc.readModelFile = readModelFile;
  LlmCalc.readModelFiles = readModelFiles;
})(window.LlmCalc);
