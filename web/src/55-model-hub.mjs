// Any Hugging Face model by its name: on the user's click, the page asks huggingface.co for the
// repository's file list, then reads config.json, or the chosen GGUF's header with HTTP Range
// requests (the splits' too), or the safetensors index and headers, straight into the browser.
// Nothing is sent but the repository and file names in the URLs; the page's CSP allows no other
// host. Readers of the bytes are in 55-model-file.mjs.
import { LlmCalc } from './00-namespace.mjs';

const HUB = 'https://huggingface.co';
const SPLIT = /-(\d{5})-of-(\d{5})\.gguf$/i;
const FIRST_GGUF_SLICE = 4 * 1024 * 1024;  // most headers (vocabulary included) fit in 4 MiB
const HEADER_READS_AT_ONCE = 4;

// An Error the page translates: key names a string in 30-i18n.js, {repo} and {file} fill it.
function hubError(key, repo, file) {
  const error = new Error(key);
  error.hubKey = key;
  error.repo = repo || '';
  error.file = file || '';
  return error;
}

// What a repository id and a file path may be: the share link's own rules (20-state.mjs).
const validRepo = (repo) => repo !== '' && LlmCalc.state.coerce('hf', repo) === repo;
const validPath = (path) => path !== '' && LlmCalc.state.coerce('hf_file', path) === path;

