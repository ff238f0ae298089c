// English and Spanish strings, and locale-aware number formatting.
import { LlmCalc } from './00-namespace.mjs';

const STRINGS = {
  en: {
    title: 'LLM inference calculator',
    subtitle: 'Will it fit, how fast, and why — computed from the model\'s own config.json.',
    model: 'Model', search_models: 'Search models', weights: 'Weight format',
    kv: 'KV cache type', ctx: 'Context length (tokens)', prompt: 'Prompt length (tokens)',
    batch: 'Parallel sequences', engine: 'Engine', hw: 'Device', n: 'Device count',
    language: 'Language', copy_link: 'Copy link', copied: 'Link copied',
    verdict: 'Verdict', comfortable: 'Fits comfortably', tight: 'Fits, but tight',
    oom: 'Does not fit', offload: 'Runs with parts in system RAM', expert_layers_in_ram: 'layers with experts in RAM', memory: 'Memory', weights_part: 'Weights', kv_part: 'KV cache',
    overhead_part: 'Runtime buffers', free_part: 'Free', total: 'Total needed',
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
    kv_per_token: 'KV bytes per token', breakdown: 'Parameters by part', my_model: 'My model (config.json, .gguf, .safetensors; read in your browser)', commands: 'Launch commands', cost: 'Cost', rank_title: 'What runs on this device', answers_title: 'In short', min_bits: 'Lowest bits per weight', rec_title: 'Recommendations (fits comfortably)', rec_device: 'Cheapest device (launch price)', rec_used: 'Best value used card (2026 used price)', this_context: 'now', price_launch_used: 'Price: launch · used', per_1000_usd: 'per $1,000', rec_unified: 'Unified-memory option', rec_cloud: 'Cheapest cloud offer', rec_multi: 'Cheapest multi-GPU combination', no_compute: 'no compute figure for this device', finetune: 'Fine-tuning memory', ft_full: 'Full fine-tuning', ft_lora: 'LoRA (all linear layers)', ft_qlora: 'QLoRA (NF4 base)', per_gpu: 'per GPU', fits_device: 'fits this device', ft_weights: 'weights', ft_optimizer: 'gradients + optimizer', ft_activations: 'activations', matrix_title: 'Memory by weight format and context', chart_title: 'Memory against context', chart_label: 'Memory needed from 4K to 1M tokens of context, with the usable memory line', devices_title: 'This model on every device', offload_section: 'Offload (llama.cpp)', placement: 'Placement', engine_release: 'models', ngl: 'GPU layers (-ngl; 0 = chosen by --fit)', cmoe: 'Layers with experts in RAM (--n-cpu-moe)', device: 'Device', layers_short: 'layers', system_ram: 'System RAM (offloaded)', rank_button: 'Rank every model for this device', filter: 'Filter by name, family or license', max_context_short: 'Max context', own_per_million: 'Own: $ per 1M output tokens', rent_per_million: 'Rent: $ per 1M output tokens', api_per_million: 'API: $ per 1M output tokens', monthly: 'Monthly: own / rent / API', break_even: 'Buying beats renting after', months: 'months', months_short: 'mo', cost_own: 'own', cost_rent: 'rent', cost_api: 'API', cost_assumptions: 'Cost assumptions', kwh_cents: 'Electricity (US cents per kWh)', hours: 'Hours of use per day', tokens_day: 'Output tokens per day (API comparison)', conc: 'Concurrent sequences (cost figures)', cost_chart_label: 'Cumulative cost over {months} months of owning (purchase plus electricity), renting the cheapest cloud offer and paying the cheapest API', copy: 'Copy', copied_command: 'Command copied',
    machines_section: 'Devices and machines', machines_hint: 'Add cards of other kinds, or other machines (machine 0 runs the server; llama.cpp reaches the others over RPC, vLLM and SGLang over NCCL).',
    add_group: 'Add devices', group: 'Group', machine: 'machine', remove: 'Remove', custom_device: 'Custom device',
    nodes: 'Machines (copies of this one)', ram: 'System RAM (GiB)', ram_bw: 'System RAM bandwidth (GB/s)',
    net: 'Network between machines', net_auto: 'auto (InfiniBand NDR for HBM GPUs, else 10 GbE)',
    cdev_mem: 'Memory (GiB)', cdev_bw: 'Memory bandwidth (GB/s)', cdev_tflops: 'FP16 compute (TFLOPS)',
    cdev_arch: 'NVIDIA generation', cdev_arch_new: 'Volta or newer, or not NVIDIA', cdev_arch_61: 'Pascal (GTX 10xx, P40, P102/P104): no CUDA graphs', cdev_arch_60: 'Pascal GP100 (P100): no CUDA graphs, no dp4a',
    cdev_p2p: 'Peer-to-peer over PCIe (workstation and datacenter cards; GeForce cards: no)',
    parallel_section: 'Parallel layout (vLLM, SGLang)', parallel_hint: 'All empty: the engine\'s documented layout. Otherwise tensor × pipeline × data must equal the devices; an empty tensor (or pipeline) box takes the devices left.',
    tp: 'Tensor parallel', pp: 'Pipeline stages', dp: 'Data-parallel replicas (attention)', ep: 'Expert parallel',
    machine_short: 'machine', machines_word: 'machines', run_on: 'On', cannot_run: 'Cannot run this selection',
    ft_settings: 'Fine-tuning settings (bf16)', ft_opt: 'Optimizer', ft_rank: 'LoRA rank', ft_mb: 'Micro-batch',
    ft_seq: 'Sequence length (tokens)', ft_gpus: 'GPUs', ft_shard: 'Sharding (DeepSpeed ZeRO / FSDP)', ft_ckpt: 'Activation checkpointing',
    inputs: 'Settings', math_weights: 'weights', math_kv_cache: 'KV cache', math_compute_buffer: 'compute buffers', math_usable: 'usable',
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
    qcmp_eff: 'Prefill, quantized weights: % of INT8 compute', reserve_mib: 'Reserved per GPU (driver, context), MiB',
    gpu_util: 'vLLM / SGLang: % of GPU memory used', ovh_us: 'Decode: fixed cost per layer and token, µs',
    comfort_pct: 'Comfortable up to this % of usable memory', auto: 'auto',
    uma_pct: 'Mac / unified memory: % of RAM usable (default: macOS wired limit)',
    invalid_whole_number: 'Enter a whole number from {min} to {max}.', ctx_exact: 'Exact context (tokens)',
    rank_stale: 'The settings changed since the ranking: press the button to rank again.',
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
  },
  es: {
    title: 'Calculadora de inferencia de LLM',
    subtitle: '¿Cabe, a qué velocidad y por qué? Calculado a partir del propio config.json del modelo.',
    model: 'Modelo', search_models: 'Buscar modelos', weights: 'Formato de pesos',
    kv: 'Tipo de caché KV', ctx: 'Longitud de contexto (tokens)', prompt: 'Longitud del prompt (tokens)',
    batch: 'Secuencias en paralelo', engine: 'Motor', hw: 'Dispositivo', n: 'Número de dispositivos',
    language: 'Idioma', copy_link: 'Copiar enlace', copied: 'Enlace copiado',
    verdict: 'Veredicto', comfortable: 'Cabe con holgura', tight: 'Cabe, pero justo',
    oom: 'No cabe', offload: 'Funciona con partes en la RAM del sistema', expert_layers_in_ram: 'capas con expertos en RAM', memory: 'Memoria', weights_part: 'Pesos', kv_part: 'Caché KV',
    overhead_part: 'Búferes de ejecución', free_part: 'Libre', total: 'Total necesario',
    usable: 'Utilizable en el dispositivo', headroom: 'Margen', max_context: 'Mayor contexto que cabe',
    native_limit: 'límite nativo', decode: 'Velocidad de generación', prefill: 'Velocidad de prefill',
    ttft: 'Tiempo hasta el primer token', band: 'rango probable',
    memory_bound: 'limitado por memoria', compute_bound: 'limitado por cómputo',
    architecture: 'Arquitectura', params_total: 'Parámetros (total)',
    params_active: 'Parámetros (activos por token)', layers: 'Capas', hidden: 'Tamaño oculto',
    heads: 'Cabezas / cabezas KV / dim. de cabeza', vocab: 'Vocabulario', attention_kinds: 'Atención',
    bits_per_weight: 'Bits por peso', show_math: 'Ver las cuentas', loading: 'Cargando…',
    link_version: 'Este enlace es de otra versión; se muestran los valores por defecto.',
    link_broken: 'Parte de este enlace no era válida; esos ajustes volvieron a sus valores por defecto.',
    link_broken_keys: 'Parte de este enlace no era válida ({keys}); esos ajustes volvieron a sus valores por defecto.',
    error: 'No se puede estimar', warnings: 'Nota', tokens_per_s: 'tok/s', seconds: 's',
    kv_per_token: 'Bytes de KV por token', breakdown: 'Parámetros por parte', my_model: 'Mi modelo (config.json, .gguf, .safetensors; se lee en tu navegador)', commands: 'Comandos de arranque', cost: 'Coste', rank_title: 'Qué funciona en este dispositivo', answers_title: 'En resumen', min_bits: 'Bits por peso mínimos', rec_title: 'Recomendaciones (cabe con holgura)', rec_device: 'Dispositivo más barato (precio de lanzamiento)', rec_used: 'Mejor tarjeta usada por su precio (precio de segunda mano 2026)', this_context: 'ahora', price_launch_used: 'Precio: lanzamiento · usado', per_1000_usd: 'por cada 1.000 $', rec_unified: 'Opción de memoria unificada', rec_cloud: 'Oferta en la nube más barata', rec_multi: 'Combinación multi-GPU más barata', no_compute: 'sin cifra de cómputo para este dispositivo', finetune: 'Memoria de ajuste fino', ft_full: 'Ajuste completo', ft_lora: 'LoRA (todas las capas lineales)', ft_qlora: 'QLoRA (base NF4)', per_gpu: 'por GPU', fits_device: 'cabe en este dispositivo', ft_weights: 'pesos', ft_optimizer: 'gradientes + optimizador', ft_activations: 'activaciones', matrix_title: 'Memoria por formato y contexto', chart_title: 'Memoria según el contexto', chart_label: 'Memoria necesaria de 4K a 1M tokens de contexto, con la línea de memoria utilizable', devices_title: 'Este modelo en cada dispositivo', offload_section: 'Capas en la RAM del sistema (llama.cpp)', placement: 'Ubicación', engine_release: 'modela', ngl: 'Capas en la GPU (-ngl; 0 = las elige --fit)', cmoe: 'Capas con expertos en RAM (--n-cpu-moe)', device: 'Dispositivo', layers_short: 'capas', system_ram: 'RAM del sistema (lo que no cabe en la GPU)', rank_button: 'Clasificar todos los modelos para este dispositivo', filter: 'Filtrar por nombre, familia o licencia', max_context_short: 'Contexto máximo', own_per_million: 'Propio: $ por 1M tokens de salida', rent_per_million: 'Alquiler: $ por 1M tokens de salida', api_per_million: 'API: $ por 1M tokens de salida', monthly: 'Mensual: propio / alquiler / API', break_even: 'Comprar sale mejor que alquilar tras', months: 'meses', months_short: 'm', cost_own: 'propio', cost_rent: 'alquiler', cost_api: 'API', cost_assumptions: 'Supuestos de coste', kwh_cents: 'Electricidad (centavos de dólar por kWh)', hours: 'Horas de uso al día', tokens_day: 'Tokens de salida al día (comparación con API)', conc: 'Secuencias simultáneas (cifras de coste)', cost_chart_label: 'Coste acumulado en {months} meses de comprar (precio más electricidad), alquilar la oferta en la nube más barata y pagar la API más barata', copy: 'Copiar', copied_command: 'Comando copiado',
    machines_section: 'Dispositivos y máquinas', machines_hint: 'Añade tarjetas de otro tipo u otras máquinas (la máquina 0 ejecuta el servidor; llama.cpp llega a las demás por RPC, vLLM y SGLang por NCCL).',
    add_group: 'Añadir dispositivos', group: 'Grupo', machine: 'máquina', remove: 'Quitar', custom_device: 'Dispositivo personalizado',
    nodes: 'Máquinas (copias de esta)', ram: 'RAM del sistema (GiB)', ram_bw: 'Ancho de banda de la RAM (GB/s)',
    net: 'Red entre máquinas', net_auto: 'auto (InfiniBand NDR para GPU con HBM, si no 10 GbE)',
    cdev_mem: 'Memoria (GiB)', cdev_bw: 'Ancho de banda de memoria (GB/s)', cdev_tflops: 'Cómputo FP16 (TFLOPS)',
    cdev_arch: 'Generación NVIDIA', cdev_arch_new: 'Volta o posterior, o no NVIDIA', cdev_arch_61: 'Pascal (GTX 10xx, P40, P102/P104): sin grafos CUDA', cdev_arch_60: 'Pascal GP100 (P100): sin grafos CUDA ni dp4a',
    cdev_p2p: 'Peer-to-peer por PCIe (tarjetas de estación de trabajo y de centro de datos; GeForce: no)',
    parallel_section: 'Reparto en paralelo (vLLM, SGLang)', parallel_hint: 'Todo vacío: el reparto que documenta el motor. Si no, tensor × etapas × réplicas debe ser igual a los dispositivos; una casilla de tensor (o de etapas) vacía toma los dispositivos que quedan.',
    tp: 'Paralelismo de tensor', pp: 'Etapas de pipeline', dp: 'Réplicas de datos (atención)', ep: 'Paralelismo de expertos',
    machine_short: 'máquina', machines_word: 'máquinas', run_on: 'En', cannot_run: 'No puede ejecutar esta selección',
    ft_settings: 'Ajustes del ajuste fino (bf16)', ft_opt: 'Optimizador', ft_rank: 'Rango LoRA', ft_mb: 'Micro-lote',
    ft_seq: 'Longitud de secuencia (tokens)', ft_gpus: 'GPU', ft_shard: 'Reparto (DeepSpeed ZeRO / FSDP)', ft_ckpt: 'Checkpointing de activaciones',
    inputs: 'Ajustes', math_weights: 'pesos', math_kv_cache: 'caché KV', math_compute_buffer: 'búferes de cómputo', math_usable: 'utilizable',
    copy_embed: 'Copiar código para incrustar', copied_embed: 'Código copiado: pégalo donde el widget deba mostrar estos ajustes',
    save_csv: 'Guardar CSV', save_svg: 'Guardar SVG', save_png: 'Guardar PNG',
    compare_title: 'Comparar', compare_hint: 'Fija una configuración, cambia los ajustes y fija otra: las cifras quedan una junto a otra.', pin_button: 'Fijar esta configuración',
    copy_summary: 'Copiar resumen (Markdown)', copied_summary: 'Resumen copiado', save_json: 'Guardar JSON',
    usable_all: 'Utilizable en todos los dispositivos', devices_word: 'dispositivos', smallest: 'en el más pequeño', decode_total: 'Decodificación, todas las secuencias juntas',
    sequences_word: 'secuencias', one_sequence: 'para una secuencia', at_once: 'para {n} a la vez',
    plan_title: 'Despliegue', plan_hint: 'La configuración más pequeña de cada dispositivo que sirve a estos usuarios a esta velocidad cada uno, con este modelo, formato, contexto y motor.',
    users: 'Usuarios simultáneos', tps: 'Tokens/s por usuario', plan_button: 'Planificar un despliegue', plan_current: 'Esta configuración',
    plan_serves: 'los atiende', plan_short: 'no los atiende', plan_rent: 'Más barata de alquilar', plan_buy: 'Más barata de comprar',
    plan_none: 'Ninguna configuración del catálogo de hasta 8 máquinas de 8 dispositivos los atiende.', plan_kind: 'Tipo',
    plan_one_device: 'un dispositivo', plan_one_machine: 'una máquina', plan_several_machines: 'varias máquinas',
    plan_rent_col: 'Alquiler por hora', plan_buy_col: 'Compra (precio de lanzamiento)', layer_split: 'reparto por capas',
    plan_stale: 'Los ajustes cambiaron desde el plan: pulsa el botón para planificar de nuevo.',
    stream_title: 'Vista previa a esta velocidad', stream_play: 'Reproducir una respuesta de 256 tokens', stream_stop: 'Parar',
    stream_waiting: 'esperando el primer token',
    stream_sample: 'El modelo lee tu prompt y luego escribe su respuesta token a token; cada token son unos cuatro caracteres de texto, así que esta línea crece a la velocidad que verías. ',
    speed_chart_title: 'Velocidad de generación según el contexto (discontinuo: rango probable)', speed_chart_label: 'Tokens por segundo por secuencia de 4K a 1M tokens de contexto, con el rango probable',
    assumptions: 'Supuestos de velocidad y memoria', assumptions_hint: 'Las casillas vacías usan el valor calibrado que se muestra; se aplican al dispositivo elegido.',
    bw_eff: 'Generación: % del ancho de banda alcanzado', cmp_eff: 'Prefill, pesos de 16 bits: % del cómputo FP16',
    qcmp_eff: 'Prefill, pesos cuantizados: % del cómputo INT8', reserve_mib: 'Reservado por GPU (driver, contexto), MiB',
    gpu_util: 'vLLM / SGLang: % de memoria de GPU usada', ovh_us: 'Generación: coste fijo por capa y token, µs',
    comfort_pct: 'Holgado hasta este % de la memoria utilizable', auto: 'auto',
    uma_pct: 'Mac / memoria unificada: % de RAM utilizable (por defecto: límite de macOS)',
    invalid_whole_number: 'Escribe un número entero de {min} a {max}.', ctx_exact: 'Contexto exacto (tokens)',
    rank_stale: 'Los ajustes cambiaron desde la clasificación: pulsa el botón para clasificar de nuevo.',
    advice_title: 'Qué sí funcionaría', advice_format: 'Usar {format} ({verdict})', advice_context: 'Bajar el contexto a {ctx} tokens',
    advice_devices: 'Usar {count} de este dispositivo', advice_device: 'Usar el dispositivo más barato en el que cabe con holgura: {device} ({price})',
    advice_none: 'Nada de lo probado aquí lo hace funcionar: ningún formato de este motor, ningún contexto, ningún número de este dispositivo.',
    my_model_option: 'Mi modelo', copied_without_file: 'Enlace copiado; no puede llevar tu archivo, así que abre el modelo del catálogo del menú.',
    copy_unavailable: 'Este navegador no permite copiar aquí; cópialo a mano:',
    does_not_run: 'no funciona aquí', no_speed: 'No cabe, así que en esta configuración no hay velocidad que esperar.',
    hub_model: 'Modelo de Hugging Face (se lee de huggingface.co al pulsar Obtener)', hub_fetch: 'Obtener',
    hub_placeholder: 'autor/nombre, hf.co/autor/nombre:Q4_K_M o una dirección del Hub', hub_file: 'Archivo GGUF de este repositorio',
    hub_link: 'Este enlace nombra un modelo de Hugging Face: pulsa Obtener para leerlo de huggingface.co.',
    hub_invalid: 'Escribe el id de un repositorio, como Qwen/Qwen3-8B, o su dirección de huggingface.co.',
    hub_offline: 'No se pudo llegar a huggingface.co (sin conexión, o bloqueado en esta red). Descarga tú el config.json o el .gguf y elígelo en "Mi modelo".',
    hub_refused: 'huggingface.co rechazó {repo}: tiene acceso restringido, es privado o no existe. Para un modelo restringido, acepta sus condiciones en el Hub, descarga config.json y elígelo en "Mi modelo".',
    hub_no_repo: 'No existe el repositorio {repo} en huggingface.co.',
    hub_no_file: 'Falta {file} en {repo}.',
    hub_failed: 'huggingface.co respondió con un error para {repo}; inténtalo más tarde o elige un config.json descargado en "Mi modelo".',
    hub_no_ranges: 'El servidor envió {file} entero en lugar de su cabecera, así que se detuvo la descarga.',
    hub_no_model: '{repo} no tiene ni config.json ni archivo .gguf.',
    hub_bad_config: 'El config.json de {repo} no es una configuración de modelo.',
    hub_bad_index: 'El índice safetensors de {repo} no es JSON válido.',
    hub_too_large: '{file} ocupa más de 16 MiB, demasiado para un config.',
  },
};

