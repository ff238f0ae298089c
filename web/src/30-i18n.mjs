// The page's words in English, the other languages' tables as they arrive (web/src/lang-es.mjs),
// and locale-aware number formatting.
import { LlmCalc } from './00-namespace.mjs';

const STRINGS = {
  title: 'LLM inference calculator',
  subtitle: 'Will it fit, how fast, and why — computed from the model\'s own config.json.',
  model: 'Model', search_models: 'Search models', weights: 'Weight format',
  kv: 'KV cache type', ctx: 'Context length (tokens)', prompt: 'Prompt length (tokens)',
  batch: 'Parallel sequences', engine: 'Engine', hw: 'Device', n: 'Device count',
  language: 'Language', copy_link: 'Copy link', copied: 'Link copied',
  verdict: 'Verdict', comfortable: 'Fits comfortably', tight: 'Fits, but tight',
  oom: 'Does not fit', offload: 'Runs with parts in system RAM', expert_layers_in_ram: 'layers with experts in RAM', memory: 'Memory', weights_part: 'Weights', kv_part: 'KV cache',
  overhead_part: 'Runtime buffers', projector_part: 'Vision projector (mmproj)', free_part: 'Free', total: 'Total needed',
  usable: 'Usable on device', headroom: 'Headroom', max_context: 'Largest context that fits',
  native_limit: 'native limit', decode: 'Decode speed', prefill: 'Prefill speed',
  ttft: 'Time to first token', band: 'likely range',
  memory_bound: 'memory-bound', compute_bound: 'compute-bound',
  architecture: 'Architecture', params_total: 'Parameters (total)',
  params_active: 'Parameters (active per token)', layers: 'Layers', hidden: 'Hidden size',
  heads: 'Heads / KV heads / head dim', vocab: 'Vocabulary', attention_kinds: 'Attention',
  bits_per_weight: 'Bits per weight', show_math: 'Show the math', loading: 'Loading…',
  link_version: 'This link is from another version; defaults are shown.',
  link_broken: 'Part of this link was not valid; those settings were reset to defaults.',
  link_broken_keys: 'Part of this link was not valid ({keys}); those settings were reset to defaults.',
  error: 'Cannot estimate', warnings: 'Note', tokens_per_s: 'tok/s', seconds: 's',
  kv_per_token: 'KV bytes per token', breakdown: 'Parameters by part', my_model: 'My model (config.json, .gguf, .safetensors; read in your browser)', commands: 'Launch commands', cost: 'Cost', rank_title: 'What runs on this device', answers_title: 'In short', results_title: 'Results', min_bits: 'Lowest bits per weight', rec_title: 'Recommendations (fits comfortably)', rec_device: 'Cheapest device (launch price)', rec_used: 'Best value used card (2026 used price)', this_context: 'now', price_launch_used: 'Price: launch · used', per_1000_usd: 'per $1,000', rec_unified: 'Unified-memory option', rec_cloud: 'Cheapest cloud offer', rec_multi: 'Cheapest multi-GPU combination', no_compute: 'no compute figure for this device', finetune: 'Fine-tuning memory', ft_full: 'Full fine-tuning', ft_lora: 'LoRA (all linear layers)', ft_qlora: 'QLoRA (NF4 base)', per_gpu: 'per GPU', fits_device: 'fits this device', ft_weights: 'weights', ft_optimizer: 'gradients + optimizer', ft_activations: 'activations', matrix_title: 'Memory by weight format and context', chart_title: 'Memory against context', chart_label: 'Memory needed from 4K to 1M tokens of context, with the usable memory line', devices_title: 'This model on every device', offload_section: 'Offload (llama.cpp)', placement: 'Placement', engine_release: 'models', ngl: 'GPU layers (-ngl; 0 = chosen by --fit)', cmoe: 'Layers with experts in RAM (--n-cpu-moe)', device: 'Device', layers_short: 'layers', system_ram: 'System RAM (offloaded)', rank_button: 'Rank every model for this device', filter: 'Filter by name, family or license', max_context_short: 'Max context', own_per_million: 'Own: $ per 1M output tokens', rent_per_million: 'Rent: $ per 1M output tokens', api_per_million: 'API: $ per 1M output tokens', monthly: 'Monthly: own / rent / API', break_even: 'Buying beats renting after', months: 'months', months_short: 'mo', cost_own: 'own', cost_rent: 'rent', cost_api: 'API', cost_assumptions: 'Cost assumptions', kwh_cents: 'Electricity (US cents per kWh)', hours: 'Hours of use per day', tokens_day: 'Output tokens per day (API comparison)', conc: 'Concurrent sequences (cost figures)', cost_chart_label: 'Cumulative cost over {months} months of owning (purchase plus electricity), renting the cheapest cloud offer and paying the cheapest API', copy: 'Copy', copied_command: 'Command copied',
  machines_section: 'Devices and machines', machines_hint: 'Add cards of other kinds, or other machines (machine 0 runs the server; llama.cpp reaches the others over RPC, vLLM and SGLang over NCCL).',
  add_group: 'Add devices', group: 'Group', machine: 'machine', remove: 'Remove', custom_device: 'Custom device',
  nodes: 'Machines (copies of this one)', ram: 'System RAM (GiB)', ram_bw: 'System RAM bandwidth (GB/s)', pcie: 'GPU to RAM link (GB/s, PCIe)',
  net: 'Network between machines', net_auto: 'auto (InfiniBand NDR for HBM GPUs, else 10 GbE)',
  cdev_mem: 'Memory (GiB)', cdev_bw: 'Memory bandwidth (GB/s)', cdev_tflops: 'FP16 compute (TFLOPS)',
  cdev_arch: 'NVIDIA generation', cdev_arch_new: 'Volta or newer, or not NVIDIA', cdev_arch_61: 'Pascal (GTX 10xx, P40, P102/P104): no CUDA graphs', cdev_arch_60: 'Pascal GP100 (P100): no CUDA graphs, no dp4a',
  cdev_p2p: 'Peer-to-peer over PCIe (workstation and datacenter cards; GeForce cards: no)',
  parallel_section: 'Parallel layout (vLLM, SGLang)', parallel_hint: 'All empty: the engine\'s documented layout. Otherwise tensor × pipeline × data must equal the devices; an empty tensor (or pipeline) box takes the devices left.',
  tp: 'Tensor parallel', pp: 'Pipeline stages', dp: 'Data-parallel replicas (attention)', ep: 'Expert parallel',
  machine_short: 'machine', machines_word: 'machines', run_on: 'On', cannot_run: 'Cannot run this selection',
  ft_settings: 'Fine-tuning settings (bf16)', ft_opt: 'Optimizer', ft_rank: 'LoRA rank', ft_mb: 'Micro-batch',
  ft_seq: 'Sequence length (tokens)', ft_gpus: 'GPUs', ft_shard: 'Sharding (DeepSpeed ZeRO / FSDP)', ft_ckpt: 'Activation checkpointing',
  inputs: 'Settings', math_weights: 'weights', math_kv_cache: 'KV cache', math_compute_buffer: 'compute buffers', math_projector: 'vision projector', math_usable: 'usable',
  copy_embed: 'Copy embed code', copied_embed: 'Embed code copied: paste it where the widget should show these settings',
  save_csv: 'Save CSV', save_svg: 'Save SVG', save_png: 'Save PNG',
  compare_title: 'Compare', compare_hint: 'Pin a configuration, change the settings and pin again: the figures stay side by side.', pin_button: 'Pin this configuration',
  copy_summary: 'Copy summary (Markdown)', copied_summary: 'Summary copied', save_json: 'Save JSON',
  usable_all: 'Usable on all devices', devices_word: 'devices', smallest: 'on the smallest', decode_total: 'Decode, all sequences together',
  sequences_word: 'sequences', one_sequence: 'for one sequence', at_once: 'for {n} at once',
  plan_title: 'Deployment', plan_hint: 'The smallest setup of each device that serves these users at this speed each, with this model, format, context and engine.',
  users: 'Concurrent users', tps: 'Tokens/s per user', plan_button: 'Plan a deployment', plan_current: 'This setup',
  plan_serves: 'serves them', plan_short: 'does not serve them', plan_rent: 'Cheapest to rent', plan_buy: 'Cheapest to buy',
  plan_none: 'No catalog setup of up to 8 machines of 8 devices serves them.', plan_kind: 'Kind',
  plan_one_device: 'one device', plan_one_machine: 'one machine', plan_several_machines: 'several machines',
  plan_rent_col: 'Rent per hour', plan_buy_col: 'Buy (launch price)', layer_split: 'layer split',
  plan_stale: 'The settings changed since the plan: press the button to plan again.',
  stream_title: 'Live preview at this speed', stream_play: 'Play a 256-token answer', stream_stop: 'Stop',
  stream_waiting: 'waiting for the first token',
  stream_sample: 'The model reads your prompt, then writes its answer one token at a time; each token is about four characters of English text, so this line grows at the speed you would see. ',
  speed_chart_title: 'Decode speed against context (dashed: likely range)', speed_chart_label: 'Decode tokens per second per sequence from 4K to 1M tokens of context, with the likely range',
  assumptions: 'Speed and memory assumptions', assumptions_hint: 'Empty boxes use the calibrated value shown; they apply to the selected device.',
  bw_eff: 'Decode: % of memory bandwidth reached', cmp_eff: 'Prefill, 16-bit weights: % of FP16 compute',
  qcmp_eff: 'Prefill, quantized weights: % of INT8 compute (FP16 on ROCm)',
  attn_eff: 'Prefill, flash attention: % of that same peak', reserve_mib: 'Reserved per GPU (driver, context), MiB',
  gpu_util: 'vLLM / SGLang: % of GPU memory used', llama_build: 'llama.cpp: your build (the number after b)',
  ovh_us: 'Decode: fixed cost per layer and token, µs',
  comfort_pct: 'Comfortable up to this % of usable memory', auto: 'auto',
  uma_pct: 'Mac / unified memory: % of RAM usable (default: macOS wired limit)',
  invalid_whole_number: 'Enter a whole number from {min} to {max}.', ctx_exact: 'Exact context (tokens)',
  ctx_auto: `The engine's choice (no -c)`, ctx_auto_short: 'chosen by the engine', mtp: 'Draft with its MTP layers',
  rank_stale: 'The settings changed since the ranking: press the button to rank again.',
  rank_running: 'Ranking every model…',
  advice_title: 'What would run', advice_format: 'Use {format} ({verdict})', advice_context: 'Lower the context to {ctx} tokens',
  advice_devices: 'Use {count} of this device', advice_device: 'Use the cheapest device that fits comfortably: {device} ({price})',
  advice_none: 'Nothing tried here runs it: no format of this engine, no context, no count of this device.',
  my_model_option: 'My model', copied_without_file: 'Link copied; it cannot carry your file, so it opens the menu\'s catalog model.',
  copy_unavailable: 'This browser does not allow copying here; copy it by hand:',
  does_not_run: 'does not run here', no_speed: 'It does not fit, so there is no speed to expect on this setup.',
  hub_model: 'Hugging Face model (read from huggingface.co when you press Fetch)', hub_fetch: 'Fetch',
  hub_placeholder: 'owner/name, hf.co/owner/name:Q4_K_M or a Hub URL', hub_file: 'GGUF file in this repository',
  hub_link: 'This link names a Hugging Face model: press Fetch to read it from huggingface.co.',
  hub_invalid: 'Type a repository id such as Qwen/Qwen3-8B, or its huggingface.co address.',
  hub_offline: 'huggingface.co could not be reached (offline, or blocked on this network). Download config.json or the .gguf yourself and pick it under "My model".',
  hub_refused: 'huggingface.co refused {repo}: it is gated, private or does not exist. For a gated model, accept its terms on the Hub, download config.json and pick it under "My model".',
  hub_no_repo: 'There is no repository {repo} on huggingface.co.',
  hub_no_file: '{file} is missing from {repo}.',
  hub_failed: 'huggingface.co answered with an error for {repo}; try again later, or pick a downloaded config.json under "My model".',
  hub_no_ranges: 'The server sent the whole of {file} instead of its header, so the download was stopped.',
  hub_no_model: '{repo} has neither a config.json nor a .gguf file.',
  hub_bad_config: 'The config.json of {repo} is not a model configuration.',
  hub_bad_index: 'The safetensors index of {repo} is not valid JSON.',
  hub_too_large: '{file} is larger than 16 MiB, too large for a config.',
};

