// The page's side of the engine worker (engine_worker.js): requests as promises.
export class Engine {
  constructor() {
    this.worker = new Worker(new URL('./engine_worker.js', import.meta.url), { type: 'module' });
    this.nextId = 1;
    this.pending = new Map();
    this.worker.onmessage = (event) => {
      const { id, ok, result, error } = event.data;
      const p = this.pending.get(id);
      if (!p) return;
      this.pending.delete(id);
      if (ok) p.resolve(result); else p.reject(new Error(error));
    };
    this.threads = 1;  // the network's threads and whether the page is cross-origin isolated
    this.isolated = false;  // (set from init())
    this.onfailure = null;
    this.worker.onerror = (event) => {
      const message = `the engine worker failed: ${event.message || 'error'}`;
      for (const p of this.pending.values()) p.reject(new Error(message));
      this.pending.clear();
      if (this.onfailure) this.onfailure(message);
    };
  }

  // Sends {type, ...args}; resolves with the worker's result. `onId` receives the request
  // id (to cancel it).
  request(type, args = {}, onId = null) {
    const id = this.nextId++;
    if (onId) onId(id);
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      const transfer = args.onnx instanceof ArrayBuffer ? [args.onnx] : [];
      this.worker.postMessage({ ...args, id, type }, transfer);
    });
  }

  init() { return this.request('init'); }
  loadModel(description, onnx) { return this.request('loadModel', { description, onnx }); }
  // A full-turn search (see engine_worker.js); `onId` receives its id for cancel().
  search(args, onId) { return this.request('search', args, onId); }
  cancel(target) { return this.request('cancel', { target }); }
  // Cancels the search of `handle` ({id}, filled by search's onId), if there is one.
  cancelSearch(handle) {
    if (handle && handle.id) this.cancel(handle.id);
  }
  evaluateSample(args) { return this.request('evaluateSample', args); }
  bench(args) { return this.request('bench', args); }
}
