// Drives the browser page (build/web) in headless Chromium with puppeteer-core for the
// browser tests (tests/web/browser_test.cpp) and the measurements (scripts/bench_web.sh).
//
// usage: node page_driver.mjs --puppeteer DIR --chromium PATH --root DIR --scenario NAME
//                             --out DIR [--args JSON] [--server plain|isolated]
//   --root: served with `python3 -m http.server` (as the README serves the page), or with
//           --server isolated by scripts/serve_web.py (COOP/COEP headers: the page is
//           cross-origin isolated and its network multi-threaded); it holds page/ (the
//           built page) and whatever the scenario loads (model/, files).
//   Scenarios (their results go to OUT/result.json, screenshots to OUT/*.png):
//     network      the page's network on sample positions (args: rules, size, count, seed,
//                  canvas): hashes, planes, raw outputs, decoded softmax and values
//     watch        engine against engine to the end (args: query, strength, human: 'none'
//                  (the page plays on) or 'both' (one click of Engine move per move),
//                  algorithm, rules, size, mid (when the mid-game screenshot is taken),
//                  legal_at (plies whose legal moves are reported), network (a name to
//                  choose in the Network menu first))
//     scripted     a person clicking random legal targets against the engine (args: query,
//                  seed, strength), with a take-back, an undo and a record reload
//     replay       opens match records files and steps through a game with analysis
//                  (args: files, game)
//     bad_models   loads broken models (args: cases) and reports the page's messages
//     bench        evaluations/s and tree speed in the page (args: batches, seconds, tree)
// Every console error, page error, worker error and failed request is reported in
// result.json's "console_errors"; "engine" holds what the page says of its network's threads
// ({threads, isolated, status}). Exit status: 0 when the scenario ran, 1 otherwise.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

function parseArgs(argv) {
  const out = {};
  for (let i = 0; i < argv.length; i += 2) {
    if (!argv[i].startsWith('--') || i + 1 >= argv.length) throw new Error(`bad argument ${argv[i]}`);
    out[argv[i].slice(2)] = argv[i + 1];
  }
  for (const k of ['puppeteer', 'chromium', 'root', 'scenario', 'out']) {
    if (!out[k]) throw new Error(`missing --${k}`);
  }
  return out;
}