// Sentences with values filled in (values are inserted as text, never as markup).
const SENTENCES = {
  fit: (v) => `${v.model} at ${v.weights} on ${v.device} with ${v.context} tokens of context: ${v.verdict}` +
    (v.host_short ? `, ${v.free} short of system RAM.` : v.short ? `, ${v.free} short.` : `, ${v.free} to spare.`),
  context: (v) => `The largest context that fits is ${v.max} tokens (the model's native window is ${v.native}).`,
  speed: (v) => `Expect about ${v.decode} tokens/s when generating (likely ${v.low}–${v.high}) and ${v.ttft} s before the first token of a ${v.prompt}-token prompt.`,
  speed_no_ttft: (v) => `Expect about ${v.decode} tokens/s when generating (likely ${v.low}–${v.high}); this device has no compute figure for the time to first token.`,
  utilization: (v) => `${v.percent}% of usable memory at the fullest device`,
  stream: (v) => `A ${v.tokens}-token answer at ${v.rate} tokens/s takes about ${v.total} s, first token included.`,
  fit_offload: (v) => `llama.cpp's --fit keeps ${v.gpu} of ${v.all} layers on the GPU` +
    (v.experts > 0 ? `, with the experts of ${v.experts} layers in system RAM` : '') + ` (${v.host} in RAM).`,
  fit_context: (v) => `Without -c, llama.cpp's --fit lowers the context to ${v.context} tokens so that the model fits.`,
  fit_slots: (v) => `Without -c, llama.cpp's --fit gives its ${v.slots} slots one shared cache of ${v.cache} tokens` +
    ` (at most the trained context × ${v.slots}); one request can use up to ${v.context}.`,
  host_parts: (v) => `${v.total} · ${v.layers} layers` + (v.experts > 0 ? ` · experts of ${v.experts} layers` : '') +
    (v.checkpoints ? ` · context checkpoints ${v.checkpoints}` : '') + ` · prompt cache up to ${v.cache}` +
    (v.lazy ? ` · and ${v.lazy} of embedding tables read from disk as needed` : ''),
};

