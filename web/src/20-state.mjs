// URL state: the hash holds only non-default keys, versioned (#v=1&model=...). Attribute names
// of <llm-calc> are the same keys.
import { LlmCalc } from './00-namespace.mjs';

const STATE_VERSION = '1';
const DEFAULTS = {
  model: 'llama-3.1-8b',
  weights: 'Q4_K_M',
  kv: 'auto',         // the engine's default: f16, or the cache a vLLM / SGLang checkpoint declares
  ctx: 8192,
  prompt: 512,
  batch: 1,
  engine: 'llama.cpp',
  mtp: 0,     // 1: draft with the model's MTP layers (llama.cpp --spec-type draft-mtp, vLLM method mtp, SGLang EAGLE)
  hw: 'rtx-4090',  // or 'custom': the device cdev describes
  n: 1,
  // Several devices or machines (issue #20): more device groups as id*count@machine, comma
  // separated (machine 0 is the head); or `nodes` copies of the hw x n machine; the network
  // between machines; system RAM; vLLM / SGLang tensor x pipeline x data (0: the engine's
  // layout) and expert parallel; a custom device as GiB:GB/s:FP16 TFLOPS.
  more: '',
  nodes: 1,
  net: '',
  ram: 64,
  ram_bw: 0,
  pcie: 0,      // GB/s between the first GPU and RAM (0: the device's PCIe)
  tp: 0,
  pp: 0,
  dp: 0,
  ep: 0,
  cdev: '',
  cdev_p2p: 0,  // 1: the custom cards read each other over PCIe (peer-to-peer)
  users: 8,   // the Deployment panel: concurrent users
  tps: 20,    // and the decode speed each should get, tokens/s
  // Fine-tuning: optimizer, LoRA rank, micro-batch, sequence length, GPUs, sharding and
  // activation checkpointing (1 on, 0 off), the core's finetune defaults.
  ft_opt: 'adamw',
  ft_rank: 16,
  ft_mb: 1,
  ft_seq: 2048,
  ft_gpus: 1,
  ft_shard: 'none',
  ft_ckpt: 1,
  ngl: 0,     // llama.cpp -ngl; 0 = all layers on the GPU(s)
  cmoe: 0,    // llama.cpp --n-cpu-moe
  kwh_cents: 15,        // electricity, US cents per kWh (the core's default $0.15)
  hours: 8,             // hours of use per day
  tokens_day: 1000000,  // output tokens per day, for the API comparison
  conc: 8,              // sequences served together for the "concurrent" cost figures
  // Speed and memory assumptions; 0 keeps the core's calibrated or engine default.
  bw_eff: 0,        // decode: % of datasheet memory bandwidth reached
  cmp_eff: 0,       // prefill with 16-bit weights: % of dense FP16 compute
  qcmp_eff: 0,      // prefill with quantized weights: % of dense INT8 compute
  attn_eff: 0,      // prefill: a prompt's flash attention, % of dense FP16 compute
  reserve_mib: 0,   // per discrete GPU: driver and context reserve, MiB
  gpu_util: 0,      // vLLM / SGLang: % of GPU memory the engine may take
  llama_build: 0,   // llama.cpp: the build (bNNNNN) whose rules to follow; 0 = the newest modelled
  ovh_us: 0,        // decode: fixed cost per layer and token, microseconds
  comfort_pct: 0,   // verdict: "comfortable" up to this % of usable memory
  uma_pct: 0,       // Macs and other unified-memory machines: % of RAM the engine may use
  lang: '',
  hf: '',       // a Hugging Face repository the model was fetched from (owner/name)
  hf_file: '',  // and the GGUF file in it
};
const ASSUMPTION_KEYS = ['bw_eff', 'cmp_eff', 'qcmp_eff', 'attn_eff', 'ovh_us', 'reserve_mib', 'gpu_util', 'llama_build',
  'uma_pct', 'comfort_pct'];
