// Replay: a match's records (matches/NAME.records.txt, with NAME.json) or pasted records,
// stepped through move by move with the loaded network's analysis of each position.
import { drawBoard } from './board.js';
import { analysisHtml } from './play.js';
import { detectGame, matchGames, parseRecordLines } from './records.js';

const $ = (id) => document.getElementById(id);

export class ReplayMode {
  constructor(app) {
    this.app = app;
    this.games = [];
    this.match = { rules: null, size: null };
    this.game = null;   // the core Game of the record shown
    this.ply = 0;
    this.cache = new Map();  // ply -> search result for the game shown
    this.searching = null;   // {id, ply}
    this.serial = 0;         // bumped when the game shown changes
    $('replay-files').onchange = (e) => this.openFiles(e.target.files);
    $('replay-load').onclick = () => this.openText($('replay-text').value);
    $('replay-game').onchange = () => this.select(Number($('replay-game').value));
    $('replay-first').onclick = () => this.go(0);
    $('replay-prev').onclick = () => this.go(this.ply - 1);
    $('replay-next').onclick = () => this.go(this.ply + 1);
    $('replay-last').onclick = () => this.go(Infinity);
    $('replay-slider').oninput = (e) => this.go(Number(e.target.value));
    $('replay-analyse').onchange = () => this.render();
  }

  setError(text) { $('replay-error').textContent = text; }

  async openFiles(fileList) {
    const files = Array.from(fileList);
    const json = files.find((f) => f.name.endsWith('.json'));
    const txt = files.find((f) => f.name.endsWith('.txt'));
    if (!txt) {
      this.setError('choose a match\'s records file (matches/NAME.records.txt), ' +
                    'with its NAME.json if you have it');
      return;
    }
    let match = null;
    if (json) {
      try {
        match = JSON.parse(await json.text());
      } catch (e) {
        this.setError(`${json.name}: not valid JSON (${e.message})`);
        return;
      }
    }
    try {
      this.setGames(matchGames(await txt.text(), match));
    } catch (e) {
      this.setError(`${json ? json.name : txt.name}: ${e.message}`);
    }
  }

  openText(text) {
    const games = parseRecordLines(text).map((record, index) => ({
      index, record, label: `record ${index + 1}`,
    }));
    if (!games.length) {
      this.setError('paste one game record per line');
      return;
    }
    this.setGames({ rules: null, size: null, games });
  }

  setGames({ rules, size, games }) {
    this.match = { rules, size };
    this.games = games;
    const select = $('replay-game');
    select.replaceChildren(...games.map((g, i) => new Option(g.label, String(i))));
    this.setError('');
    this.select(0);
  }

  select(i) {
    const g = this.games[i];
    if (!g) return;
    ++this.serial;
    this.cancelSearch();
    this.cache.clear();
    if (this.game) this.game.free();
    this.game = null;
    const preferred = this.match.rules ? this.match : this.app.preferredGame();
    let kind;
    try {
      kind = detectGame(this.app.core, g.record, preferred);
    } catch (e) {
      this.setError(`${g.label}: ${e.message}`);
      this.render();
      return;
    }
    this.game = this.app.core.newGame(kind.rules, kind.size);
    this.game.load(g.record);
    this.setError('');
    this.ply = 0;
    $('replay-slider').max = String(this.game.state().turns);
    this.render();
  }

  go(ply) {
    if (!this.game) return;
    const turns = this.game.state().turns;
    this.ply = Math.max(0, Math.min(turns, ply));
    this.render();
  }

  cancelSearch() {
    this.app.engine.cancelSearch(this.searching);
    this.searching = null;
  }

  render() {
    if (this.app.mode !== 'replay') return;
    if (!this.game) {
      $('board').replaceChildren();
      $('status').textContent = '';
      $('replay-moves').replaceChildren();
      return;
    }
    const s = this.game.state(this.ply);
    drawBoard($('board'), s, () => {}, false);
    $('status').textContent = s.status;
    $('prompt').textContent = `${s.rules} ${s.size}x${s.size}, position after ${this.ply} of ` +
                              `${s.turns} moves`;
    $('replay-ply').textContent = `${this.ply} / ${s.turns}`;
    $('replay-slider').value = String(this.ply);
    const moves = $('replay-moves');
    moves.replaceChildren(...s.moves.map((m, i) => {
      const span = document.createElement('span');
      span.textContent = `${i + 1}. ${m}`;
      if (i === this.ply - 1) span.className = 'current';
      span.onclick = () => this.go(i + 1);
      return span;
    }));
    document.body.dataset.replayPly = String(this.ply);
    this.showAnalysis(s);
  }

  async showAnalysis(s) {
    // Unset until this position's analysis is shown (the browser tests wait for it): a value
    // left from the position or game shown before must not pass for this one's.
    delete document.body.dataset.replayAnalysed;
    const box = $('replay-analysis');
    const played = this.ply < s.turns ? s.moves[this.ply] : null;
    if (!$('replay-analyse').checked) {
      box.replaceChildren();
      return;
    }
    if (s.terminal) {
      box.textContent = 'The game is over.';
      document.body.dataset.replayAnalysed = String(this.ply);
      return;
    }
    const cached = this.cache.get(this.ply);
    if (cached) {
      box.innerHTML = analysisHtml(cached, s.black_player, played);
      document.body.dataset.replayAnalysed = String(this.ply);
      return;
    }
    this.cancelSearch();
    box.innerHTML = '<span class="muted">analysing…</span>';
    const ply = this.ply;
    const serial = this.serial;
    const searching = { id: 0, ply };
    this.searching = searching;
    try {
      const record = s.moves.slice(0, ply).join(' ');
      const r = await this.app.engine.search(
          { ...this.app.searchArgs(s.rules, s.size), record, game: `replay-${serial}` },
          (id) => { searching.id = id; });
      if (serial !== this.serial) return;
      this.cache.set(ply, r);
      if (this.searching === searching) this.searching = null;
      if (ply === this.ply) this.render();
    } catch (e) {
      if (this.searching === searching) this.searching = null;
      if (e.message !== 'cancelled') this.setError(`analysis: ${e.message}`);
    }
  }
}
