// The <llm-calc> element: controls and results in a shadow root. Attributes are the URL-state
// keys; with `sync-hash` the element also reads and writes location.hash.
import { LlmCalc } from './00-namespace.mjs';

const el = LlmCalc.dom.el;
const option = LlmCalc.dom.option;
const S = LlmCalc.state;
// The answer parts whose panels a slider step leaves until the slider rests (core "omit").
const PANEL_PARTS = ['commands', 'cost', 'finetune'];
// Until the page's worker runs, the page computes the explore panels itself after this pause in
// the changes (startWorkerWhenIdle).
const PAGE_PANELS_PAUSE_MS = 400;

// Copies text and says so; where the clipboard is unavailable (plain http off localhost) or
// refuses, says that instead and shows the text to copy by hand.
function copyText(text, status, copied, unavailable) {
  const failed = () => { status.textContent = unavailable + ' ' + text; };
  if (navigator.clipboard && navigator.clipboard.writeText) {
    navigator.clipboard.writeText(text).then(() => { status.textContent = copied; }, failed);
  } else {
    failed();
  }
}

class LlmCalcElement extends HTMLElement {
  static get observedAttributes() {
    return S.KEYS;
  }

  constructor() {
    super();
    // index.html and llm-calculator.html arrive with the default page already in a declarative
    // shadow root (web/prerender.mjs); it stays on screen until the live one replaces it.
    if (!this.shadowRoot) this.attachShadow({ mode: 'open' });
    this.state = Object.assign({}, S.DEFAULTS);
    this.core = null;
    this.pending = false;
    this.notice = null;
    this.built = false;
  }

  connectedCallback() {
    const self = this;
    if (this.connected) return;
    this.connected = true;
    // A printout shows every section.
    window.addEventListener('beforeprint', () => {
      this.shadowRoot.querySelectorAll('details').forEach((details) => { details.open = true; });
    });
    if (typeof CSSStyleSheet === 'function' && 'adoptedStyleSheets' in this.shadowRoot) {
      const sheet = new CSSStyleSheet();
      sheet.replaceSync(this.stylesheetText());
      this.shadowRoot.adoptedStyleSheets = [sheet];
    }
    this.readAttributes();
    if (this.hasAttribute('sync-hash')) {
      const decoded = S.decodeHash(window.location.hash);
      this.state = Object.assign(this.state, this.attributeState(), decoded.state);
      this.notice = decoded.notice;
      this.noticeKeys = decoded.rejected;
      window.addEventListener('hashchange', function () { self.onHashChange(); });
    }
    // Busy until the live page is built (assistive technology and scripts can wait for it).
    this.setAttribute('aria-busy', 'true');
    this.takeover = this.showsPrerendered();
    // The page's guard may have hidden a pre-render the element keeps (web/prerender.mjs).
    if (this.takeover) document.documentElement.classList.remove('llmcalc-stale');
    if (!this.takeover) {
      LlmCalc.dom.clear(this.shadowRoot);
      this.shadowRoot.appendChild(el('p', { class: 'loading', text: 'Loading…' }));
    }
    // The module and the page's language (a script of its own unless English) load side by side.
    Promise.all([LlmCalc.loadCore(), LlmCalc.i18n.load(LlmCalc.i18n.pickLanguage(this.state.lang))]).then(function (loaded) {
      const core = loaded[0];
      // The pre-rendered page is replaced only once a frame has been painted: Chromium drops the
      // largest-contentful-paint record of a node removed before its paint is presented.
      return self.takeover ? LlmCalc.dom.afterNextPaint().then(function () { return core; }) : core;
    }).then(function (core) {
      self.core = core;
      self.build();
      self.schedule();
    }).catch(function (error) {
      LlmCalc.dom.clear(self.shadowRoot);
      self.shadowRoot.appendChild(el('p', { class: 'error', role: 'alert', text: String(error.message) }));
    });
  }

  // The element's stylesheet: bundled in dist/llm-calc.js (web/src/05-styles.mjs); the bundle of
  // the pre-rendered pages leaves it out and reads it from the pre-render's own <style>, in the
  // declarative shadow root or, where the browser does not attach one, in the template left in
  // the element (web/prerender.mjs).
  stylesheetText() {
    if (LlmCalc.styles !== undefined) return LlmCalc.styles;
    const selector = 'style[data-llmcalc-styles]';
    const template = this.querySelector(':scope > template');
    const style = this.shadowRoot.querySelector(selector) || (template && template.content.querySelector(selector));
    return style ? style.textContent : '';
  }

  // Whether the pre-rendered page shows this element's state, in its language: a share link, a
  // widget's attributes or a Spanish browser replace it with "Loading…" at once.
  showsPrerendered() {
    const mark = this.shadowRoot.querySelector('style[data-prerendered-state]');
    return !!mark && mark.getAttribute('data-prerendered-state') === this.settingsKey() &&
      mark.getAttribute('data-prerendered-lang') === LlmCalc.i18n.pickLanguage(this.state.lang);
  }

  // The settings apart from the language (which the page's own lang attribute also writes back).
  settingsKey() {
    return S.encodeHash(Object.assign({}, this.state, { lang: S.DEFAULTS.lang }));
  }

  attributeState() {
    const out = {};
    S.KEYS.forEach((key) => {
      if (this.hasAttribute(key)) {
        const value = S.coerce(key, this.getAttribute(key));
        if (value !== undefined) out[key] = value;
      }
    });
    return out;
  }

  readAttributes() {
    Object.assign(this.state, this.attributeState());
  }

  attributeChangedCallback() {
    if (!this.connected) return;
    this.readAttributes();
    this.schedule();
  }

  onHashChange() {
    const decoded = S.decodeHash(window.location.hash);
    this.state = decoded.state;
    this.notice = decoded.notice;
    this.noticeKeys = decoded.rejected;
    // Back / Forward across a language change: the page is rebuilt in the link's language.
    const lang = LlmCalc.i18n.pickLanguage(this.state.lang);
    if (!this.built || lang === this.lang) {
      this.schedule();
      return;
    }
    LlmCalc.i18n.load(lang).then(() => {
      this.build();
      this.schedule();
    });
  }

  // The matrix, chart and device table cost more than the main figures: they follow, once per
  // burst of changes (60 ms debounce), so slider moves stay immediate. Once the page's worker is
  // ready (web/src/12-core-worker.mjs) they are computed there, off the page's thread, and drawn
  // as they arrive, one panel per task. Until then, and where no worker runs, the page computes
  // them itself, one panel per task, so a keystroke waits behind one panel at most; either way a
  // newer change drops the rest.
  // The first ones run as soon as the figures are painted, on the page's thread: when the live
  // page takes over from the pre-rendered one, that explore runs whole in the same task, so no
  // frame shows the matrix and charts empty. The worker starts later (startWorkerWhenIdle).
  // The host carries data-explored once every panel shows the current state: "page" or "worker",
  // where they were computed.
  scheduleExplore() {
    if (this.exploreTimer) clearTimeout(this.exploreTimer);
    this.exploreTimer = 0;
    if (this.worker) this.worker.cancel('explore');
    this.removeAttribute('data-explored');
    if (this.takeover) {
      this.takeover = false;
      this.explore([null]);
      return;
    }
    this.exploreTimer = setTimeout(() => {
      this.exploreTimer = 0;
      const groups = [['matrix'], ['sweep'], ['advice'], ['devices']];
      if (this.worker && this.worker.usable()) this.exploreInWorker(groups);
      else this.explore(groups);
    }, !this.explored ? 0 : this.worker === undefined ? PAGE_PANELS_PAUSE_MS : 60);
  }