const INTEGER_KEYS = ['ctx', 'prompt', 'batch', 'n', 'ngl', 'cmoe', 'kwh_cents', 'hours', 'tokens_day', 'conc',
  'nodes', 'ram', 'ram_bw', 'pcie', 'tp', 'pp', 'dp', 'ep', 'cdev_p2p', 'users', 'tps', 'ft_rank', 'ft_mb', 'ft_seq',
  'ft_gpus', 'ft_ckpt', 'mtp']
  .concat(ASSUMPTION_KEYS);
// ctx 0: the engine's own context (no -c, no OLLAMA_CONTEXT_LENGTH, --max-model-len auto).
const ZERO_ALLOWED = ['ctx', 'ngl', 'cmoe', 'kwh_cents', 'ram_bw', 'pcie', 'tp', 'pp', 'dp', 'ep', 'cdev_p2p', 'ft_ckpt', 'mtp']
  .concat(ASSUMPTION_KEYS);
const KEYS = Object.keys(DEFAULTS);
const LOWER_CASE_KEYS = ['model', 'hw', 'kv', 'engine', 'lang', 'net', 'ft_opt', 'ft_shard'];
const GROUP = '[a-z0-9._-]{1,40}\\*\\d{1,4}(@\\d{1,2})?';
// Text keys with their own shape (the rest: up to 80 of [A-Za-z0-9._:-]).
const TEXT_PATTERNS = {
  hf: /^[A-Za-z0-9][A-Za-z0-9._-]{0,95}\/[A-Za-z0-9][A-Za-z0-9._-]{0,95}$/,
  hf_file: /^[A-Za-z0-9._+-]+(\/[A-Za-z0-9._+-]+)*$/,
  more: new RegExp('^' + GROUP + '(,' + GROUP + '){0,15}$'),
  // GiB:GB/s:TFLOPS[:compute capability x 10, e.g. 61 for Pascal GP102/GP104]
  cdev: /^\d{1,6}(\.\d{1,2})?:\d{1,6}(\.\d{1,2})?:\d{1,7}(\.\d{1,2})?(:\d{2,3})?$/,
};

// Coerces one raw value; returns undefined for values that cannot be right.
function coerce(key, raw) {
  if (raw === null || raw === undefined) return undefined;
  if (TEXT_PATTERNS[key]) {
    const value = String(raw);
    if (value === '') return value;
    return value.length <= 256 && TEXT_PATTERNS[key].test(value) && value.split('/').indexOf('..') < 0
      ? value : undefined;
  }
  let text = String(raw).slice(0, 80);
  // Catalog ids, KV types and engines are lower case: a hand-typed "Qwen3-8B" means qwen3-8b.
  if (LOWER_CASE_KEYS.indexOf(key) >= 0) text = text.toLowerCase();
  if (INTEGER_KEYS.indexOf(key) >= 0) {
    if (!/^\d{1,8}$/.test(text)) return undefined;
    const value = parseInt(text, 10);
    return value >= 1 || (ZERO_ALLOWED.indexOf(key) >= 0 && value === 0) ? value : undefined;
  }
  if (!/^[A-Za-z0-9._:-]{0,80}$/.test(text)) return undefined;
  return text;
}

