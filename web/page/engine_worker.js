// The engine, in a Web Worker: the WebAssembly search (core.js) stepped by this loop, and
// the exported network run by onnxruntime-web (its wasm build): on THREADS threads where the
// page is cross-origin isolated (served with COOP/COEP headers: scripts/serve_web.py), else
// on one (SharedArrayBuffer, which its threads need, exists only there). Each search
// round collects a batch of leaves (up to the search's leaves per batch), runs the network
// on the whole batch, and hands the evaluations back, until the turn's search is done.
//
// Messages: {id, type, ...args} in; {id, ok: true, result} or {id, ok: false, error} out.
// Types: init, loadModel, search, cancel, evaluateSample, bench (see the handlers below).
import { loadCore, NUM_PLANES } from './core.js';
import { checkDescription, OUTPUT_NAMES } from './model_files.js';
import * as ort from './vendor/onnxruntime-web/ort.wasm.min.mjs';

ort.env.wasm.wasmPaths = new URL('./vendor/onnxruntime-web/', import.meta.url).href;
// Threads for the network: the cores the browser reports, at most MAX_THREADS, where the
// page is cross-origin isolated; else 1.
const MAX_THREADS = 8;
const ISOLATED = self.crossOriginIsolated === true;
const THREADS = ISOLATED ? Math.max(1, Math.min(navigator.hardwareConcurrency || 1, MAX_THREADS)) : 1;
ort.env.wasm.numThreads = THREADS;
ort.env.wasm.proxy = false;
ort.env.logLevel = 'error';

let core = null;
let net = null;  // {session, description, inputName}
let searcher = null;  // {key, search}: kept between turns of a game (tree reuse)
const cancelled = new Set();
let lastYield = 0;

// Lets queued messages (cancel) in every ~30 ms.
async function maybeYield() {
  if (performance.now() - lastYield < 30) return;
  await new Promise((resolve) => setTimeout(resolve, 0));
  lastYield = performance.now();
}

// The network on `count` encoded positions; `all` also fetches the aux head.
async function runNetwork(planes, count, canvas, all = false) {
  const x = new ort.Tensor('float32', planes, [count, NUM_PLANES, canvas, canvas]);
  const fetches = all ? OUTPUT_NAMES : OUTPUT_NAMES.slice(0, 2);
  const out = await net.session.run({ [net.inputName]: x }, fetches);
  return {
    logits: out.policy_logits.data,
    values: out.value.data,
    aux: all ? out.aux_logits.data : null,
  };
}

function needNetwork() {
  if (!net) throw new Error('no model is loaded');
}