  // Runs the core's explore for each group of sections (null: all of them) and draws each answer.
  explore(groups) {
    if (!this.explored) this.startWorkerWhenIdle();
    this.explored = true;
    const request = this.request();
    const step = (i) => {
      this.exploreTimer = 0;
      const part = groups[i] ? Object.assign({}, request, { sections: groups[i] }) : request;
      const answer = this.core.explore(part);
      if (answer.ok) this.drawExplore(answer.result);
      if (i + 1 < groups.length) this.exploreTimer = setTimeout(() => step(i + 1), 0);
      else this.setAttribute('data-explored', 'page');
    };
    step(0);
  }

  // The same in the worker; should it fail, the page computes the panels itself.
  exploreInWorker(groups) {
    const request = this.request();
    const parts = groups.map((sections) => Object.assign({}, request, { sections: sections }));
    this.worker.call('explore', parts, (index, answer) => {
      if (answer.ok) this.drawExplore(answer.result);
      if (index + 1 === parts.length) this.setAttribute('data-explored', 'worker');
    }, () => this.explore(groups));
  }

  // The worker starts once the settings have rested for a second; after three seconds a pause of
  // 400 ms will do (the one after which the page draws the panels itself), but never the middle
  // of a burst of changes: its start and its warm-up ranking share the machine's cores with the
  // page, and the keystrokes of a burst waited behind them (issue #22). Until then the page
  // computes the panels itself, after a longer pause in the changes, so a burst of keystrokes does
  // not wait behind them either.
  startWorkerWhenIdle() {
    const restMs = 1000;
    const patienceMs = 3000;
    const started = performance.now();
    const wait = () => {
      const now = performance.now();
      const quiet = now - Math.max(started, this.lastChange || 0);
      const early = now - started < patienceMs;
      const needed = early ? restMs : PAGE_PANELS_PAUSE_MS;
      if (quiet < needed) {
        setTimeout(wait, early ? Math.min(needed - quiet, started + patienceMs - now) : needed - quiet);
        return;
      }
      this.startWorker();
    };
    setTimeout(wait, restMs);
  }

  // The page's worker; its first job ranks the catalog for the current settings, so the caches a
  // ranking builds are warm before the reader asks for one.
  startWorker() {
    this.worker = this.core.worker();
    if (this.worker) this.worker.warm('rank', [LlmCalc.rankRequest(this.state)]);
  }

  // Ranks every model for the state, in the worker where one runs, and hands the envelope to `done`.
  rank(request, done) {
    if (this.worker && this.worker.usable()) {
      this.worker.call('rank', [request], (index, answer) => done(answer), () => done(this.core.rank(request)));
    } else {
      done(this.core.rank(request));
    }
  }

  drawExplore(result) {
    const f = LlmCalc.i18n.formatter(this.lang);
    LlmCalc.renderExplore(this.ui, result, this.core.catalog.devices, this.t.bind(this), f);
    if (!result.advice) return;
    LlmCalc.renderAdvice(this.ui.advice, result, this.state, this.t.bind(this), f, (changes) => {
      Object.keys(changes).forEach((key) => { this.state[key] = changes[key]; });
      this.set('model', this.state.model, true);  // writes the link and re-renders
    });
  }

  // Coalesces the changes of one task into a single render, run before the next paint (a
  // microtask), so a slider move shows up in the same frame.
  schedule() {
    if (!this.core || this.pending) return;
    this.pending = true;
    Promise.resolve().then(() => {
      this.pending = false;
      this.render();
    });
  }

  set(key, value, commit) {
    this.state[key] = value;
    this.lastChange = performance.now();
    // A custom device picked without figures starts from those of the device shown until now
    // (without them the core has no device to estimate for). Only the device menus pick one, so
    // other settings (a slider step) skip the check.
    if ((key === 'hw' || key === 'more') && !this.state.cdev) this.seedCustomDevice();
    this.writeHash(commit);
    this.schedule();
  }

  seedCustomDevice() {
    const custom = this.state.hw === 'custom' || S.parseGroups(this.state.more).some((g) => g.id === 'custom');
    const shown = this.lastEnvelope && this.lastEnvelope.ok && this.lastEnvelope.result.hardware;
    if (!custom || !shown) return;
    this.state.cdev = S.customDeviceFrom(shown);
    if (shown.pcie_peer_to_peer) this.state.cdev_p2p = 1;
  }

  // The page's address follows the state: a committed change is a history entry at once. A
  // slider rewrites the address only once it rests (history.replaceState costs Chromium about
  // 3 ms, pushState more, as much as the figures themselves): 100 ms after a drag, and a burst
  // of arrow-key presses makes one history entry 300 ms after the last.
  writeHash(commit, restMs) {
    if (!this.hasAttribute('sync-hash')) return;
    clearTimeout(this.hashTimer);
    this.hashCommit = this.hashCommit || commit;
    const write = () => {
      const push = this.hashCommit;
      this.hashCommit = false;
      const hash = S.encodeHash(this.state);
      if (hash === window.location.hash) return;
      const url = window.location.pathname + window.location.search + hash;
      if (push) history.pushState(null, '', url);
      else history.replaceState(null, '', url);
    };
    if (commit && !restMs) write();
    else this.hashTimer = setTimeout(write, restMs || 100);
  }


  t(key) {
    return LlmCalc.i18n.translator(this.lang)(key);
  }

  // "RTX 4090 x2", or every group and the machines: "RTX 4090 + RTX 3090 x2 · 2 machines".
  deviceSummary(r) {
    const name = (id) => (id === r.hardware.id ? r.hardware.name || id : this.machines.deviceName(id));
    const groups = S.parseGroups(this.state.more);
    const machines = groups.length ? 1 + Math.max.apply(null, groups.map((g) => g.node)) : this.state.nodes;
    const list = [{ id: this.state.hw, count: this.state.n }].concat(groups)
      .map((g) => name(g.id) + (g.count > 1 ? ' x' + g.count : '')).join(' + ');
    return list + (machines > 1 ? ' · ' + machines + ' ' + this.t('machines_word') : '');
  }

  // The context one request gets: the one set, or with ctx 0 the one the engine chose (llama.cpp's
  // --fit, Ollama's default by GPU memory, vLLM's --max-model-len auto).
  shownContext() {
    if (this.state.ctx > 0) return this.state.ctx;
    const envelope = this.lastEnvelope;
    return envelope && envelope.ok ? envelope.result.scenario.context_tokens : S.DEFAULTS.ctx;
  }