// Spanish is a script of its own (dist/llm-calc-es.js beside llm-calc.js; inline in
// llm-calculator.html), read when a page first shows it: 5 KB gzip a page in English does not
// need (issue #22). Each language's script puts its tables in LlmCalc.languages.
const LANGUAGES = ['en', 'es'];
LlmCalc.languages = LlmCalc.languages || {};
LlmCalc.languages.en = { strings: STRINGS, sentences: SENTENCES };
// Where this script came from, the other languages' scripts sit beside it (none when inline).
const scriptUrl = typeof document !== 'undefined' && document.currentScript ? document.currentScript.src : '';
const loading = {};

// Resolves once `lang`'s tables are here, or its script failed to load (the page then shows
// English words, as for any key a table lacks).
function load(lang) {
  if (LlmCalc.languages[lang] || !scriptUrl || LANGUAGES.indexOf(lang) < 0) return Promise.resolve();
  if (!loading[lang]) {
    loading[lang] = new Promise(function (done) {
      const script = document.createElement('script');
      script.src = new URL('llm-calc-' + lang + '.js', scriptUrl).href;
      script.onload = done;
      script.onerror = function () {
        delete loading[lang];  // a later page build tries again
        done();
      };
      document.head.appendChild(script);
    });
  }
  return loading[lang];
}

