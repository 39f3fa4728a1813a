// The project's C++ (rules core, full-turn search, feature encoding) compiled to
// WebAssembly, behind the C API of web/api.h. Used by the page (games) and by the engine
// worker (searches, batches); this file only converts arguments and results.
import createVeletasCore from './veletas_core.js';

export const NUM_PLANES = 20;

export async function loadCore() {
  const module = await createVeletasCore();
  return new Core(module);
}

export class Core {
  constructor(module) {
    this.m = module;
    this.infoCache = JSON.parse(this.call('vz_info', 'string', []));
  }

  // Calls C function `name` with `args` (numbers and strings); `returns` is 'string',
  // 'number' or null. Strings are copied into the module for the call.
  call(name, returns, args) {
    const m = this.m;
    const allocated = [];
    const raw = args.map((a) => {
      if (typeof a !== 'string') return a;
      const n = m.lengthBytesUTF8(a) + 1;
      const p = m._malloc(n);
      m.stringToUTF8(a, p, n);
      allocated.push(p);
      return p;
    });
    try {
      const r = m['_' + name](...raw);
      return returns === 'string' ? m.UTF8ToString(r) : r;
    } finally {
      for (const p of allocated) m._free(p);
    }
  }

  // {feature_version, planes: [names], max_size, sizes, rules}
  info() { return this.infoCache; }

  // A new game from the empty board; throws on an unsupported game.
  newGame(rules, size) {
    const ptr = this.call('vz_game_new', 'number', [rules, size]);
    if (!ptr) throw new Error(`unsupported game: ${rules} ${size}x${size}`);
    return new Game(this, ptr);
  }

  // A stepped full-turn searcher (see vz_search_new); throws on bad settings.
  newSearch(algorithm, leaves, seed, evaluator) {
    const ptr = this.call('vz_search_new', 'number', [algorithm, leaves, seed, evaluator]);
    if (!ptr) throw new Error(`bad search settings: ${algorithm}, ${leaves} leaves, ${evaluator}`);
    return new Search(this, ptr);
  }

  // `count` positions from seeded random games (model::SamplePositions).
  newBatch(rules, size, count, seed) {
    const ptr = this.call('vz_batch_new', 'number', [rules, size, count, seed]);
    if (!ptr) throw new Error(`bad batch: ${rules} ${size} ${count} ${seed}`);
    return new Batch(this, ptr);
  }

  // search::BenchTree: the tree's own speed with a zero-cost evaluator.
  benchTree(rules, size, algorithm, simulations, positions, leaves) {
    return JSON.parse(this.call('vz_bench_tree', 'string',
                                [rules, size, algorithm, simulations, positions, leaves]));
  }

  // Copies `count` floats from the module's memory at `ptr`.
  floats(ptr, count) {
    return new Float32Array(this.m.HEAPF32.buffer, ptr, count).slice();
  }

  // Copies `values` into the module's memory at `ptr`.
  setFloats(ptr, values) {
    new Float32Array(this.m.HEAPF32.buffer, ptr, values.length).set(values);
  }

  // A scratch buffer of at least `count` floats in the module's memory, kept per `key`.
  scratch(key, count) {
    this.scratches = this.scratches || {};
    const s = this.scratches[key];
    if (s && s.count >= count) return s.ptr;
    if (s) this.m._free(s.ptr);
    const ptr = this.m._malloc(count * 4);
    this.scratches[key] = { ptr, count };
    return ptr;
  }
}

// A game and the turn being clicked (vz_game_*). Errors are returned as strings ('' = ok).
export class Game {
  constructor(core, ptr) { this.core = core; this.ptr = ptr; }
  free() { this.core.call('vz_game_free', null, [this.ptr]); this.ptr = 0; }
  load(record) { return this.core.call('vz_game_load', 'string', [this.ptr, record]); }
  play(move) { return this.core.call('vz_game_play', 'string', [this.ptr, move]); }
  choose(action) { return this.core.call('vz_game_choose', 'string', [this.ptr, action]); }
  resetTurn() { this.core.call('vz_game_reset_turn', null, [this.ptr]); }
  undo() { return this.core.call('vz_game_undo', 'number', [this.ptr]) === 1; }
  // The position before turn `ply`, or the current one with the clicked choices (-1).
  state(ply = -1) { return JSON.parse(this.core.call('vz_game_state', 'string', [this.ptr, ply])); }
  moves() { return JSON.parse(this.core.call('vz_game_moves', 'string', [this.ptr])); }
}

// A stepped full-turn search (vz_search_*).
export class Search {
  constructor(core, ptr) { this.core = core; this.ptr = ptr; }
  free() { this.core.call('vz_search_free', null, [this.ptr]); this.ptr = 0; }
  begin(rules, size, record, visits, timeMs, candidates) {
    return this.core.call('vz_search_begin', 'string',
                          [this.ptr, rules, size, record, visits, timeMs, candidates]);
  }
  // Collects leaves; with canvas > 0 also returns their encoded planes (a copy).
  collect(canvas) {
    const k = this.core.call('vz_search_collect', 'number', [this.ptr, canvas]);
    if (k === 0 || canvas <= 0) return { count: k, planes: null };
    const ptr = this.core.call('vz_search_planes', 'number', [this.ptr]);
    return { count: k, planes: this.core.floats(ptr, k * NUM_PLANES * canvas * canvas) };
  }
  provideNetwork(logits, values) {
    const lp = this.core.scratch('logits', logits.length);
    this.core.setFloats(lp, logits);
    const vp = this.core.scratch('values', values.length);
    this.core.setFloats(vp, values);
    this.core.call('vz_search_provide_network', null, [this.ptr, lp, vp]);
  }
  provideBuiltin() { this.core.call('vz_search_provide_builtin', null, [this.ptr]); }
  done() { return this.core.call('vz_search_done', 'number', [this.ptr]) === 1; }
  result() { return JSON.parse(this.core.call('vz_search_result', 'string', [this.ptr])); }
  abandon() { this.core.call('vz_search_abandon', null, [this.ptr]); }
}

// Positions from random games, encoded and decoded as the native evaluator does.
export class Batch {
  constructor(core, ptr) { this.core = core; this.ptr = ptr; }
  free() { this.core.call('vz_batch_free', null, [this.ptr]); this.ptr = 0; }
  // The planes of positions start .. start+count-1 on `canvas` (a copy).
  encode(start, count, canvas) {
    const n = this.core.call('vz_batch_encode', 'number', [this.ptr, start, count, canvas]);
    if (n === 0) throw new Error('vz_batch_encode: bad arguments');
    return this.core.floats(this.core.call('vz_batch_planes', 'number', [this.ptr]), n);
  }
  // The legal-action softmax (count rows of 101) and values of the encoded positions.
  decode(logits, values, count) {
    const lp = this.core.scratch('logits', logits.length);
    this.core.setFloats(lp, logits);
    const vp = this.core.scratch('values', values.length);
    this.core.setFloats(vp, values);
    this.core.call('vz_batch_decode', null, [this.ptr, lp, vp]);
    return {
      policy: this.core.floats(this.core.call('vz_batch_policy', 'number', [this.ptr]), count * 101),
      values: this.core.floats(this.core.call('vz_batch_values', 'number', [this.ptr]), count),
    };
  }
  hashes() { return JSON.parse(this.core.call('vz_batch_hashes', 'string', [this.ptr])); }
}