  // Builds the static DOM once; render() only updates text and values.
  build() {
    const root = this.shadowRoot;
    LlmCalc.dom.clear(root);
    this.removeAttribute('aria-busy');
    this.lang = LlmCalc.i18n.pickLanguage(this.state.lang);
    const t = this.t.bind(this);
    // The page (not a widget in someone else's page) takes the calculator's language and title.
    if (this.hasAttribute('sync-hash')) {
      document.title = t('title');
      document.documentElement.lang = this.lang;
    }
    const catalog = this.core.catalog;
    const ui = (this.ui = {});
    const f0 = LlmCalc.i18n.formatter(this.lang);

    const select = (key, values, labelOf) => {
      const node = el('select', { id: 'f-' + key, 'data-key': key });
      values.forEach((value) => node.appendChild(option(value, labelOf ? labelOf(value) : value)));
      node.addEventListener('change', () => this.set(key, node.value, true));
      ui[key] = node;
      return node;
    };
    // A whole-number box: a value outside [min, max] (or not whole) is refused with a message
    // beside it, and the figures stay on the last accepted value.
    const numberInput = (key, min, max, stateKey) => {
      const message = t('invalid_whole_number').replace('{min}', f0.integer(min)).replace('{max}', f0.integer(max));
      const box = LlmCalc.numberBox(key, min, max, { message: message, dataKey: stateKey || key },
                                    (value) => this.set(stateKey || key, value, true));
      ui[key] = box.input;
      ui[key + 'Error'] = box.error;
      const both = document.createDocumentFragment();
      both.appendChild(box.input);
      both.appendChild(box.error);
      return both;
    };
    const field = (key, control, ...extra) =>
      el('div', { class: 'field' }, el('label', { for: 'f-' + key, text: t(key) }), control, ...extra);

    // Model picker with a search filter; the listing comes sorted by name (web/page-listing.mjs).
    const models = catalog.models;
    const modelSelect = select('model', models.map((m) => m.id), (id) => {
      const m = models.find((x) => x.id === id);
      return m ? m.name : id;
    });
    // A model read from a file or the Hub is named in the menu while it is the one estimated.
    ui.customModel = option('', '');
    ui.customModel.hidden = true;
    ui.customModel.disabled = true;  // shown and selected by the page, not picked
    modelSelect.insertBefore(ui.customModel, modelSelect.firstChild);
    const search = el('input', { id: 'f-search', type: 'search', placeholder: t('search_models'),
                                 'aria-label': t('search_models') });
    search.addEventListener('input', () => {
      const needle = search.value.toLowerCase();
      Array.prototype.forEach.call(modelSelect.options, (opt) => {
        opt.hidden = needle !== '' && opt.textContent.toLowerCase().indexOf(needle) < 0 &&
                     opt.value.indexOf(needle) < 0;
      });
    });
    // Enter picks the first model the search shows (issue #21 item 12).
    search.addEventListener('keydown', (event) => {
      if (event.key !== 'Enter' || search.value.trim() === '') return;
      const match = Array.prototype.find.call(modelSelect.options, (opt) => !opt.hidden && !opt.disabled && opt.value);
      if (!match) return;
      event.preventDefault();
      modelSelect.value = match.value;
      modelSelect.dispatchEvent(new Event('change'));
    });

    const devices = catalog.devices;
    this.finetune = LlmCalc.finetuneEditor(t, (key, value) => this.set(key, value, true));
    this.machines = LlmCalc.machineEditor(t, devices, catalog.links || [], (key, value) => this.set(key, value, true));
    const hwSelect = select('hw', devices.map((d) => d.id).concat(['custom']), this.machines.deviceName);

    // Context: a log-scale slider over nice stops, plus an exact number box.
    const ctxSlider = el('input', { id: 'f-ctx', type: 'range', min: 0, max: 1, step: 1,
                                    'data-key': 'ctx', 'aria-describedby': 'ctx-value' });
    ctxSlider.addEventListener('input', () => {
      const stops = this.ctxStops || [8192];
      this.sliding = true;  // a step: its figures first, the panels below once the slider rests
      this.set('ctx', stops[Number(ctxSlider.value)] || 8192, false);
    });
    // The value is already set and shown by the input event: the change only commits the link.
    ctxSlider.addEventListener('change', () => this.writeHash(true, 300));
    ui.ctx = ctxSlider;
    ui.ctxValue = el('output', { id: 'ctx-value', for: 'f-ctx' });
    // The exact context, for a value between the slider's stops.
    const ctxExact = numberInput('ctx_exact', 1, 10485760, 'ctx');
    ui.ctx_exact.setAttribute('aria-label', t('ctx_exact'));
    ui.ctxNative = el('span', { class: 'hint' });
    // The engine's own context: what it runs with when none is given (ctx 0).
    ui.ctxAuto = el('input', { id: 'f-ctx-auto', type: 'checkbox' });
    ui.ctxAuto.addEventListener('change', () => this.set('ctx', ui.ctxAuto.checked ? 0 : this.shownContext(), true));
    // Drafting with the model's MTP layers, offered where the model has them.
    ui.mtp = el('input', { id: 'f-mtp', type: 'checkbox' });
    ui.mtp.addEventListener('change', () => this.set('mtp', ui.mtp.checked ? 1 : 0, true));

    const language = el('select', { id: 'f-lang', 'aria-label': t('language') },
                        option('en', 'English'), option('es', 'Español'));
    language.value = this.lang;
    language.addEventListener('change', () => {
      this.set('lang', language.value, true);
      LlmCalc.i18n.load(language.value).then(() => {
        this.build();
        this.render();
      });
    });
    // The page copies a link that reopens this state. A widget in someone else's page does not
    // read the address (only the page does, with sync-hash), so it copies the element with these
    // settings as attributes, which reproduces them wherever it is pasted (issue #21 item 8).
    const page = this.hasAttribute('sync-hash');
    const copy = el('button', { type: 'button', class: 'copy', text: t(page ? 'copy_link' : 'copy_embed') });
    copy.addEventListener('click', () => {
      // A model read from a file cannot travel in a link (a Hub model can: hf, hf_file).
      const fileOnly = this.custom && !this.custom.hf_repo;
      if (!page) {
        copyText(embedMarkup(this.state), ui.status, fileOnly ? t('copied_without_file') : t('copied_embed'), t('copy_unavailable'));
        return;
      }
      const url = window.location.href.split('#')[0] + S.encodeHash(this.state);
      copyText(url, ui.status, fileOnly ? t('copied_without_file') : t('copied'), t('copy_unavailable'));
    });

    // Export: a Markdown summary to the clipboard, the request and result as a JSON file.
    const summary = el('button', { type: 'button', id: 'copy-summary', text: t('copy_summary') });
    summary.addEventListener('click', () => {
      this.completeEstimate();
      if (!this.lastEnvelope || !this.lastEnvelope.ok) return;
      const url = window.location.href.split('#')[0] + S.encodeHash(this.state);
      const text = LlmCalc.exportSummary(this.lastEnvelope.result, this.lastRequest, this.state, t,
        LlmCalc.i18n.formatter(this.lang), this.deviceSummary(this.lastEnvelope.result), url);
      copyText(text, ui.status, t('copied_summary'), t('copy_unavailable'));
    });
    const saveJson = el('button', { type: 'button', id: 'save-json', text: t('save_json') });
    saveJson.addEventListener('click', () => {
      this.completeEstimate();
      if (!this.lastEnvelope) return;
      LlmCalc.downloadText('llmcalc-' + (this.state.model || 'model') + '.json',
        JSON.stringify({ request: this.lastRequest, envelope: this.lastEnvelope }, null, 1), 'application/json');
    });

    ui.notice = el('p', { class: 'notice', role: 'status' });
    ui.error = el('p', { class: 'error', role: 'alert' });
    // The core's warnings (e.g. a vision tower left out, an unknown family); the verdict already
    // says when the configuration does not fit.
    ui.warnings = el('p', { class: 'notice', role: 'status', 'data-testid': 'warnings' });
    ui.warnings.hidden = true;
    ui.status = el('span', { class: 'status', role: 'status', 'aria-live': 'polite' });

    // "My model": a config.json, .gguf or .safetensors read in the browser.
    const fileInput = el('input', { id: 'f-file', type: 'file', accept: '.json,.gguf,.safetensors', multiple: true });
    ui.fileStatus = el('output', { id: 'file-status', for: 'f-file', class: 'hint' });
    fileInput.addEventListener('change', () => {
      if (!fileInput.files || !fileInput.files.length) return;
      LlmCalc.readModelFiles(this.core, fileInput.files, (text) => { ui.fileStatus.textContent = text; })
        .then((custom) => {
          ui.fileStatus.textContent = custom.summary;
          if (custom.model) {
            this.custom = custom;
            if (custom.weights) this.state.weights = custom.weights;
            this.forgetHub();
          }
        })
        .catch((error) => { ui.fileStatus.textContent = t('error') + ': ' + error.message; });
    });
    modelSelect.addEventListener('change', () => {
      this.custom = null;
      ui.fileStatus.textContent = '';
      this.forgetHub();
    });

    // A Hugging Face model by name: fetched only when the user presses Fetch (or Enter), or
    // picks another GGUF of the repository. A link names the repository; it is not fetched.
    const hubInput = el('input', { id: 'f-hub', type: 'text', placeholder: t('hub_placeholder'),
                                   autocomplete: 'off', spellcheck: 'false', 'aria-describedby': 'hub-status' });
    hubInput.value = this.state.hf;
    ui.hubButton = el('button', { type: 'button', id: 'hub-fetch', text: t('hub_fetch') });
    ui.hubButton.addEventListener('click', () => this.fetchHub(hubInput.value, ''));
    hubInput.addEventListener('keydown', (event) => {
      if (event.key === 'Enter') this.fetchHub(hubInput.value, '');
    });
    ui.hubFile = el('select', { id: 'f-hub-file', 'aria-label': t('hub_file') });
    ui.hubFile.addEventListener('change', () => this.fetchHub(this.state.hf, ui.hubFile.value));
    ui.hubStatus = el('output', { id: 'hub-status', for: 'f-hub', class: 'hint' });
    this.showHubChoices();
    if (this.custom && this.custom.hf_repo) {
      ui.hubStatus.textContent = this.custom.summary;
    } else if (this.state.hf) {
      ui.hubStatus.textContent = t('hub_link');
    }

    const controls = el('section', { class: 'controls', 'aria-label': t('inputs') },
      el('div', { class: 'field' }, el('label', { for: 'f-model', text: t('model') }), search, modelSelect),
      el('div', { class: 'field' }, el('label', { for: 'f-file', text: t('my_model') }), fileInput, ui.fileStatus),
      el('div', { class: 'field' }, el('label', { for: 'f-hub', text: t('hub_model') }),
         el('div', { class: 'row hub-row' }, hubInput, ui.hubButton), ui.hubFile, ui.hubStatus),
      field('weights', select('weights', catalog.weight_formats, formatLabel)),
      field('kv', select('kv', catalog.kv_cache_types)),
      el('div', { class: 'field wide' }, el('label', { for: 'f-ctx', text: t('ctx') }), ctxSlider,
         el('div', { class: 'row' }, ui.ctxValue, ui.ctxNative), ctxExact,
         el('div', { class: 'row' }, ui.ctxAuto, el('label', { for: 'f-ctx-auto', text: t('ctx_auto') }))),
      field('prompt', numberInput('prompt', 1, 10485760)),
      field('batch', numberInput('batch', 1, 1024)),
      field('engine', select('engine', catalog.engines), ui.engineRelease = el('span', { class: 'hint', 'data-testid': 'engine-release' }),
            ui.mtpRow = el('div', { class: 'row' }, ui.mtp, el('label', { for: 'f-mtp', text: t('mtp') }))),
      field('hw', hwSelect),
      field('n', numberInput('n', 1, 1024)),
      this.machines.element,
      el('details', { class: 'advanced' }, el('summary', { text: t('offload_section') }),
        field('ngl', numberInput('ngl', 0, 1025)),
        field('cmoe', numberInput('cmoe', 0, 1024))),
      el('details', { class: 'advanced', id: 'cost-assumptions' }, el('summary', { text: t('cost_assumptions') }),
        field('kwh_cents', numberInput('kwh_cents', 0, 1000)),
        field('hours', numberInput('hours', 1, 24)),
        field('tokens_day', numberInput('tokens_day', 1, 99999999)),
        field('conc', numberInput('conc', 1, 1024))));
    this.assumptions = LlmCalc.assumptionEditor(t, (key, value) => this.set(key, value, true));
    controls.appendChild(this.assumptions.element);

    // Results.
    ui.verdict = el('p', { class: 'verdict', 'data-testid': 'verdict', role: 'status', 'aria-live': 'polite' });
    ui.answers = el('ul', { class: 'answers', 'data-testid': 'answers' });
    ui.advice = el('div', { class: 'advice-box', id: 'advice' });
    ui.advice.hidden = true;
    ui.bar = el('div', { class: 'bar', role: 'img' });
    ui.figures = el('dl', { class: 'figures' });
    ui.speed = el('dl', { class: 'figures' });
    ui.arch = el('dl', { class: 'figures' });
    ui.layers = el('ul', { class: 'layers' });
    ui.math = el('ul', { class: 'math' });
    ui.commands = el('div', { class: 'commands' });
    ui.cost = el('dl', { class: 'figures' });
    ui.costChart = el('div', { class: 'chart-wrap', id: 'cost-chart' });
    ui.finetune = el('dl', { class: 'figures' });
    ui.rank = el('div', { class: 'rank-view' });
    ui.matrix = el('div', { class: 'matrix' });
    ui.chart = el('div', { class: 'chart-wrap', id: 'memory-chart' });
    ui.speedChart = el('div', { class: 'chart-wrap', id: 'speed-chart' });
    this.stream = LlmCalc.tokenStream(this.lang);
    ui.devices = el('div', { class: 'devices' });
    ui.devicesCard = el('details', { class: 'card', id: 'devices-card' }, el('summary', { text: t('devices_title') }), ui.devices);
    ui.devicesCard.addEventListener('toggle', () => {
      if (ui.devicesCard.open && ui.renderDevices) ui.renderDevices();
    });
    ui.recommendations = el('dl', { class: 'figures', id: 'recommendations' });
    // Side by side: pinned configurations with their figures.
    this.compare = LlmCalc.compareView(t);
    this.compare.bind(() => {
      this.completeEstimate();
      if (!this.lastEnvelope || !this.lastEnvelope.ok) return null;
      const r = this.lastEnvelope.result;
      return { label: (r.model.name || r.model.id) + ' · ' + r.weights.format + ' · ' + this.deviceSummary(r) + ' · ' +
                 this.state.engine + ' · ' + LlmCalc.i18n.formatter(this.lang).integer(this.shownContext()),
               hash: S.encodeHash(this.state), result: r };
    }, () => LlmCalc.i18n.formatter(this.lang));
    // The Deployment panel: users and speed per user, planned on demand.
    ui.plan = el('div', { class: 'plan-view' });
    const planButton = el('button', { type: 'button', id: 'plan-button', text: t('plan_button') });
    planButton.addEventListener('click', () => {
      LlmCalc.renderPlanView(ui.plan, this.core, this.state, this.request(), t, LlmCalc.i18n.formatter(this.lang));
    });
    const planCard = el('div', { class: 'card', id: 'deployment' }, el('h2', { text: t('plan_title') }),
      el('p', { class: 'hint', text: t('plan_hint') }),
      el('div', { class: 'row wrap' }, field('users', numberInput('users', 1, 1024)), field('tps', numberInput('tps', 1, 100000))),
      planButton, ui.plan);
    const rankButton = el('button', { type: 'button', id: 'rank-button', text: t('rank_button') });
    rankButton.addEventListener('click', () => {
      LlmCalc.renderRankView(ui.rank, this.rank.bind(this), this.state, t, LlmCalc.i18n.formatter(this.lang));
    });

    // The short answer, beside the settings on a wide page and above them in one column (a
    // phone, a narrow widget), so the first screen holds the answer (web/llm-calc.css).
    const shortAnswer = el('section', { class: 'card summary', 'aria-labelledby': 'answers-title' },
      el('h2', { id: 'answers-title', text: t('answers_title') }), ui.answers, ui.advice);
    // Only the verdict is announced as it changes (issue #21 item 12): a live region over all
    // the results read every figure at each slider step.
    const results = el('section', { class: 'results', 'aria-label': t('results_title') },
      planCard,
      this.compare.element,
      el('div', { class: 'card' }, el('h2', { text: t('memory') }), ui.verdict, ui.bar, ui.figures),
      el('div', { class: 'card' }, el('h2', { text: t('decode') }), ui.speed,
        el('h3', { text: t('stream_title') }), this.stream.element,
        el('h3', { text: t('speed_chart_title') }), ui.speedChart),
      el('div', { class: 'card' }, el('h2', { text: t('architecture') }), ui.arch, ui.layers),
      el('div', { class: 'card' }, el('h2', { text: t('matrix_title') }), ui.matrix),
      el('div', { class: 'card' }, el('h2', { text: t('chart_title') }), ui.chart),
      el('div', { class: 'card' }, el('h2', { text: t('rec_title') }), ui.recommendations),
      ui.devicesCard,
      el('div', { class: 'card' }, el('h2', { text: t('cost') }), ui.cost, ui.costChart),
      el('div', { class: 'card' }, el('h2', { text: t('finetune') }), this.finetune.element, ui.finetune),
      el('div', { class: 'card' }, el('h2', { text: t('rank_title') }), rankButton, ui.rank),
      el('div', { class: 'card' }, el('h2', { text: t('commands') }), ui.commands),
      el('details', { class: 'card' }, el('summary', { text: t('show_math') }), ui.math));

    root.appendChild(el('header', {},
      el('div', {}, el('h1', { text: t('title') }), el('p', { class: 'sub', text: t('subtitle') })),
      el('div', { class: 'tools' }, language, copy, summary, saveJson, ui.status)));
    root.appendChild(ui.notice);
    root.appendChild(ui.error);
    root.appendChild(ui.warnings);
    // Hidden while the settings cannot be estimated: figures of an earlier setting under the error
    // would read as the answer to this one.
    ui.answerSections = [shortAnswer, results];
    root.appendChild(el('div', { class: 'layout' }, shortAnswer, controls, results));
    this.weightFormatsKey = '';  // the menu above holds the common formats only
    this.built = true;
  }

