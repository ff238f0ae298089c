// A second instance of the module in a dedicated worker, for the calls whose answers may come a
// moment later: the explore panels (matrix, charts, advice, device table) and the ranking of every
// model. They are computed off the page's thread, so a keystroke never waits behind them; the page
// only draws them. One worker per page, started once the settings rest after the first explore
// (which the page runs itself, so the live page takes over with every panel drawn); the element's
// first job ranks the catalog, so the caches a ranking builds (every model, the formats it walks)
// are warm before the reader asks for one. Where a worker cannot run (a host page's
// Content-Security-Policy without `worker-src blob:`, no Worker, a module that does not load or
// traps) the page makes these calls itself as before.
import { LlmCalc } from './00-namespace.mjs';

// The worker's program, serialized into its source after the module's glue; it must not refer
// to anything outside itself. Messages in: {options} once (the factory's options: the page's
// compiled module), then jobs {lane, id, method, parts, quiet}: a call of one of the module's JSON
// methods per part (explore: one section group of a state per part). Out: {ready},
// {lane, id, index, answer} per part (the envelope's JSON text) unless the job is quiet (a
// warm-up, whose answers no one reads), {failed}. A job is dropped between parts once a newer one
// in its lane (a client's method) arrived.
function workerProgram() {
  let core = null;
  let broken = false;
  let waiting = [];
  const latest = {};
  const run = function (job) {
    let index = 0;
    const step = function () {
      if (broken || latest[job.lane] !== job.id) return;
      let answer;
      try {
        answer = core[job.method](JSON.stringify(job.parts[index]));
      } catch (error) {
        broken = true;
        self.postMessage({ failed: String(error && error.message) });
        return;
      }
      if (!job.quiet) self.postMessage({ lane: job.lane, id: job.id, index: index, answer: answer });
      if (++index < job.parts.length) setTimeout(step, 0);
    };
    step();
  };
  self.onmessage = function (event) {
    const message = event.data;
    if (message.options) {
      const options = message.options;
      const compiled = options.wasmModule;
      options.instantiateWasm = function (imports, receive) {
        WebAssembly.instantiate(compiled, imports).then(function (instance) { receive(instance, compiled); });
        return {};
      };
      createLlmCalcCore(options).then(function (module) {
        core = module;
        self.postMessage({ ready: true });
        waiting.forEach(run);
        waiting = [];
      }, function (error) {
        broken = true;
        self.postMessage({ failed: String(error && error.message) });
      });
      return;
    }
    latest[message.lane] = message.id;
    if (core) run(message);
    else waiting = waiting.filter(function (job) { return job.lane !== message.lane; }).concat([message]);
  };
}

// Where the worker finds the module's glue: the inline script llm-calculator.html carries (its
// text goes into the worker's source), or the script a page loads by URL (imported by the worker).
function glueSource() {
  const inline = document.getElementById('llmcalc-core');
  if (inline) return { text: inline.textContent };
  const script = document.querySelector('script[src$="llmcalc_core.js"]');
  return script ? { url: script.src } : null;
}

class CoreWorker {
  constructor(worker) {
    this.worker = worker;
    this.ready = false;
    this.failed = false;
    this.jobs = {};  // per lane (a client's method): its latest job {id, onAnswer, onFailure}
    this.clients = 0;
    this.id = 0;
    worker.onmessage = (event) => this.receive(event.data);
    worker.onerror = (event) => {
      event.preventDefault();
      this.fail();
    };
  }

  // A client (one <llm-calc> element) calls call(method, parts, onAnswer(index, envelope),
  // onFailure()) for each new state; answers of its earlier calls of that method are dropped.
  // warm(method, parts) runs a call for the caches it fills, in a lane of its own, and nothing
  // comes back: a first rank's answer (about 100 KB of JSON) cost the page's thread 22 ms at 4x
  // CPU to receive and parse, in the first second after the page went live (issue #22).
  client() {
    const client = ++this.clients;
    const post = (lane, id, method, parts, quiet) => {
      this.worker.postMessage({ lane: lane, id: id, method: method, parts: parts, quiet: quiet });
    };
    return {
      usable: () => this.ready && !this.failed,
      call: (method, parts, onAnswer, onFailure) => {
        const lane = client + ' ' + method;
        const id = ++this.id;
        this.jobs[lane] = { id: id, onAnswer: onAnswer, onFailure: onFailure };  // before a failure can come
        post(lane, id, method, parts, false);
      },
      warm: (method, parts) => { post(client + ' warm ' + method, ++this.id, method, parts, true); },
      cancel: (method) => { delete this.jobs[client + ' ' + method]; },
    };
  }

  receive(message) {
    if (message.ready) this.ready = true;
    if (message.failed !== undefined) this.fail();
    const job = this.jobs[message.lane];
    if (!job || job.id !== message.id) return;
    job.onAnswer(message.index, JSON.parse(message.answer));
  }

  // The pending jobs go back to their clients, which compute them on the page's thread.
  fail() {
    if (this.failed) return;
    this.failed = true;
    this.worker.terminate();
    const jobs = this.jobs;
    this.jobs = {};
    Object.keys(jobs).forEach((lane) => jobs[lane].onFailure());
  }
}

let shared = null;

// The page's worker (started on the first call), or null where none can run. `options` are the
// factory's options the page's own instance was made with: its compiled module, which the page
// has wherever it finds the glue (web/src/10-core.mjs compiledModule).
function coreWorker(options) {
  if (shared !== null) return shared || null;
  shared = false;
  const glue = glueSource();
  if (!glue || !options.wasmModule || typeof Worker !== 'function' || typeof Blob !== 'function') return null;
  const source = (glue.url ? 'importScripts(' + JSON.stringify(glue.url) + ');\n' : glue.text + '\n') +
    '(' + workerProgram.toString() + ')();\n';
  let worker;
  try {
    worker = new Worker(URL.createObjectURL(new Blob([source], { type: 'text/javascript' })));
  } catch (error) {
    return null;  // refused by the page's policy
  }
  shared = new CoreWorker(worker);
  // The page's compiled module goes with the options (a WebAssembly.Module is shared, not copied).
  worker.postMessage({ options: Object.assign({}, options) });
  return shared;
}

LlmCalc.coreWorker = coreWorker;