function pickLanguage(requested) {
  if (requested && LANGUAGES.indexOf(requested) >= 0) return requested;
  const nav = (typeof navigator !== 'undefined' && navigator.language) || 'en';
  return nav.toLowerCase().indexOf('es') === 0 ? 'es' : 'en';
}

function tables(lang) {
  return LlmCalc.languages[lang] || LlmCalc.languages.en;
}

function translator(lang) {
  const table = tables(lang).strings;
  return function (key) {
    return Object.prototype.hasOwnProperty.call(table, key) ? table[key] : STRINGS[key] || key;
  };
}

// Numbers are written as Intl.NumberFormat writes them for en-US and es-ES with a fixed count of
// fraction digits, without Intl: a page's first Intl object costs Chromium ICU's start, 42 ms at
// 1x on the development VM, on the way to a share link's first figures (issue #22). ICU rounds
// the shortest decimal that reads back as the number (String(value)), half away from zero; groups
// of three integer digits are joined by ',' in English and by '.' in Spanish, where a four-digit
// integer part is not grouped (CLDR's minimum grouping digits for es: 2); the decimal separator is
// '.' or ','; a negative number, negative zero among them, keeps its '-'. tests/js/number_format.
// test.mjs compares 400,000 of its texts with Intl's.
const SEPARATORS = { 'en-US': { group: ',', decimal: '.', minimumGrouping: 1 },
                     'es-ES': { group: '.', decimal: ',', minimumGrouping: 2 } };