  // Reads a Hugging Face repository (see 55-model-hub.mjs) into the custom model; `file` picks
  // one of its GGUF models, else the link's file, the typed :QUANT or the weight format.
  fetchHub(text, file) {
    const t = this.t.bind(this);
    const ui = this.ui;
    const ref = LlmCalc.hub.parseRepoRef(text);
    if (!ref) {
      ui.hubStatus.textContent = t('hub_invalid');
      return;
    }
    const linked = ref.repo === this.state.hf ? this.state.hf_file : '';
    const wanted = { file: file || ref.file || linked, quants: [ref.quant, this.state.weights] };
    ui.hubButton.disabled = true;
    LlmCalc.hub.loadRepo(this.core, ref.repo, wanted, (text) => { ui.hubStatus.textContent = text; })
      .then((loaded) => {
        this.custom = Object.assign(loaded.custom, { hf_repo: loaded.repo, hf_file: loaded.file });
        this.hubChoices = loaded.choices;
        this.showHubChoices();
        ui.fileStatus.textContent = '';
        ui.hubStatus.textContent = loaded.custom.summary;
        if (loaded.custom.weights) this.state.weights = loaded.custom.weights;
        this.state.hf_file = loaded.file;
        this.set('hf', loaded.repo, true);
      })
      .catch((error) => {
        ui.hubStatus.textContent = error.hubKey
          ? t(error.hubKey).replace('{repo}', error.repo).replace('{file}', error.file)
          : t('error') + ': ' + error.message;
      })
      .then(() => { ui.hubButton.disabled = false; });
  }