function pickLanguage(requested) {
  if (requested && STRINGS[requested]) return requested;
  const nav = (typeof navigator !== 'undefined' && navigator.language) || 'en';
  return nav.toLowerCase().indexOf('es') === 0 ? 'es' : 'en';
}

function translator(lang) {
  const table = STRINGS[lang] || STRINGS.en;
  return function (key) {
    return Object.prototype.hasOwnProperty.call(table, key) ? table[key] : STRINGS.en[key] || key;
  };
}

// Intl.NumberFormat objects are costly to make: one per locale and digit count, kept for the
// page's life.
const numberFormats = {};

// Number formatting per locale; never prints NaN or Infinity.
function formatter(lang) {
  const locale = lang === 'es' ? 'es-ES' : 'en-US';
  function number(value, digits) {
    if (typeof value !== 'number' || !isFinite(value)) return '—';
    const key = locale + ' ' + digits;
    if (!numberFormats[key]) {
      numberFormats[key] = new Intl.NumberFormat(locale, {
        maximumFractionDigits: digits, minimumFractionDigits: digits,
      });
    }
    return numberFormats[key].format(value);
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

// Sentences with values filled in (values are inserted as text, never as markup).
const SENTENCES = {
  en: {
    fit: (v) => `${v.model} at ${v.weights} on ${v.device} with ${v.context} tokens of context: ${v.verdict}` +
      (v.short ? `, ${v.free} short.` : `, ${v.free} to spare.`),
    context: (v) => `The largest context that fits is ${v.max} tokens (the model's native window is ${v.native}).`,
    speed: (v) => `Expect about ${v.decode} tokens/s when generating (likely ${v.low}–${v.high}) and ${v.ttft} s before the first token of a ${v.prompt}-token prompt.`,
    speed_no_ttft: (v) => `Expect about ${v.decode} tokens/s when generating (likely ${v.low}–${v.high}); this device has no compute figure for the time to first token.`,
    utilization: (v) => `${v.percent}% of usable memory at the fullest device`,
    stream: (v) => `A ${v.tokens}-token answer at ${v.rate} tokens/s takes about ${v.total} s, first token included.`,
    fit_offload: (v) => `llama.cpp's --fit keeps ${v.gpu} of ${v.all} layers on the GPU` +
      (v.experts > 0 ? `, with the experts of ${v.experts} layers in system RAM` : '') + ` (${v.host} in RAM).`,
    fit_context: (v) => `Without -c, llama.cpp's --fit lowers the context to ${v.context} tokens so that the model fits.`,
    host_parts: (v) => `${v.total} · ${v.layers} layers` + (v.experts > 0 ? ` · experts of ${v.experts} layers` : '') +
      (v.checkpoints ? ` · context checkpoints ${v.checkpoints}` : '') + ` · prompt cache up to ${v.cache}`,
  },
  es: {
    fit: (v) => `${v.model} en ${v.weights} sobre ${v.device} con ${v.context} tokens de contexto: ${v.verdict}` +
      (v.short ? `; faltan ${v.free}.` : `; sobran ${v.free}.`),
    context: (v) => `El mayor contexto que cabe es de ${v.max} tokens (la ventana nativa del modelo es de ${v.native}).`,
    speed: (v) => `Cuenta con unos ${v.decode} tokens/s al generar (probablemente ${v.low}–${v.high}) y ${v.ttft} s hasta el primer token de un prompt de ${v.prompt} tokens.`,
    speed_no_ttft: (v) => `Cuenta con unos ${v.decode} tokens/s al generar (probablemente ${v.low}–${v.high}); este dispositivo no tiene cifra de cómputo para el tiempo hasta el primer token.`,
    utilization: (v) => `${v.percent} % de la memoria utilizable en el dispositivo más lleno`,
    stream: (v) => `Una respuesta de ${v.tokens} tokens a ${v.rate} tokens/s tarda unos ${v.total} s, primer token incluido.`,
    fit_offload: (v) => `El --fit de llama.cpp deja ${v.gpu} de ${v.all} capas en la GPU` +
      (v.experts > 0 ? `, con los expertos de ${v.experts} capas en la RAM del sistema` : '') + ` (${v.host} en RAM).`,
    fit_context: (v) => `Sin -c, el --fit de llama.cpp baja el contexto a ${v.context} tokens para que el modelo quepa.`,
    host_parts: (v) => `${v.total} · ${v.layers} capas` + (v.experts > 0 ? ` · expertos de ${v.experts} capas` : '') +
      (v.checkpoints ? ` · puntos de control del contexto ${v.checkpoints}` : '') + ` · caché de prompts hasta ${v.cache}`,
  },
};

function sentence(lang, key, values) {
  return (SENTENCES[lang] || SENTENCES.en)[key](values);
}

LlmCalc.i18n = { STRINGS: STRINGS, sentence: sentence, pickLanguage: pickLanguage, translator: translator,
                 formatter: formatter };