// Parses a location hash. Returns { state, notice, rejected }: notice names what was wrong,
// rejected the keys whose values were refused. A hash without v (typed by hand, #lang=es) is
// read as the current version; another version is not read at all.
function decodeHash(hash) {
  const state = Object.assign({}, DEFAULTS);
  const text = (hash || '').replace(/^#/, '');
  if (!text) return { state: state, notice: null, rejected: [] };
  const params = new URLSearchParams(text);
  if (params.has('v') && params.get('v') !== STATE_VERSION) {
    return { state: state, notice: 'link_version', rejected: [] };
  }
  const rejected = [];
  KEYS.forEach(function (key) {
    if (!params.has(key)) return;
    const value = coerce(key, params.get(key));
    if (value === undefined) {
      rejected.push(key);
    } else {
      state[key] = value;
    }
  });
  return { state: state, notice: rejected.length ? 'link_broken' : null, rejected: rejected };
}

function encodeHash(state) {
  const params = new URLSearchParams();
  params.set('v', STATE_VERSION);
  KEYS.forEach(function (key) {
    if (state[key] !== undefined && state[key] !== DEFAULTS[key] && state[key] !== '') {
      params.set(key, String(state[key]));
    }
  });
  return '#' + params.toString();
}

const percent = (value) => value / 100;

// The assumptions the user set (0 = the core's default), as the core's request keys.
function assumptions(state) {
  const out = {};
  const set = (key, name, convert) => { if (state[key] > 0) out[name] = convert(state[key]); };
  set('bw_eff', 'bandwidth_efficiency', percent);
  set('cmp_eff', 'compute_efficiency', percent);
  set('qcmp_eff', 'quantized_compute_efficiency', percent);
  set('attn_eff', 'attention_compute_efficiency', percent);
  set('ovh_us', 'per_layer_overhead_s', (us) => us / 1e6);
  set('reserve_mib', 'reserved_bytes', (mib) => mib * 1048576);
  set('comfort_pct', 'comfortable_fraction', percent);
  set('uma_pct', 'unified_memory_fraction', percent);
  return out;
}

// The extra device groups of `more`: [{ id, count, node }].
function parseGroups(text) {
  if (!text) return [];
  return text.split(',').map((entry) => {
    const match = /^([a-z0-9._-]+)\*(\d+)(?:@(\d+))?$/.exec(entry);
    return { id: match[1], count: parseInt(match[2], 10), node: match[3] ? parseInt(match[3], 10) : 0 };
  });
}
function formatGroups(groups) {
  return groups.map((g) => g.id + '*' + g.count + (g.node > 0 ? '@' + g.node : '')).join(',');
}

// A device for the core: a catalog id, or the custom device cdev describes (without cdev the
// core names the missing figures).
function deviceOf(state, id) {
  if (id !== 'custom') return id;
  if (!state.cdev) return { name: 'Custom device' };
  const parts = state.cdev.split(':').map(Number);
  const device = { name: 'Custom device', memory_bytes: Math.round(parts[0] * 1073741824),
                   memory_bandwidth_bytes_per_s: parts[1] * 1e9, fp16_flops_per_s: parts[2] * 1e12 };
  if (parts.length > 3) device.cuda_compute_capability = parts[3] / 10;
  if (state.cdev_p2p === 1) device.pcie_peer_to_peer = true;
  return device;
}

// The cdev of a device the core describes (an answer's `hardware`): the figures a custom device
// starts from when it is picked, rounded to the whole numbers its boxes take.
function customDeviceFrom(hardware) {
  const whole = (value) => Math.max(1, Math.round(value));
  const parts = [whole(hardware.memory_bytes / 1073741824), whole(hardware.memory_bandwidth_bytes_per_s / 1e9),
                 whole(hardware.fp16_flops_per_s / 1e12)];
  const pascal = Math.round(hardware.cuda_compute_capability * 10);
  if (pascal === 60 || pascal === 61) parts.push(pascal);
  return parts.join(':');
}

// Devices, machines, network, system RAM and the parallel layout of a state.
function machineRequest(state, request) {
  const extra = parseGroups(state.more);
  if (extra.length) {
    request.hardware = [{ device: deviceOf(state, state.hw), count: state.n, node: 0 }].concat(
      extra.map((g) => ({ device: deviceOf(state, g.id), count: g.count, node: g.node })));
  } else {
    request.hardware = deviceOf(state, state.hw);
    request.devices = state.n;
    if (state.nodes > 1) request.nodes = state.nodes;
  }
  if (state.net) request.network = state.net;
  request.system_memory_bytes = state.ram * 1073741824;
  if (state.ram_bw > 0) request.system_memory_bandwidth_bytes_per_s = state.ram_bw * 1e9;
  if (state.pcie > 0) request.host_link_bytes_per_s = state.pcie * 1e9;
  // A layout partly given: tensor parallel (or else the pipeline) takes the devices left.
  if (state.tp > 0 || state.pp > 0 || state.dp > 0) {
    const total = extra.length ? extra.reduce((sum, g) => sum + g.count, state.n) : state.n * state.nodes;
    const data = state.dp || 1;
    let tensor = state.tp;
    let pipeline = state.pp;
    if (!tensor) tensor = Math.max(1, Math.floor(total / ((pipeline || 1) * data)));
    else if (!pipeline) pipeline = Math.max(1, Math.floor(total / (tensor * data)));
    request.parallel = { tensor: tensor, pipeline: pipeline || 1, data: data, expert: state.ep === 1 };
  }
}

// The core request for a state.
function toRequest(state) {
  const request = {
    model: state.model,
    weights: state.weights,
    kv_cache: state.kv,
    context_tokens: state.ctx,
    prompt_tokens: state.prompt,  // longer than the context: the core says so and cuts it
    batch: state.batch,
    engine: state.engine,
    gpu_layers: state.ngl > 0 ? state.ngl : -1,
    cpu_moe_layers: state.cmoe,
    cost: {
      electricity_usd_per_kwh: state.kwh_cents / 100,
      hours_per_day: state.hours,
      tokens_per_day: state.tokens_day,
      concurrency: state.conc,
    },
    assumptions: assumptions(state),
    finetune: { optimizer: state.ft_opt, lora_rank: state.ft_rank, micro_batch: state.ft_mb, seq_len: state.ft_seq,
                gpus: state.ft_gpus, sharding: state.ft_shard, gradient_checkpointing: state.ft_ckpt === 1 },
  };
  if (state.gpu_util > 0) request.gpu_memory_utilization = percent(state.gpu_util);
  if (state.llama_build > 0) request.llama_cpp_build = state.llama_build;
  if (state.mtp) request.mtp = true;
  machineRequest(state, request);
  return request;
}

// Which state key a core issue path belongs to, to reset it after a broken link.
const PATH_TO_KEY = {
  '/model': 'model', '/weights': 'weights', '/kv_cache': 'kv', '/context_tokens': 'ctx',
  '/prompt_tokens': 'prompt', '/batch': 'batch', '/engine': 'engine', '/hardware': 'hw',
  '/devices': 'n', '/gpu_layers': 'ngl', '/cpu_moe_layers': 'cmoe', '/mtp': 'mtp',
  '/cost/electricity_usd_per_kwh': 'kwh_cents', '/cost/hours_per_day': 'hours',
  '/cost/tokens_per_day': 'tokens_day', '/cost/concurrency': 'conc',
  '/assumptions/bandwidth_efficiency': 'bw_eff', '/assumptions/compute_efficiency': 'cmp_eff',
  '/assumptions/quantized_compute_efficiency': 'qcmp_eff', '/assumptions/reserved_bytes': 'reserve_mib',
  '/assumptions/attention_compute_efficiency': 'attn_eff',
  '/assumptions/per_layer_overhead_s': 'ovh_us', '/assumptions/comfortable_fraction': 'comfort_pct',
  '/assumptions/unified_memory_fraction': 'uma_pct',
  '/gpu_memory_utilization': 'gpu_util', '/llama_cpp_build': 'llama_build',
  '/finetune/optimizer': 'ft_opt', '/finetune/lora_rank': 'ft_rank', '/finetune/micro_batch': 'ft_mb',
  '/finetune/seq_len': 'ft_seq', '/finetune/gpus': 'ft_gpus', '/finetune/sharding': 'ft_shard',
  '/nodes': 'nodes', '/network': 'net', '/parallel': 'tp', '/system_memory_bytes': 'ram',
  '/system_memory_bandwidth_bytes_per_s': 'ram_bw', '/host_link_bytes_per_s': 'pcie',
};
function keyForPath(path) {
  const text = String(path || '');
  return PATH_TO_KEY[text] || PATH_TO_KEY['/' + text.split('/')[1]];
}

LlmCalc.state = {
  DEFAULTS: DEFAULTS,
  KEYS: KEYS,
  ASSUMPTION_KEYS: ASSUMPTION_KEYS,
  coerce: coerce,
  decodeHash: decodeHash,
  encodeHash: encodeHash,
  toRequest: toRequest,
  parseGroups: parseGroups,
  formatGroups: formatGroups,
  customDeviceFrom: customDeviceFrom,
  keyForPath: keyForPath,
};