  // The repository's GGUF models in the file menu (hidden for a checkpoint repository).
  showHubChoices() {
    const ui = this.ui;
    const choices = (this.custom && this.custom.hf_repo && this.hubChoices) || [];
    LlmCalc.dom.clear(ui.hubFile);
    choices.forEach((choice) => {
      const files = choice.files.length > 1 ? ' (' + choice.files.length + ' files)' : '';
      ui.hubFile.appendChild(option(choice.files[0].path,
        choice.label + files + ' · ' + (choice.size / 1e9).toFixed(1) + ' GB'));
    });
    ui.hubFile.hidden = choices.length < 2;
    if (choices.length) ui.hubFile.value = this.custom.hf_file;
  }

  // The weight formats: llama.cpp's and the checkpoint ones, then those the catalog model's
  // repositories publish with a file size (unsloth Dynamic), rebuilt when the model changes.
  showWeightFormats() {
    const entry = !this.custom && this.core.catalog.models.find((m) => m.id === this.state.model);
    const published = (entry && entry.published_formats) || [];
    const formats = this.core.catalog.weight_formats.concat(published);
    // A hand-typed link may spell a format in another case (q8_0 for Q8_0).
    const spelled = formats.find((format) => format.toLowerCase() === String(this.state.weights).toLowerCase());
    if (spelled) this.state.weights = spelled;
    const key = published.join(',');
    if (this.weightFormatsKey === key) return;
    this.weightFormatsKey = key;
    LlmCalc.dom.clear(this.ui.weights);
    formats.forEach((format) => this.ui.weights.appendChild(option(format, formatLabel(format))));
    // A published format of the previous model that this one does not have.
    if (formats.indexOf(this.state.weights) < 0) this.state.weights = S.DEFAULTS.weights;
  }

  // Another model was picked: the link no longer names a Hub repository.
  forgetHub() {
    this.hubChoices = null;
    if (this.ui) {
      this.showHubChoices();
      this.ui.hubStatus.textContent = '';
    }
    this.state.hf_file = '';
    this.set('hf', '', true);
  }

  // One estimate; returns the envelope, resetting keys a broken link made invalid.
  // The core request: the state, with a model read from a file or the Hub when there is one.
  request() {
    const request = S.toRequest(this.state);
    request.lang = this.lang;  // the core's notes, warnings and formulas in the page's language
    if (this.custom) {
      request.model = this.custom.model;
      if (this.custom.weights_bytes) request.weights_bytes = this.custom.weights_bytes;
      if (this.custom.weights_include_mtp) request.weights_include_mtp = true;
      if (this.custom.hf_repo) request.hf_repo = this.custom.hf_repo;
      if (this.custom.hf_file) request.hf_file = this.custom.hf_file;
    }
    return request;
  }

  // The estimate for the state; `omit` names answer parts not needed now (core "omit").
  estimate(omit) {
    const ask = (request) => this.core.estimateEnvelope(omit ? Object.assign({}, request, { omit: omit }) : request);
    this.lastRequest = this.request();
    let envelope = ask(this.lastRequest);
    if (!envelope.ok && this.hasAttribute('sync-hash') && !this.custom) {
      let reset = false;
      envelope.issues.forEach((issue) => {
        const key = S.keyForPath(issue.path);
        if (issue.severity === 'error' && key && this.state[key] !== S.DEFAULTS[key]) {
          this.state[key] = S.DEFAULTS[key];
          this.noticeKeys = (this.noticeKeys || []).concat([key]);
          reset = true;
        }
      });
      if (reset) {
        this.notice = 'link_broken';
        this.lastRequest = this.request();
        envelope = ask(this.lastRequest);
      }
    }
    this.lastEnvelope = envelope;
    this.partial = Boolean(omit) && envelope.ok;
    return envelope;
  }

  // A slider step's render leaves the commands, cost and fine-tune panels (and the same parts of
  // the last answer) to this, run once the slider has rested 200 ms (steps of a held key come
  // every 30-50 ms, so none waits behind these panels) or when the whole answer is asked for.
  schedulePanels() {
    if (this.panelsTimer) clearTimeout(this.panelsTimer);
    this.panelsTimer = setTimeout(() => this.completeEstimate(), 200);
  }

  completeEstimate() {
    if (this.panelsTimer) clearTimeout(this.panelsTimer);
    this.panelsTimer = 0;
    if (!this.partial) return;
    const envelope = this.estimate();
    if (envelope.ok) this.renderPanels(envelope.result);
  }

