// The page: loads the WebAssembly core (rules for the board) and the engine worker, the
// model (a shipped network from the Network menu, a URL or local files), and switches
// between Play and Replay. Without model=URL the shipped network of the Play panel's game,
// if there is one, is loaded at start.
//
// URL parameters: model=URL (an export directory to load at start), networks=URL (the list
// of shipped networks, default networks/networks.json; "none": no menu), mode=replay,
// seed=N (the engine's seed, default 1), leaves=N (leaves per batch, default 8),
// delay=MS (pause between moves of engine against engine, default 300),
// evaluator=hash:N (the deterministic test evaluator instead of the network).
// window.veletas offers the same objects to scripts (tests, benchmarks).
import { loadCore } from './core.js';
import { Engine } from './engine.js';
import { fetchModel, readModelFiles } from './model_files.js';
import { fetchNetworkList, networkFor, networkLabel, networkUrl } from './networks.js';
import { PlayMode } from './play.js';
import { ReplayMode } from './replay.js';

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);

function numberParam(name, fallback, lo, hi) {
  const v = Number(params.get(name) ?? fallback);
  return Number.isInteger(v) && v >= lo && v <= hi ? v : fallback;
}

class App {
  constructor(core, engine) {
    this.core = core;
    this.engine = engine;
    this.mode = 'play';
    this.model = null;  // {description, name}
    this.seed = numberParam('seed', 1, 0, 2 ** 52);
    this.leaves = numberParam('leaves', 8, 1, 256);
    this.watchDelay = numberParam('delay', 300, 0, 60000);
    this.testEvaluator = /^hash:\d{1,18}$/.test(params.get('evaluator') || '') ?
        params.get('evaluator') : null;
    this.play = new PlayMode(this);
    this.replay = new ReplayMode(this);
    $('tab-play').onclick = () => this.setMode('play');
    $('tab-replay').onclick = () => this.setMode('replay');
    $('model-url-form').onsubmit = (e) => { e.preventDefault(); this.loadModelUrl($('model-url').value); };
    $('model-files').onchange = (e) => this.loadModelFiles(e.target.files);
    $('network-menu').onchange = () => this.loadShippedNetwork($('network-menu').value);
    this.networks = [];
    const list = params.get('networks') || 'networks/networks.json';
    this.networksUrl = list === 'none' ? null : new URL(list, location.href).href;
    $('algorithm').onchange = () => this.updateEngineChoice();
    engine.onfailure = (message) => { $('engine-status').textContent = message; };
    this.updateEngineChoice();
  }

  // The engine settings for a search of a `rules` `size` game.
  searchArgs(rules, size) {
    let algorithm = $('algorithm').value;
    let evaluator = 'network';
    if (this.testEvaluator && algorithm !== 'uct') evaluator = this.testEvaluator;
    else if (!this.model) algorithm = 'uct';
    const n = Number($('strength').value);
    const amount = Number.isInteger(n) && n >= 1 ? Math.min(n, 1000000) : 200;
    const time = $('strength-unit').value === 'time';
    return { rules, size, algorithm, evaluator, leaves: this.leaves, seed: this.seed,
             visits: time ? 0 : amount, timeMs: time ? amount : 0, candidates: 5 };
  }

  // The game of the loaded model, or the one chosen on the Play panel.
  preferredGame() {
    return { rules: $('rules').value, size: Number($('size').value) };
  }

  updateEngineChoice() {
    const network = !!this.model || !!this.testEvaluator;
    for (const o of $('algorithm').options) o.disabled = o.value !== 'uct' && !network;
    if (!network) $('algorithm').value = 'uct';
    // A network plays the game it was trained for.
    $('rules').disabled = !!this.model && $('algorithm').value !== 'uct';
    $('size').disabled = $('rules').disabled;
    const what = $('algorithm').value === 'uct' ? 'UCT with random playouts' :
        this.testEvaluator ? `the test evaluator ${this.testEvaluator}` : 'the network';
    $('engine-status').textContent = `engine: ${what} · ${this.threadsNote()}`;
  }