// The digits of a non-negative finite `magnitude` rounded to `digits` fraction digits, half away
// from zero: [integer digits, fraction digits].
function roundedDigits(magnitude, digits) {
  const text = String(magnitude);  // e.g. "123.456", "1e+21", "1.5e-7"
  const e = text.indexOf('e');
  const mantissa = e < 0 ? text : text.slice(0, e);
  const point = mantissa.indexOf('.');
  let all = point < 0 ? mantissa : mantissa.slice(0, point) + mantissa.slice(point + 1);
  let integerLength = (point < 0 ? mantissa.length : point) + (e < 0 ? 0 : Number(text.slice(e + 1)));
  if (integerLength < 1) {
    all = '0'.repeat(1 - integerLength) + all;
    integerLength = 1;
  }
  const kept = integerLength + digits;
  if (all.length < kept) all += '0'.repeat(kept - all.length);
  const chars = all.slice(0, kept).split('');
  if (all.length > kept && all.charCodeAt(kept) >= 53) {  // '5' or more: at least half, up
    let i = kept - 1;
    while (i >= 0 && chars[i] === '9') chars[i--] = '0';
    if (i >= 0) {
      chars[i] = String.fromCharCode(chars[i].charCodeAt(0) + 1);
    } else {
      chars.unshift('1');
      ++integerLength;
    }
  }
  const integer = chars.slice(0, integerLength).join('').replace(/^0+(?=\d)/, '');
  return [integer, chars.slice(integerLength).join('')];
}

function formatFixed(value, digits, separators) {
  const [integer, fraction] = roundedDigits(Math.abs(value), digits);
  let grouped = integer;
  if (integer.length >= 3 + separators.minimumGrouping) {
    grouped = '';
    for (let end = integer.length; end > 0; end -= 3) {
      grouped = integer.slice(Math.max(0, end - 3), end) + (grouped ? separators.group + grouped : '');
    }
  }
  const sign = value < 0 || Object.is(value, -0) ? '-' : '';
  return sign + grouped + (digits > 0 ? separators.decimal + fraction : '');
}

// A keystroke formats some sixty numbers, most of them the same as the keystroke before (the
// model's, the device's, the weights'): a text written once is looked up, not written again.
// Negative zero is written each time, since a Map does not tell it from zero.
const formattedTexts = {};
const FORMATTED_TEXTS_KEPT = 4096;

// Number formatting per locale; never prints NaN or Infinity.
function formatter(lang) {
  const locale = lang === 'es' ? 'es-ES' : 'en-US';
  const separators = SEPARATORS[locale];
  function number(value, digits) {
    if (typeof value !== 'number' || !isFinite(value)) return '—';
    if (Object.is(value, -0)) return formatFixed(value, digits, separators);
    const key = locale + ' ' + digits;
    const texts = formattedTexts[key] || (formattedTexts[key] = new Map());
    let text = texts.get(value);
    if (text === undefined) {
      text = formatFixed(value, digits, separators);
      if (texts.size >= FORMATTED_TEXTS_KEPT) texts.clear();
      texts.set(value, text);
    }
    return text;
  }
  return {
    number: number,
    integer: function (value) { return number(value, 0); },
    gib: function (bytes) { return number(bytes / 1073741824, 2) + ' GiB'; },
    gb: function (bytes) { return number(bytes / 1e9, 2) + ' GB'; },
    params: function (count) {
      if (typeof count !== 'number' || !isFinite(count)) return '—';
      if (count >= 1e9) return number(count / 1e9, 2) + ' B';
      return number(count / 1e6, 1) + ' M';
    },
    speed: function (value) { return number(value, value >= 100 ? 0 : 1); },
    seconds: function (value) { return number(value, value >= 10 ? 1 : 2); },
    tokens: function (value) {
      if (value >= 1048576 && value % 1048576 === 0) return number(value / 1048576, 0) + 'M';
      if (value >= 1024 && value % 1024 === 0) return number(value / 1024, 0) + 'K';
      return number(value, 0);
    },
  };
}


function sentence(lang, key, values) {
  return (tables(lang).sentences[key] || SENTENCES[key])(values);
}

LlmCalc.i18n = { load: load, sentence: sentence, pickLanguage: pickLanguage, translator: translator,
                 formatter: formatter };