  render() {
    if (!this.built) return;
    const t = this.t.bind(this);
    const f = LlmCalc.i18n.formatter(this.lang);
    const ui = this.ui;
    this.showWeightFormats();  // first: it settles the format's spelling the estimate uses
    const quick = this.sliding;
    this.sliding = false;
    const envelope = quick ? this.estimate(PANEL_PARTS) : this.estimate();
    LlmCalc.clearStaleRank(ui.rank, this.state, t);
    LlmCalc.clearStalePlan(ui.plan, this.state, t);
    // The notice names the settings a broken link had wrong, by their labels.
    const keys = (this.noticeKeys || []).filter((key, i, all) => all.indexOf(key) === i);
    ui.notice.textContent = !this.notice ? ''
      : this.notice === 'link_broken' && keys.length
        ? t('link_broken_keys').replace('{keys}', keys.map((key) => t(key)).join(', '))
        : t(this.notice);
    ui.notice.hidden = !this.notice;

    // Control values.
    ['model', 'weights', 'kv', 'engine', 'hw'].forEach((key) => { LlmCalc.dom.setValue(ui[key], String(this.state[key])); });
    ui.customModel.hidden = !this.custom;
    if (this.custom) {
      ui.customModel.textContent = t('my_model_option') + ': ' + (this.custom.label || '');
      ui.model.value = '';
    }
    ['prompt', 'batch', 'n', 'ngl', 'cmoe', 'kwh_cents', 'hours', 'tokens_day', 'conc', 'ctx_exact', 'users', 'tps']
      .forEach((key) => {
        LlmCalc.dom.showValid(ui[key], String(key === 'ctx_exact' ? this.shownContext() : this.state[key]), ui[key + 'Error']);
      });
    const maxCtx = (envelope.ok && envelope.result.model.max_context_tokens) || 131072;
    if (envelope.ok && this.state.ctx > maxCtx && !this.custom) {
      this.set('ctx', maxCtx, false);  // a newly picked model with a shorter native window
      return;
    }
    // With the engine's own context the slider and the box show what it chose, and wait.
    const engineContext = this.state.ctx === 0;
    ui.ctxAuto.checked = engineContext;
    ui.mtp.checked = this.state.mtp > 0;
    ui.mtpRow.hidden = !(envelope.ok && envelope.result.params.mtp > 0);
    ui.ctx.disabled = engineContext;
    ui.ctx_exact.disabled = engineContext;
    this.ctxStops = LlmCalc.contextScale.contextStops(maxCtx);
    ui.ctx.max = String(this.ctxStops.length - 1);
    LlmCalc.dom.setValue(ui.ctx, String(LlmCalc.contextScale.nearestStop(this.ctxStops, this.shownContext())));
    ui.ctxValue.textContent = f.integer(this.shownContext()) + ' tokens' + (engineContext ? ' · ' + t('ctx_auto_short') : '');
    ui.ctxNative.textContent = ' (' + t('native_limit') + ': ' + f.integer(maxCtx) + ')';

    this.assumptions.render(this.state, envelope.ok ? envelope.result.scenario : null, f);
    this.machines.render(this.state, envelope.ok ? envelope.result.scenario : null, f);
    this.finetune.render(this.state);
    if (!envelope.ok) {
      ui.error.textContent = t('error') + ': ' + envelope.issues.map((i) => i.message).join(' ');
      ui.error.hidden = false;
      ui.warnings.hidden = true;
      ui.answerSections.forEach((section) => { section.hidden = true; });
      return;
    }
    ui.error.hidden = true;
    ui.answerSections.forEach((section) => { section.hidden = false; });
    const warnings = envelope.issues.filter((i) => i.severity === 'warning' && i.code !== 'does_not_fit');
    ui.warnings.textContent = warnings.length ? t('warnings') + ': ' + warnings.map((i) => i.message).join(' ') : '';
    ui.warnings.hidden = warnings.length === 0;
    const r = envelope.result;
    const m = r.memory;
    // The KV menu's "auto" says which cache the engine's default gives (a checkpoint's own under vLLM).
    ui.kv.options[0].textContent = 'auto (' + r.scenario.kv_cache + ')';
    // llama.cpp and Ollama load a vision model's projector (mmproj) beside its text.
    const projector = m.projector_bytes || 0;
    const used = m.weights_bytes + m.kv_cache_bytes + m.overhead_bytes + projector;
    const scale = Math.max(used, m.usable_bytes, 1);

    const runs = m.verdict !== 'oom';  // no speed is shown for a setup that cannot start
    if (runs) ui.advice.hidden = true;  // the advice of a setup that did not run
    ui.verdict.textContent = t(m.verdict) + ' · ' + LlmCalc.i18n.sentence(this.lang, 'utilization',
      { percent: f.number(100 * m.utilization, 0) });
    // Short answers to the usual questions, written from the numbers above.
    const name = r.model.name || r.model.id;
    // A setup that cannot start though its fullest device has room: llama.cpp's layers or experts
    // in system RAM need more than it offers (unified memory has no separate system RAM).
    const hostShort = m.verdict === 'oom' && m.headroom_bytes >= 0 && m.host?.usable_bytes > 0 &&
      m.host.total_bytes > m.host.usable_bytes;
    const device = this.deviceSummary(r);
    LlmCalc.dom.textItems(ui.answers, 'li', [
      LlmCalc.i18n.sentence(this.lang, 'fit', { model: name, weights: r.weights.format, device: device,
        context: f.integer(this.shownContext()), verdict: t(m.verdict).toLowerCase(),
        free: f.gib(Math.abs(hostShort ? m.host.total_bytes - m.host.usable_bytes : m.headroom_bytes)),
        short: m.headroom_bytes < 0, host_short: hostShort }),
      LlmCalc.i18n.sentence(this.lang, 'context', { max: f.integer(m.max_context_tokens), native: f.integer(r.model.max_context_tokens) }),
      // Speeds only for a setup that runs; the time to first token only where the device has a
      // compute figure.
      !runs ? t('no_speed')
        : LlmCalc.i18n.sentence(this.lang, r.prefill.ttft_s > 0 ? 'speed' : 'speed_no_ttft', {
          decode: f.speed(r.decode.tokens_per_s), low: f.speed(r.decode.low), high: f.speed(r.decode.high),
          ttft: f.seconds(r.prefill.ttft_s), prompt: f.integer(this.state.prompt) }),
    ]);
    ui.verdict.className = 'verdict ' + m.verdict;
    // The bar's five segments, made once and resized.
    [['weights_part', m.weights_bytes, 'w'], ['kv_part', m.kv_cache_bytes, 'k'],
     ['overhead_part', m.overhead_bytes, 'o'], ['projector_part', projector, 'p'],
     ['free_part', Math.max(0, m.usable_bytes - used), 'f']]
      .forEach((part, i) => {
        const segment = ui.bar.children[i] || ui.bar.appendChild(LlmCalc.dom.el('span', { class: 'seg ' + part[2] }));
        const title = t(part[0]) + ': ' + f.gib(part[1]);
        const width = (100 * part[1] / scale).toFixed(2) + '%';
        if (segment.title !== title) segment.title = title;
        if (segment.style.width !== width) segment.style.width = width;
      });
    ui.bar.setAttribute('aria-label', t('total') + ' ' + f.gib(m.total_bytes) + ' / ' + f.gib(m.usable_bytes));

    const projectorRows = projector > 0 ? [[t('projector_part'), f.gib(projector) + ' · ' + f.gb(projector), 'projector']] : [];
    fillList(ui.figures, [
      [t('weights_part'), f.gib(m.weights_bytes) + ' · ' + f.gb(m.weights_bytes), 'weights'],
      [t('kv_part'), f.gib(m.kv_cache_bytes) + ' · ' + f.gb(m.kv_cache_bytes), 'kv'],
      [t('overhead_part'), f.gib(m.overhead_bytes) + ' · ' + f.gb(m.overhead_bytes), 'overhead'],
      ...projectorRows,
      [t('total'), f.gib(m.total_bytes) + ' · ' + f.gb(m.total_bytes), 'total'],
      // With several devices the sum, said as such, and what one device offers (issue #21 item 10).
      m.per_device.length > 1
        ? [t('usable_all'), f.gib(m.usable_bytes) + ' · ' + f.gb(m.usable_bytes) + ' (' + m.per_device.length + ' ' +
           t('devices_word') + ', ' + f.gib(Math.min(...m.per_device.map((d) => d.usable_bytes))) + ' ' + t('smallest') + ')', 'usable']
        : [t('usable'), f.gib(m.usable_bytes) + ' · ' + f.gb(m.usable_bytes), 'usable'],
      [t('headroom'), f.gib(m.headroom_bytes) + ' · ' + f.gb(m.headroom_bytes), 'headroom'],
      [t('max_context'), f.integer(m.max_context_tokens) + ' tokens', 'max-context'],
      [t('bits_per_weight'), f.number(r.weights.bits_per_weight, 2), 'bpw'],
    ].concat(placementRows(m, r, this.lang, t, f, this.machines.deviceName)));
    const release = r.engine || {};
    ui.engineRelease.textContent = release.version ? ' ' + t('engine_release') + ' ' + release.version +
      (release.date ? ' (' + release.date + ')' : '') + (release.runs ? ' · ' + release.runs : '') : '';
    const notRunning = '— (' + t('does_not_run') + ')';
    const prefillKnown = r.prefill.tokens_per_s > 0;
    fillList(ui.speed, [
      [t('decode'), !runs ? notRunning : f.speed(r.decode.tokens_per_s) + ' ' + t('tokens_per_s') + ' (' +
        t('band') + ' ' + f.speed(r.decode.low) + '–' + f.speed(r.decode.high) + ') · ' +
        (r.decode.bound === 'compute' ? t('compute_bound') : t('memory_bound')), 'decode'],
    ].concat(runs && r.scenario.batch > 1 ? [
      // Several sequences: each one's speed above, all of them together here (the engine's count:
      // Ollama serves some architectures one at a time, warning ollama_parallel_one).
      [t('decode_total'), f.speed(r.decode.aggregate_tokens_per_s) + ' ' + t('tokens_per_s') + ' (' +
        r.scenario.batch + ' ' + t('sequences_word') + ')', 'decode-total']] : []).concat([
      [t('prefill'), !runs ? notRunning : prefillKnown ? f.speed(r.prefill.tokens_per_s) + ' ' + t('tokens_per_s')
        : '— (' + t('no_compute') + ')', 'prefill'],
      [t('ttft'), !runs ? notRunning : r.prefill.ttft_s > 0 ? f.seconds(r.prefill.ttft_s) + ' ' + t('seconds')
        : '— (' + t('no_compute') + ')', 'ttft'],
    ]));
    this.stream.update(runs ? r.decode.tokens_per_s : 0, r.prefill.ttft_s);
    const card = r.model;
    const first = card.layer_groups.find((g) => g.q_heads > 0) || {};
    const p = r.params;
    fillList(ui.arch, [
      [t('params_total'), f.integer(p.total) + ' (' + f.params(p.total) + ')', 'params-total'],
      [t('params_active'), f.integer(p.active) + ' (' + f.params(p.active) + ')', 'params-active'],
      [t('layers'), f.integer(card.layers), 'layers'],
      [t('hidden'), f.integer(card.hidden_size), 'hidden'],
      [t('heads'), f.integer(first.q_heads) + ' / ' + f.integer(first.kv_heads) + ' / ' + f.integer(first.head_dim_k), 'heads'],
      [t('vocab'), f.integer(card.vocab_size), 'vocab'],
      [t('native_limit'), f.integer(card.max_context_tokens) + ' tokens', 'native-context'],
      [t('kv_per_token'), f.integer(m.kv_cache.bytes_per_token), 'kv-per-token'],
    ]);
    const windowOf = (kind) => {
      const group = card.layer_groups.find((g) => g.attention === kind && g.window_tokens);
      return group ? ' (' + f.integer(group.window_tokens) + ')' : '';
    };
    const moeGroup = card.layer_groups.find((g) => g.mlp === 'moe');
    const line = (label, counts, suffix) => Object.keys(counts).map((kind) =>
      counts[kind] + ' × ' + kind + (suffix ? suffix(kind) : '')).join(' · ');
    LlmCalc.dom.textItems(ui.layers, 'li', [
      t('attention_kinds') + ': ' + line('attention', card.layer_counts.attention, windowOf),
      'MLP: ' + line('mlp', card.layer_counts.mlp, (kind) => kind === 'moe' && moeGroup
        ? ' (' + moeGroup.experts_active + '/' + moeGroup.experts + ' experts)' : ''),
      t('breakdown') + ': ' + [['embedding', p.embedding], ['output_head', p.output_head],
        ['attention', p.attention], ['mlp_dense', p.mlp_dense], ['experts_routed', p.experts_routed],
        ['experts_shared', p.experts_shared], ['router', p.router], ['recurrent', p.recurrent],
        ['norms', p.norms], ['vision', p.vision], ['audio', p.audio], ['projector', p.projector], ['mtp', p.mtp]]
        .filter((part) => part[1] > 0).map((part) => part[0] + ' ' + f.params(part[1])).join(' · '),
    ]);
    if (quick) this.schedulePanels();
    else this.renderPanels(r);
    this.scheduleExplore();
    renderMath(ui.math, m.math, t, f);
  }