// What the user typed: owner/name, owner/name:QUANT (llama.cpp's -hf, Ollama's hf.co/...),
// hf.co/owner/name or a Hub URL (/tree/main, /blob/main/<file>, /resolve/main/<file>).
// Returns { repo, file, quant } or null.
function parseRepoRef(text) {
  let rest = String(text || '').trim().replace(/[?#].*$/, '');
  const url = /^https?:\/\//i.test(rest);
  rest = rest.replace(/^https?:\/\//i, '');
  const host = /^(www\.)?(huggingface\.co|hf\.co)\//i;
  if (url && !host.test(rest)) return null;  // an address on another site
  rest = rest.replace(host, '');
  let quant = '';
  const tag = rest.match(/^([^/]+\/[^/:]+):([A-Za-z0-9_.-]{1,40})$/);
  if (tag) {
    rest = tag[1];
    quant = tag[2];
  }
  const parts = rest.split('/').filter((part, i, all) => part !== '' || i < all.length - 1);
  const repo = parts.length < 2 ? '' : parts[0] + '/' + parts[1];
  if (!validRepo(repo)) return null;
  if (parts.length === 2) return { repo: repo, file: '', quant: quant };
  const kind = parts[2];
  if (['tree', 'blob', 'resolve'].indexOf(kind) < 0 || parts[3] !== 'main') return null;
  const file = parts.slice(4).join('/');
  if (kind === 'tree' || file === '') return { repo: repo, file: '', quant: quant };
  return validPath(file) ? { repo: repo, file: file, quant: quant } : null;
}

const encodePath = (path) => path.split('/').map(encodeURIComponent).join('/');
const fileUrl = (repo, path) => HUB + '/' + repo + '/resolve/main/' + encodePath(path);

// fetch with the Hub's answers turned into messages: offline, refused (gated, private or
// missing: the Hub answers 401 to anonymous requests for all three), missing, other.
function hubFetch(url, repo, file, init) {
  return fetch(url, Object.assign({ credentials: 'omit', referrerPolicy: 'no-referrer' }, init))
    .catch(() => { throw hubError('hub_offline', repo, file); })
    .then((response) => {
      if (response.ok) return response;
      if (response.status === 401 || response.status === 403) throw hubError('hub_refused', repo, file);
      if (response.status === 404) throw hubError(file ? 'hub_no_file' : 'hub_no_repo', repo, file);
      throw hubError('hub_failed', repo, file);
    });
}

// The repository's files with their sizes: [{ path, size }].
function listFiles(repo) {
  return hubFetch(HUB + '/api/models/' + repo + '?blobs=true', repo, '')
    .then((response) => response.json())
    .catch((error) => { throw error.hubKey ? error : hubError('hub_failed', repo, ''); })
    .then((info) => {
      const siblings = info && Array.isArray(info.siblings) ? info.siblings : [];
      return siblings
        .filter((s) => s && typeof s.rfilename === 'string' && validPath(s.rfilename))
        .map((s) => ({ path: s.rfilename, size: Number(s.size) || 0 }));
    });
}

// A byte source over one Hub file: the first `end` bytes, fetched in ranges as the reader
// asks for more. A server that ignores Range would send the whole file: refused.
function remoteSource(repo, file) {
  let have = new Uint8Array(0);
  return {
    name: file.path,
    size: file.size,
    read: (wanted) => {
      const end = Math.min(wanted, file.size);
      if (end <= have.length) return Promise.resolve(have.subarray(0, end));
      const start = have.length;
      const controller = new AbortController();
      return hubFetch(fileUrl(repo, file.path), repo, file.path,
                      { headers: { Range: 'bytes=' + start + '-' + (end - 1) }, signal: controller.signal })
        .then((response) => {
          const whole = response.status !== 206;  // 200: the server sent the file from byte 0
          if (whole && file.size > end) {
            controller.abort();
            throw hubError('hub_no_ranges', repo, file.path);
          }
          return response.arrayBuffer().then((buffer) =>
            (whole ? new Uint8Array(buffer).subarray(start, end) : new Uint8Array(buffer).subarray(0, end - start)));
        })
        .then((bytes) => {
          const joined = new Uint8Array(start + bytes.length);
          joined.set(have, 0);
          joined.set(bytes, start);
          have = joined;
          return have;
        });
    },
  };
}

// GGUF choices: one per model file, the splits of one model together, vision projectors left
// out. [{ label, files: [{ path, size }], size }], sorted by name.
function ggufChoices(files) {
  const groups = new Map();
  files.forEach((file) => {
    const name = file.path.split('/').pop();
    if (!/\.gguf$/i.test(name) || /mmproj/i.test(name)) return;
    const split = name.match(SPLIT);
    const key = split ? file.path.replace(SPLIT, '') + '/' + split[2] : file.path;
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(file);
  });
  return Array.from(groups.values()).map((group) => {
    group.sort((a, b) => a.path.localeCompare(b.path));
    return { label: group[0].path, files: group, size: group.reduce((sum, f) => sum + f.size, 0) };
  }).sort((a, b) => a.label.localeCompare(b.label));
}

// The choice for a wanted file, else one whose name carries the wanted quantization (the
// link's :QUANT, then the page's weight format), else the first.
function pickChoice(choices, file, quants) {
  const byFile = choices.find((c) => c.files.some((f) => f.path === file));
  if (byFile) return byFile;
  for (const quant of quants) {
    if (!quant) continue;
    const pattern = new RegExp('(^|[^A-Za-z0-9])' + quant.replace(/[^A-Za-z0-9_-]/g, '') + '([^A-Za-z0-9]|$)', 'i');
    const match = choices.find((c) => pattern.test(c.label.split('/').pop()));
    if (match) return match;
  }
  return choices[0];
}

function readText(repo, file) {
  if (file.size > LlmCalc.modelReaders.MAX_JSON) return Promise.reject(hubError('hub_too_large', repo, file.path));
  return hubFetch(fileUrl(repo, file.path), repo, file.path).then((response) => response.text());
}

// Safetensors: the index's shard list (or the one model.safetensors), every shard's header
// read a few at a time; resolves to { params, bytes, shards }.
function readSafetensorsRepo(core, repo, files, progress) {
  const byPath = new Map(files.map((f) => [f.path, f]));
  const index = byPath.get('model.safetensors.index.json');
  const shardPaths = index
    ? readText(repo, index).then((text) => {
      let parsed;
      try {
        parsed = JSON.parse(text);
      } catch (error) {
        throw hubError('hub_bad_index', repo, index.path);
      }
      const map = parsed && parsed.weight_map && typeof parsed.weight_map === 'object' ? parsed.weight_map : {};
      return Array.from(new Set(Object.keys(map).map((k) => String(map[k]))));
    })
    : Promise.resolve(byPath.has('model.safetensors') ? ['model.safetensors'] : []);
  return shardPaths.then((paths) => {
    const shards = paths.map((p) => byPath.get(p)).filter(Boolean);
    if (!shards.length) return null;
    const totals = { params: 0, bytes: 0, shards: shards.length };
    let next = 0;
    let done = 0;
    const worker = () => {
      if (next >= shards.length) return Promise.resolve();
      const shard = shards[next++];
      return LlmCalc.modelReaders.readSafetensorsHeader(core, remoteSource(repo, shard)).then((header) => {
        totals.params += header.params_total;
        totals.bytes += header.tensor_data_bytes;
        progress('Reading safetensors headers: ' + (++done) + ' of ' + shards.length);
        return worker();
      });
    };
    const workers = [];
    for (let i = 0; i < Math.min(HEADER_READS_AT_ONCE, shards.length); ++i) workers.push(worker());
    return Promise.all(workers).then(() => totals);
  });
}

// config.json's text with hf_quant_config.json as its quantization_config unless it has one (the
// core reads only an object there); config.json as it is when either file is not JSON.
function withQuantizationConfig(configText, quantText) {
  try {
    const config = JSON.parse(configText);
    if (config && !config.quantization_config) config.quantization_config = JSON.parse(quantText);
    return JSON.stringify(config);
  } catch (error) {
    return configText;
  }
}

// Reads one repository. `wanted` = { file, quants }. Resolves to { custom, repo, file, choices }
// where custom is what "My model" gives (model, weights, weights_bytes, label, summary) and
// choices the repository's GGUF models (empty for a checkpoint repository).
function loadRepo(core, repo, wanted, progress) {
  progress('Listing ' + repo + ' on huggingface.co');
  return listFiles(repo).then((files) => {
    const choices = ggufChoices(files);
    if (choices.length) {
      const choice = pickChoice(choices, wanted.file, wanted.quants);
      const sources = choice.files.map((file) => remoteSource(repo, file));
      return LlmCalc.modelReaders.readGgufSplits(core, sources, progress, FIRST_GGUF_SLICE).then((custom) => ({
        custom: Object.assign({}, custom, { label: repo + ' · ' + choice.label }),
        repo: repo,
        file: choice.files[0].path,
        choices: choices,
      }));
    }
    // Mistral's own repositories describe the model in params.json (the core reads both).
    const config = files.find((f) => f.path === 'config.json') || files.find((f) => f.path === 'params.json');
    if (!config) throw hubError('hub_no_model', repo, '');
    progress('Reading ' + config.path + ' of ' + repo);
    // NVIDIA's ModelOpt checkpoints keep their quantization in hf_quant_config.json; vLLM reads it
    // as the config's quantization_config when config.json has none (transformers_utils/config.py
    // get_config), and so does the page.
    const quantFile = files.find((f) => f.path === 'hf_quant_config.json');
    return Promise.all([readText(repo, config), quantFile ? readText(repo, quantFile) : null]).then(([text, quantText]) => {
      if (quantText) text = withQuantizationConfig(text, quantText);
      const custom = LlmCalc.modelReaders.readJson(core, text, repo);
      if (!custom.model) throw hubError('hub_bad_config', repo, config.path);
      return readSafetensorsRepo(core, repo, files, progress).then((stored) => ({
        custom: Object.assign(custom, {
          label: repo,
          summary: config.path + ' of ' + repo + (stored
            ? '; safetensors: ' + stored.params + ' parameters, ' + stored.bytes + ' bytes in ' + stored.shards + ' files'
            : ''),
        }),
        repo: repo,
        file: '',
        choices: [],
      }));
    });
  });
}

LlmCalc.hub = { parseRepoRef: parseRepoRef, loadRepo: loadRepo };