  // Which threads the network runs on, and why.
  threadsNote() {
    const n = this.engine.threads;
    return this.engine.isolated ?
        `onnxruntime-web on ${n} thread${n === 1 ? '' : 's'} (cross-origin isolated)` :
        'onnxruntime-web on 1 thread (not cross-origin isolated: serve the page with ' +
        'scripts/serve_web.py for more)';
  }

  setMode(mode) {
    this.mode = mode;
    $('tab-play').classList.toggle('active', mode === 'play');
    $('tab-replay').classList.toggle('active', mode === 'replay');
    $('play-panel').hidden = mode !== 'play';
    $('replay-panel').hidden = mode !== 'replay';
    $('turn-controls').hidden = mode !== 'play';
    if (mode === 'play') this.play.render(); else this.replay.render();
  }

  async installModel(loader) {
    $('model-error').textContent = '';
    $('model-info').textContent = 'loading the model…';
    document.body.dataset.model = 'loading';
    try {
      const { description, onnx, name } = await loader();
      await this.engine.loadModel(description, onnx);
      this.model = { description, name };
      const a = description.architecture;
      $('model-info').textContent =
          `${name}: ${description.rules} ${description.size}x${description.size}, ` +
          `generation ${description.generation}, ${a.blocks} blocks x ${a.channels} channels, ` +
          `${description.training_steps} training steps`;
      $('rules').value = description.rules;
      $('size').value = String(description.size);
      $('algorithm').value = 'puct';
      document.body.dataset.model = 'ready';
      this.updateEngineChoice();
      this.play.newGame();
    } catch (e) {
      $('model-info').textContent = this.model ? `still using ${this.model.name}` :
          'No model loaded: the engine plays UCT with random playouts.';
      $('model-error').textContent = e.message;
      document.body.dataset.model = 'error';
    }
  }

  loadModelUrl(text) {
    return this.installModel(() => fetchModel(text, location.href, this.core.info()));
  }

  loadModelFiles(files) {
    return this.installModel(() => readModelFiles(files, this.core.info()));
  }

  // Fills the Network menu with the shipped networks (none when the list is absent).
  async loadNetworkMenu() {
    if (!this.networksUrl) return;
    try {
      this.networks = await fetchNetworkList(this.networksUrl);
    } catch (e) {
      $('model-error').textContent = e.message;
      return;
    }
    const menu = $('network-menu');
    menu.options[0].textContent = this.networks.length ? 'choose…' : 'none shipped';
    for (const n of this.networks) menu.add(new Option(networkLabel(n), n.name));
  }

  // Loads the shipped network `name` of the menu.
  loadShippedNetwork(name) {
    const n = this.networks.find((x) => x.name === name);
    if (!n) return Promise.resolve();
    $('network-menu').value = n.name;
    return this.installModel(async () => {
      const m = await fetchModel(networkUrl(n, this.networksUrl), location.href, this.core.info());
      return { ...m, name: `shipped network ${n.name}` };
    });
  }

  // The shipped network of the Play panel's game, if any.
  defaultNetwork() {
    const g = this.preferredGame();
    return networkFor(this.networks, g.rules, g.size);
  }
}

async function main() {
  const engine = new Engine();
  const [core, started] = await Promise.all([loadCore(), engine.init()]);
  engine.threads = started.threads;
  engine.isolated = started.isolated;
  document.body.dataset.threads = String(started.threads);
  document.body.dataset.isolated = started.isolated ? '1' : '0';
  const app = new App(core, engine);
  window.veletas.app = app;
  app.play.newGame();
  if (params.get('mode') === 'replay') app.setMode('replay');
  await app.loadNetworkMenu();
  if (params.get('model')) {
    await app.loadModelUrl(params.get('model'));
  } else if (!app.testEvaluator && app.defaultNetwork()) {
    await app.loadShippedNetwork(app.defaultNetwork().name);
  }
  document.body.dataset.ready = '1';
}

window.veletas = {};
window.veletas.ready = main().catch((e) => {
  document.body.dataset.ready = 'failed';
  $('engine-status').textContent = `the page could not start: ${e.message}`;
  console.error(e);
});