  // The cost, fine-tune and command panels of an answer.
  renderPanels(r) {
    const t = this.t.bind(this);
    const f = LlmCalc.i18n.formatter(this.lang);
    const ui = this.ui;
    const m = r.memory;
    const c = r.cost;
    const usd = (v) => (typeof v === 'number' ? '$' + f.number(v, v < 10 ? 2 : 0) : '—');
    const offer = c.rent.offer;
    const api = c.api.price;
    fillList(ui.cost, [
      [t('own_per_million'), usd(c.own.usd_per_million_tokens) + ' ' + t('one_sequence') + ' · ' +
        usd(c.own.usd_per_million_tokens_concurrent) + ' ' + t('at_once').replace('{n}', c.assumptions.concurrency), 'cost-own'],
      [t('rent_per_million'), offer ? usd(c.rent.usd_per_million_tokens) + ' (' + offer.provider + ', ' +
        usd(offer.usd_per_hour) + '/h)' : '—', 'cost-rent'],
      [t('api_per_million'), api ? usd(api.usd_per_million_output_tokens) + ' (' + api.provider + ')' : '—', 'cost-api'],
      [t('monthly'), usd(c.own.monthly_usd) + ' / ' + usd(c.rent.monthly_usd) + ' / ' + usd(c.api.monthly_usd), 'cost-monthly'],
      [t('break_even'), c.break_even_months_vs_rent ? f.number(c.break_even_months_vs_rent, 1) + ' ' + t('months') : '—', 'cost-break-even'],
    ]);
    LlmCalc.renderCostChart(ui.costChart, c, t, f);
    const usable = m.per_device.length ? m.per_device[0].usable_bytes : m.usable_bytes;
    fillList(ui.finetune, ['full', 'lora', 'qlora'].map((method) => {
      const ft = r.finetune[method];
      return [t('ft_' + method), f.gib(ft.total_bytes) + ' ' + t('per_gpu') + ' · ' +
        (ft.total_bytes <= usable ? t('fits_device') : t('oom')) + ' (' + t('ft_weights') + ' ' + f.gib(ft.weights_bytes) +
        ', ' + t('ft_optimizer') + ' ' + f.gib(ft.optimizer_bytes + ft.gradients_bytes + ft.master_weights_bytes) +
        ', ' + t('ft_activations') + ' ' + f.gib(ft.activations_bytes) + ')' +
        (ft.recommended_device ? ' · ' + t('rec_device') + ': ' + ft.recommended_device.name : ''), 'ft-' + method];
    }));
    renderCommands(ui.commands, r.commands, this.state.engine === 'transformers' ? '' : this.state.engine, t);
  }
}