const handlers = {
  async init() {
    core = await loadCore();
    return { info: core.info(), threads: THREADS, isolated: ISOLATED };
  },

  // {description (parsed model.json), onnx (ArrayBuffer)} -> what the page shows.
  async loadModel({ description, onnx }) {
    const problem = checkDescription(description, core.info());
    if (problem) throw new Error(problem);
    let session;
    try {
      session = await ort.InferenceSession.create(new Uint8Array(onnx),
                                                  { executionProviders: ['wasm'] });
    } catch (e) {
      throw new Error(`model.onnx could not be loaded by onnxruntime-web: ${e.message || e} ` +
                      '(write it with scripts/export_onnx.py)');
    }
    const inputName = description.input.name;
    if (JSON.stringify(session.inputNames) !== JSON.stringify([inputName]) ||
        JSON.stringify(session.outputNames) !== JSON.stringify(OUTPUT_NAMES)) {
      throw new Error(`model.onnx does not match model.json: inputs ${session.inputNames}, ` +
                      `outputs ${session.outputNames}`);
    }
    if (net) await net.session.release();
    net = { session, description, inputName };
    searcher = null;
    return { rules: description.rules, size: description.size };
  },

  // A full-turn search of the position after `record`. evaluator: 'network', 'uniform' or
  // 'hash:SEED' (deterministic, for tests); algorithm 'puct', 'gumbel' or 'uct'. `game`
  // identifies the game: a new one gets a fresh searcher (same seed, same tree state).
  async search({ id, rules, size, record, visits, timeMs, candidates, algorithm, leaves, seed,
                 evaluator, game }) {
    const network = algorithm !== 'uct' && evaluator === 'network';
    if (network) needNetwork();
    const key = JSON.stringify([algorithm, leaves, seed, evaluator, game]);
    if (!searcher || searcher.key !== key) {
      if (searcher) searcher.search.free();
      searcher = { key, search: core.newSearch(algorithm, leaves, seed, evaluator) };
    }
    const s = searcher.search;
    const error = s.begin(rules, size, record, visits, timeMs, candidates);
    if (error) throw new Error(error);
    let rounds = 0;
    let evaluated = 0;
    for (;;) {
      await maybeYield();
      if (cancelled.delete(id)) {
        s.abandon();
        throw new Error('cancelled');
      }
      const { count, planes } = s.collect(network ? size : 0);
      if (count === 0) break;
      if (network) {
        const out = await runNetwork(planes, count, size);
        s.provideNetwork(out.logits, out.values);
      } else {
        s.provideBuiltin();
      }
      ++rounds;
      evaluated += count;
    }
    cancelled.delete(id);
    const result = s.result();
    result.rounds = rounds;
    result.mean_batch = rounds ? evaluated / rounds : 0;
    return result;
  },

  async cancel({ target }) {
    cancelled.add(target);
    return true;
  },

  // The network on `count` positions from seeded random games (model::SamplePositions),
  // encoded on `canvas`: hashes, planes, raw outputs and the decoded legal softmax.
  async evaluateSample({ rules, size, count, seed, canvas }) {
    needNetwork();
    const batch = core.newBatch(rules, size, count, seed);
    try {
      const planes = batch.encode(0, count, canvas);
      const out = await runNetwork(planes, count, canvas, true);
      const decoded = batch.decode(out.logits, out.values, count);
      return {
        hashes: batch.hashes(),
        planes,
        policy_logits: out.logits,
        value: out.values,
        aux_logits: out.aux,
        policy: decoded.policy,
        decoded_value: decoded.values,
      };
    } finally {
      batch.free();
    }
  },

  // Evaluations per second through the page's whole path (encode in wasm, onnxruntime-web,
  // legal softmax in wasm) at each batch size, as `veletas bench nn` measures LibTorch
  // (positions of model::SamplePositions(rules, size, 1024, 1), 2 warm-up calls, at least
  // `seconds` and 3 calls); and the tree's speed with a zero-cost evaluator as
  // `veletas bench search` (search::BenchTree).
  async bench({ batches, seconds, tree }) {
    const result = { evals: [], tree: [] };
    if (batches && batches.length) {
      needNetwork();
      const { rules, size } = net.description;
      const pool = core.newBatch(rules, size, 1024, 1);
      let next = 0;
      const step = async (b) => {
        if (next + b > 1024) next = 0;
        const planes = pool.encode(next, b, size);
        next += b;
        const out = await runNetwork(planes, b, size);
        pool.decode(out.logits, out.values, b);
      };
      for (const b of batches) {
        for (let i = 0; i < 2; ++i) await step(b);
        const start = performance.now();
        let calls = 0;
        let elapsed = 0;
        do {
          await step(b);
          ++calls;
          elapsed = (performance.now() - start) / 1000;
        } while (calls < 3 || elapsed < seconds);
        result.evals.push({ batch: b, positions_per_second: (calls * b) / elapsed });
      }
      pool.free();
    }
    for (const t of tree || []) {
      result.tree.push({ ...t, ...core.benchTree(t.rules, t.size, t.algorithm, t.simulations,
                                                 t.positions, t.leaves) });
    }
    return result;
  },
};

async function handle(data) {
  const { id, type } = data;
  try {
    const handler = handlers[type];
    if (!handler) throw new Error(`unknown request ${type}`);
    const result = await handler(data);
    self.postMessage({ id, ok: true, result });
  } catch (e) {
    self.postMessage({ id, ok: false, error: e && e.message ? e.message : String(e) });
  }
}

// Requests run one after the other (they share the searcher and the session); a cancel is
// handled at once, and seen by the search it names at its next round.
let queue = Promise.resolve();
self.onmessage = (event) => {
  if (event.data.type === 'cancel') {
    handle(event.data);
  } else {
    queue = queue.then(() => handle(event.data));
  }
};