// `python3 -m http.server` ('plain') or scripts/serve_web.py ('isolated') on a free loopback
// port; resolves with {server, port}.
function serve(root, kind) {
  const serveWeb = new URL('../../scripts/serve_web.py', import.meta.url).pathname;
  const args = kind === 'isolated' ?
      ['-u', serveWeb, '--port', '0', '--bind', '127.0.0.1', root] :
      ['-u', '-m', 'http.server', '0', '--bind', '127.0.0.1', '--directory', root];
  if (kind !== 'plain' && kind !== 'isolated') throw new Error(`--server ${kind}: plain or isolated`);
  return new Promise((resolve, reject) => {
    const server = spawn('python3', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let text = '';
    const timer = setTimeout(() => reject(new Error(`http.server did not start: ${text}`)), 20000);
    server.stdout.on('data', (d) => {
      text += d;
      const m = /port (\d+)/.exec(text);
      if (m) {
        clearTimeout(timer);
        resolve({ server, port: Number(m[1]) });
      }
    });
    server.stderr.on('data', () => {});  // request log
    server.on('exit', (code) => reject(new Error(`http.server exited (${code}): ${text}`)));
  });
}

// A deterministic generator for the scripted player (mulberry32).
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function waitFor(page, fn, arg, timeout = 120000) {
  await page.waitForFunction(fn, { timeout, polling: 20 }, arg);
}

async function open(page, base, query) {
  // The page loads the build's shipped network of its game at start; the tests choose their
  // networks themselves (networks=none unless the query names a list).
  const q = /(^|&)networks=/.test(query || '') ? query : `${query ? `${query}&` : ''}networks=none`;
  await page.goto(`${base}/page/index.html?${q}`);
  await waitFor(page, () => document.body.dataset.ready === '1' || document.body.dataset.ready === 'failed');
  const ready = await page.evaluate(() => document.body.dataset.ready);
  if (ready !== '1') throw new Error(`the page did not start: ${await page.$eval('#engine-status', (e) => e.textContent)}`);
}

const playState = (page) => page.evaluate(() => window.veletas.app.play.state());
const idle = () => document.body.dataset.busy === '0';

// Waits until the page's log of positions (play.log) has more than `seen` entries (or the
// page shows a play error, which throws) and returns the entries after the first `seen`.
async function newLogEntries(page, seen) {
  await waitFor(page, (n) => window.veletas.app.play.log.length > n ||
                             document.getElementById('play-error').textContent !== '', seen);
  const error = await page.$eval('#play-error', (e) => e.textContent);
  if (error) throw new Error(`play error: ${error}`);
  return page.evaluate((n) => window.veletas.app.play.log.slice(n), seen);
}

async function setSelect(page, id, value) {
  await page.select(`#${id}`, value);
}

async function screenshot(page, out, name, shots) {
  const file = path.join(out, `${name}.png`);
  await (await page.$('#board-area')).screenshot({ path: file });
  shots.push(file);
}

// Clicks square `sq` of the board.
async function clickSquare(page, sq) {
  await page.click(`rect[data-square="${sq}"]`);
}

const scenarios = {
  async network(page, base, args) {
    await open(page, base, 'model=../model/');
    return page.evaluate(async (a) => {
      const r = await window.veletas.app.engine.evaluateSample(a);
      const plain = {};
      for (const [k, v] of Object.entries(r)) plain[k] = ArrayBuffer.isView(v) ? Array.from(v) : v;
      return plain;
    }, args);
  },

  async watch(page, base, args, out) {
    await open(page, base, args.query);
    const shots = [];
    let network = null;
    if (args.network) {
      // A shipped network chosen in the Network menu.
      const menu = await page.$$eval('#network-menu option', (os) => os.map((o) => o.value));
      await setSelect(page, 'network-menu', args.network);
      await waitFor(page, () => document.body.dataset.model === 'ready' ||
                                document.body.dataset.model === 'error');
      const info = await page.$eval('#model-info', (e) => e.textContent);
      const error = await page.$eval('#model-error', (e) => e.textContent);
      if (error) throw new Error(`the network menu: ${error}`);
      network = { menu, info };
    }
    await page.$eval('#strength', (e, v) => { e.value = String(v); }, args.strength);
    // 'none': the page plays on by itself; 'both': one engine move per click of Engine move.
    const stepping = args.human === 'both';
    if (args.algorithm) await setSelect(page, 'algorithm', args.algorithm);
    if (args.rules) await setSelect(page, 'rules', args.rules);
    if (args.size) await setSelect(page, 'size', String(args.size));
    await setSelect(page, 'human', args.human);
    await page.click('#new-game');
    const legal = {};
    const taken = { setup: false, mid: false };
    // The page logs every position of the game as it is reached (play.log); the driver waits
    // for new entries, so it sees each one however fast the engine plays.
    const log = [];
    for (;;) {
      if (stepping) {
        // The engine waits for the click: the position stays until then.
        await waitFor(page, idle);
        const snap = await page.evaluate((want) => {
          const p = window.veletas.app.play;
          const s = p.state();
          return { turns: s.turns, moves: want.includes(s.turns) ? p.game.moves() : null };
        }, args.legal_at || []);
        if (snap.moves) legal[snap.turns] = snap.moves;
      }
      const fresh = await newLogEntries(page, log.length);
      log.push(...fresh);
      const last = log[log.length - 1];
      if (last.turns >= 1 && !taken.setup) { taken.setup = true; await screenshot(page, out, 'watch_setup', shots); }
      if (last.turns >= args.mid && !taken.mid) { taken.mid = true; await screenshot(page, out, 'watch_mid', shots); }
      if (last.terminal) break;
      if (stepping) await page.click('#engine-move');
    }
    const analyses = log.filter((e) => e.by === 'engine').map((e) => e.analysis);
    await screenshot(page, out, 'watch_end', shots);
    const s = await playState(page);
    const prompt = await page.$eval('#prompt', (e) => e.textContent);
    const shown = await page.$eval('#analysis', (e) => e.textContent);
    return { moves: s.moves, winner: s.winner, prompt, analyses, legal, shown, network,
             screenshots: shots };
  },

  async scripted(page, base, args, out) {
    await open(page, base, args.query);
    const random = rng(args.seed);
    const shots = [];
    await page.$eval('#strength', (e, v) => { e.value = String(v); }, args.strength);
    await setSelect(page, 'human', 'first');
    await page.click('#new-game');
    const checks = { takeback: false, cancel: false, undo: null, reload: null, clicks: 0,
                     refused: null };
    const taken = { setup: false, mid: false };
    const ourTurn = () => {
      const s = window.veletas.app.play.state();
      return document.body.dataset.busy === '0' && (s.terminal || s.to_move_player === 0);
    };
    for (let step = 0; step < 2000; ++step) {
      await waitFor(page, ourTurn);
      const s = await playState(page);
      if (s.terminal) break;
      if (s.to_move_player !== 0) throw new Error('the engine did not move');
      const choice = s.choice;
      // A square that is no target is refused with a message, and nothing changes.
      if (checks.refused === null && choice.decision === 'choose_shooter') {
        const bad = [...Array(s.size * s.size).keys()].find((q) => !choice.targets.includes(q));
        await clickSquare(page, bad);
        checks.refused = {
          error: await page.$eval('#play-error', (e) => e.textContent),
          same: JSON.stringify((await playState(page)).choice) === JSON.stringify(choice),
        };
      }
      // Once: take back a placed setup shooter; once: cancel a chosen shooter.
      if (!checks.takeback && choice.decision === 'setup_shooter' && choice.chosen.length === 1) {
        await clickSquare(page, choice.chosen[0]);
        checks.takeback = (await playState(page)).choice.chosen.length === 0;
        continue;
      }
      if (!checks.cancel && choice.decision === 'destination') {
        await page.click('#cancel-turn');
        checks.cancel = (await playState(page)).choice.decision === 'choose_shooter';
        continue;
      }
      const options = choice.targets.map((t) => ({ square: t }));
      if (choice.pass) options.push({ pass: true });
      const pick = options[Math.floor(random() * options.length)];
      const seen = await page.evaluate(() => window.veletas.app.play.log.length);
      if (pick.pass) await page.click('#pass-button'); else await clickSquare(page, pick.square);
      ++checks.clicks;
      const error = await page.$eval('#play-error', (e) => e.textContent);
      if (error) throw new Error(`a legal target was refused: ${error}`);
      // The positions reached since the click (the log keeps them, however fast the engine
      // replies): the turns our move completed, if it completed one.
      const fresh = await page.evaluate((n) => window.veletas.app.play.log.slice(n), seen);
      const moved = fresh.find((e) => e.by === 'person');
      if (!moved) continue;  // a sub-decision of the turn: nothing was played yet
      if (moved.turns >= 1 && !taken.setup) {
        taken.setup = true;
        await waitFor(page, idle);
        await screenshot(page, out, 'scripted_setup', shots);
      }
      // After the fourth move: undo (the engine's reply and our move), then play on.
      if (checks.undo === null && moved.turns >= 4) {
        await waitFor(page, idle);
        const now = await playState(page);
        if (!now.terminal) {
          await page.click('#undo');
          checks.undo = { before: now.turns, after: (await playState(page)).turns };
        }
      }
      if (moved.turns >= 14 && !taken.mid) {
        taken.mid = true;
        await waitFor(page, idle);
        await screenshot(page, out, 'scripted_mid', shots);
      }
    }
    await waitFor(page, idle);
    await screenshot(page, out, 'scripted_end', shots);
    const s = await playState(page);
    // The record shown reloads to the same game.
    const record = await page.$eval('#record', (e) => e.value);
    await page.$eval('#record', (e, v) => { e.value = `record: ${v}`; }, record);
    await page.click('#load-record');
    const reloaded = await playState(page);
    checks.reload = { same: JSON.stringify(reloaded.moves) === JSON.stringify(s.moves),
                      error: await page.$eval('#play-error', (e) => e.textContent) };
    await page.$eval('#record', (e) => { e.value = 'e3/e4 zz9'; });
    await page.click('#load-record');
    checks.bad_record = await page.$eval('#play-error', (e) => e.textContent);
    // The seats' labels after a pie-rule swap (the state's black_player, whoever swapped)
    // and before one.
    const seats = () => page.$$eval('#human option', (os) => os.slice(0, 2).map((o) => o.textContent));
    await waitFor(page, idle);
    await setSelect(page, 'human', 'both');
    await page.$eval('#record', (e) => { e.value = 'c3/a1 swap'; });
    await page.click('#load-record');
    checks.seats_after_swap = await seats();
    await page.$eval('#record', (e) => { e.value = 'c3/a1'; });
    await page.click('#load-record');
    checks.seats_before_swap = await seats();
    // On a 400-pixel-wide screen nothing is wider than the screen (the Network menu was).
    await page.setViewport({ width: 400, height: 800 });
    checks.narrow = await page.evaluate(() => ({
      page: document.documentElement.scrollWidth,
      menu: Math.ceil(document.getElementById('network-menu').getBoundingClientRect().right),
    }));
    return { moves: s.moves, winner: s.winner, checks, screenshots: shots };
  },

  async replay(page, base, args, out) {
    await open(page, base, args.query);
    const input = await page.$('#replay-files');
    await input.uploadFile(...args.files);
    await waitFor(page, () => document.getElementById('replay-game').options.length > 0);
    await setSelect(page, 'replay-game', String(args.game));
    const labels = await page.$$eval('#replay-game option', (os) => os.map((o) => o.textContent));
    const positions = [];
    const shots = [];
    for (let ply = 0; ; ++ply) {
      await waitFor(page, (p) => document.body.dataset.replayAnalysed === String(p), ply);
      const s = await page.evaluate((p) => window.veletas.app.replay.game.state(p), ply);
      const best = await page.$eval('#replay-analysis', (e) => {
        const b = e.querySelector('.best-move');
        return b ? b.textContent : e.textContent;
      });
      positions.push({ ply, board: s.board, pending: s.pending, best });
      if (ply === 0) await screenshot(page, out, 'replay_start', shots);
      if (ply === s.turns) break;
      await page.click('#replay-next');
    }
    await screenshot(page, out, 'replay_end', shots);
    const s = await page.evaluate(() => window.veletas.app.replay.game.state(-1));
    return { labels, moves: s.moves, positions, error: await page.$eval('#replay-error', (e) => e.textContent),
             screenshots: shots };
  },

  async bad_models(page, base, args) {
    await open(page, base, '');
    const messages = {};
    for (const c of args.cases) {
      if (c.url) {
        await page.$eval('#model-url', (e, v) => { e.value = v; }, c.url);
        await page.click('#model-load');
      } else {
        await (await page.$('#model-files')).uploadFile(...c.files);
      }
      await waitFor(page, () => document.body.dataset.model === 'error' ||
                                document.body.dataset.model === 'ready');
      messages[c.name] = { state: await page.evaluate(() => document.body.dataset.model),
                           error: await page.$eval('#model-error', (e) => e.textContent) };
      await page.evaluate(() => { document.body.dataset.model = ''; });
    }
    return { messages };
  },

  async bench(page, base, args) {
    await open(page, base, 'model=../model/');
    return page.evaluate((a) => window.veletas.app.engine.bench(a), args);
  },
};

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const args = opts.args ? JSON.parse(opts.args) : {};
  const require = createRequire(path.join(path.resolve(opts.puppeteer), 'node_modules/'));
  const puppeteer = require('puppeteer-core');
  fs.mkdirSync(opts.out, { recursive: true });
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'veletas-chromium-'));
  const { server, port } = await serve(opts.root, opts.server || 'plain');
  const errors = [];
  let browser = null;
  let result = null;
  let failure = null;
  try {
    browser = await puppeteer.launch({
      executablePath: opts.chromium,
      headless: true,
      userDataDir: profile,
      args: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
             '--disable-component-update', '--disable-sync', '--no-first-run',
             '--window-size=1200,1000'],
    });
    const page = await browser.newPage();
    await page.setViewport({ width: 1200, height: 1000 });
    page.on('console', (m) => { if (m.type() === 'error') errors.push(`console: ${m.text()}`); });
    page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
    page.on('requestfailed', (r) => errors.push(`request failed: ${r.url()} ${r.failure()?.errorText}`));
    page.on('workercreated', (w) => {
      w.on('console', (m) => { if (m.type() === 'error') errors.push(`worker console: ${m.text()}`); });
      w.on('error', (e) => errors.push(`worker error: ${e.message}`));
    });
    const started = Date.now();
    result = await scenarios[opts.scenario](page, `http://127.0.0.1:${port}`, args, opts.out);
    result.seconds = (Date.now() - started) / 1000;
    result.engine = await page.evaluate(() => ({
      threads: Number(document.body.dataset.threads),
      isolated: document.body.dataset.isolated === '1',
      status: document.getElementById('engine-status').textContent,
    }));
    result.user_agent = await browser.version();
  } catch (e) {
    failure = e.stack || String(e);
  } finally {
    if (browser) await browser.close();
    server.kill();
    fs.rmSync(profile, { recursive: true, force: true });
  }
  const report = { scenario: opts.scenario, failure, console_errors: errors, ...(result || {}) };
  fs.writeFileSync(path.join(opts.out, 'result.json'), JSON.stringify(report));
  if (failure) console.error(failure);
  return failure ? 1 : 0;
}

main().then((code) => process.exit(code), (e) => {
  console.error(e.stack || String(e));
  process.exit(1);
});