// Each engine's command, the selected engine's first; an engine that cannot run the selection
// says why. A re-render with the same engines in the same shape only updates the texts.
function renderCommands(container, commands, selected, t) {
  const engines = Object.keys(commands).sort((a, b) => (b === selected) - (a === selected));
  const textOf = (entry) => (entry.nodes ? machineCommands(entry, t) : entry.command) +
    (entry.modelfile ? '\n\n# Modelfile\n' + entry.modelfile : '');
  const shape = (entry) => [!!entry.unavailable, !!entry.notes].join();
  const blocks = container.children;
  const same = blocks.length === engines.length && engines.every((engine, i) =>
    blocks[i].getAttribute('data-engine') === engine && blocks[i].getAttribute('data-shape') === shape(commands[engine]));
  if (same) {
    engines.forEach((engine, i) => {
      const entry = commands[engine];
      const block = blocks[i];
      const pre = block.querySelector('pre');
      const text = textOf(entry);
      if (pre.textContent !== text) pre.textContent = text;
      const cannot = block.querySelector('.cannot-run');
      if (cannot) cannot.textContent = t('cannot_run') + ': ' + entry.unavailable;
      const notes = block.querySelector('.notes');
      if (notes) notes.textContent = entry.notes;
    });
    return;
  }
  LlmCalc.dom.clear(container);
  engines.forEach((engine) => {
    const entry = commands[engine];
    const pre = LlmCalc.dom.el('pre', { text: textOf(entry) });
    const copy = LlmCalc.dom.el('button', { type: 'button', class: 'copy', text: t('copy'),
                                            'aria-label': t('copy') + ' ' + engine });
    // Said beside the button that was pressed (issue #21 item 8); copies what the block shows.
    const said = LlmCalc.dom.el('span', { class: 'status', role: 'status', 'data-testid': 'copy-status' });
    copy.addEventListener('click', () => copyText(pre.textContent, said, t('copied_command'), t('copy_unavailable')));
    container.appendChild(LlmCalc.dom.el('div', { class: 'command' + (entry.unavailable ? ' unavailable' : ''),
                                                  'data-engine': engine, 'data-shape': shape(entry) },
      LlmCalc.dom.el('div', { class: 'row' }, LlmCalc.dom.el('strong', { text: engine }), said, copy),
      entry.unavailable ? LlmCalc.dom.el('p', { class: 'hint cannot-run', 'data-testid': 'cannot-run', text: t('cannot_run') + ': ' + entry.unavailable }) : null,
      pre,
      entry.notes ? LlmCalc.dom.el('p', { class: 'hint notes', text: entry.notes }) : null));
  });
}

// "<formula name>: <formula> = <bytes> B" per line of the memory math.
function renderMath(list, math, t, f) {
  if (list.children.length !== math.length) {
    LlmCalc.dom.clear(list);
    math.forEach(() => list.appendChild(LlmCalc.dom.el('li', {}, LlmCalc.dom.el('strong'), '')));
  }
  math.forEach((line, i) => {
    const item = list.children[i];
    const name = t('math_' + line.name) + ': ';
    const value = line.formula + ' = ' + f.integer(line.bytes) + ' B';
    if (item.firstChild.textContent !== name) item.firstChild.textContent = name;
    if (item.lastChild.textContent !== value) item.lastChild.textContent = value;
  });
}

// <llm-calc key="value" ...> with the settings that differ from the defaults; values are the
// state's own (ids, numbers, share-link text), quoted and escaped for an attribute.
function embedMarkup(state) {
  const escape = (value) => String(value).replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  const attributes = S.KEYS.filter((key) => state[key] !== S.DEFAULTS[key] && state[key] !== '')
    .map((key) => ' ' + key + '="' + escape(state[key]) + '"').join('');
  return '<llm-calc' + attributes + '></llm-calc>';
}

// Each machine's commands, one block per machine: "# On <head-ip> (machine 0, head)".
function machineCommands(entry, t) {
  return entry.nodes.map((node) => '# ' + t('run_on') + ' ' + node.address + ' (' + t('machine_short') + ' ' +
    node.node + ', ' + node.role + ')\n' + node.commands.join('\n') +
    (node.without_ray ? '\n# without Ray: ' + node.without_ray : '') +
    (node.docker ? '\n# container: ' + node.docker : '')).join('\n\n');
}

// Where the parts sit: each device, the system RAM, and what llama.cpp's --fit chose.
function placementRows(m, r, lang, t, f, deviceName) {
  const rows = [];
  const fit = m.fit;
  if (fit && fit.status === 'offload') {
    rows.push([t('placement'), LlmCalc.i18n.sentence(lang, 'fit_offload', { gpu: fit.gpu_layers,
      all: fit.slots, experts: fit.host_expert_layers.length, host: f.gib(m.host.weights_bytes) }), 'placement']);
  } else if (fit && fit.auto_slots > 0 && (fit.status === 'fits' || fit.status === 'context_reduced')) {
    rows.push([t('placement'), LlmCalc.i18n.sentence(lang, 'fit_slots', { slots: fit.auto_slots,
      cache: f.integer(fit.cache_tokens), context: f.integer(fit.context_tokens) }), 'placement']);
  } else if (fit && fit.status === 'context_reduced') {
    rows.push([t('placement'), LlmCalc.i18n.sentence(lang, 'fit_context', { context: f.integer(fit.context_tokens) }), 'placement']);
  }
  if (m.per_device.length > 1 || m.host.layers > 0 || m.host.expert_layers > 0) {
    const machines = m.per_device.some((d) => d.node > 0);
    m.per_device.forEach((d, i) => rows.push([t('device') + ' ' + (i + 1) + ' · ' + deviceName(d.device) +
      (machines ? ' · ' + t('machine_short') + ' ' + d.node : ''), f.gib(d.total_bytes) + ' / ' +
      f.gib(d.usable_bytes) + ' · ' + d.layers + ' ' + t('layers_short'), 'device-' + i]));
  }
  if (m.host.prompt_cache_limit_bytes > 0 || m.host.layers > 0) {
    rows.push([t('system_ram'), LlmCalc.i18n.sentence(lang, 'host_parts', { total: f.gib(m.host.total_bytes),
      layers: m.host.layers, experts: m.host.expert_layers,
      checkpoints: m.host.checkpoint_bytes > 0 ? f.gib(m.host.checkpoint_bytes) : '',
      cache: f.gib(m.host.prompt_cache_limit_bytes),
      lazy: m.host.lazy_weights_bytes > 0 ? f.gib(m.host.lazy_weights_bytes) : '' }), 'host']);
  }
  return rows;
}

// 16-bit formats are spelled as each file kind spells them; the menu says which is which
// (issue #21 item 13): llama.cpp's F16 / F32 GGUF types, the checkpoints' FP16 / BF16.
const FILE_KIND = { F16: ' (GGUF)', F32: ' (GGUF)', FP16: ' (safetensors)', BF16: ' (safetensors)' };
function formatLabel(format) {
  return format + (FILE_KIND[format] || '');
}

// A keystroke usually changes only the figures: the items are rebuilt only when the list's
// entries change, else their texts are updated where they differ from the rows last written
// (compared in script: reading each item's text back cost more than writing the few that change).
const writtenRows = new WeakMap();
function fillList(list, rows) {
  const written = writtenRows.get(list);
  writtenRows.set(list, rows);
  const same = written && written.length === rows.length && list.children.length === rows.length &&
    rows.every((row, i) => written[i][2] === row[2] && written[i][0] === row[0]);
  if (!same) {
    LlmCalc.dom.clear(list);
    rows.forEach((row) => {
      list.appendChild(LlmCalc.dom.el('div', { class: 'item', 'data-testid': row[2] },
        LlmCalc.dom.el('dt', { text: row[0] }), LlmCalc.dom.el('dd', { text: row[1] })));
    });
    return;
  }
  rows.forEach((row, i) => {
    if (written[i][1] !== row[1]) list.children[i].lastChild.textContent = row[1];
  });
}

LlmCalc.LlmCalcElement = LlmCalcElement;
