// Play: a game against the engine (or engine against engine, or two people with the
// engine's opinion), clicked on the board sub-decision by sub-decision, with undo, the
// engine's win rate and candidates after each move, and the record in notation.
import { drawBoard } from './board.js';
import { parseRecord } from './records.js';

const $ = (id) => document.getElementById(id);

const PROMPTS = {
  setup_shooter: 'Place your setup shooters (click a placed one to take it back)',
  pie: 'Swap colours, or decline by placing White\'s setup shooters',
  setup_stone: 'Place your setup stone',
  choose_shooter: 'Choose the shooter to move, or shoot without moving',
  destination: 'Choose where the shooter goes (click it again to choose another)',
  shot: 'Choose where to shoot',
};

function percent(x) { return `${(100 * x).toFixed(1)}%`; }

function playerName(player, blackPlayer) {
  const colour = player === blackPlayer ? 'Black' : 'White';
  return `${colour} (${player === 0 ? 'first' : 'second'} player)`;
}

// HTML of a search result: the win rate of the player making the turn, the chosen turn
// and the candidates with their principal variations.
export function analysisHtml(r, blackPlayer, played) {
  const who = playerName(r.player, blackPlayer);
  const rows = r.candidates.map((c, i) => {
    const mark = played && c.move === played ? ' (played)' : '';
    return `<tr data-move="${c.move}"><td>${i + 1}</td><td>${c.move}${mark}</td>` +
           `<td>${percent(c.win_rate)}</td><td>${c.visits}</td>` +
           `<td>${c.pv.slice(1, 5).join(' ')}</td></tr>`;
  }).join('');
  return `<div>${who}: win rate <b class="win-rate">${percent(r.win_rate)}</b>, best ` +
         `<b class="best-move">${r.move}</b></div>` +
         `<div class="winbar"><div style="width:${(100 * r.win_rate).toFixed(1)}%"></div></div>` +
         `<div class="muted">${r.simulations} simulations in ${r.seconds.toFixed(2)} s, ` +
         `mean batch ${r.mean_batch.toFixed(1)}</div>` +
         '<table class="candidates"><tr><th>#</th><th>move</th><th>win</th><th>visits</th>' +
         `<th>continuation</th></tr>${rows}</table>`;
}

export class PlayMode {
  // `app` gives core, engine, searchArgs() (engine settings) and showError().
  constructor(app) {
    this.app = app;
    this.game = null;
    this.gameId = 0;
    this.thinking = null;  // {id, gameId} while the engine searches
    this.paused = false;   // engine vs engine stopped by undo
    this.analysis = null;  // the last search result shown
    // Every position of the current game in order, as it was reached: {turns, terminal,
    // to_move_player, by: 'new' | 'person' | 'engine' | 'undo' | 'load', analysis (the
    // engine's search summary for its moves, else null)}. Readers (the browser tests) wait
    // for entries instead of polling the live state, so no position can be missed.
    this.log = [];
    $('new-game').onclick = () => this.newGame();
    $('undo').onclick = () => this.undo();
    $('engine-move').onclick = () => { this.paused = false; this.engineMove(); };
    $('cancel-turn').onclick = () => { this.game.resetTurn(); this.render(); };
    $('pass-button').onclick = () => this.choose(this.state().size ** 2);
    $('load-record').onclick = () => this.loadRecord();
    $('copy-record').onclick = () => this.copyRecord();
    $('human').onchange = () => { this.paused = false; this.render(); this.maybeEngineMove(); };
  }

  state() { return this.game.state(); }

  humanToMove(s) {
    const human = $('human').value;
    if (human === 'both') return true;
    if (human === 'none') return false;
    return s.to_move_player === (human === 'first' ? 0 : 1);
  }

  newGame() {
    this.cancelThinking();
    if (this.game) this.game.free();
    this.game = this.app.core.newGame($('rules').value, Number($('size').value));
    ++this.gameId;
    this.paused = false;
    this.analysis = null;
    $('analysis').innerHTML = '<span class="muted">The engine\'s view appears after each move.</span>';
    this.setError('');
    this.log = [];
    this.logPosition('new', null);
    this.render();
    this.maybeEngineMove();
  }

  // Appends the current position to this.log.
  logPosition(by, result) {
    const s = this.state();
    const analysis = result && {
      move: result.move, win_rate: result.win_rate, visits: result.visits,
      simulations: result.simulations, mean_batch: result.mean_batch,
      candidates: result.candidates.map((c) => c.move),
    };
    this.log.push({ turns: s.turns, terminal: s.terminal, to_move_player: s.to_move_player, by,
                    analysis });
  }

  setError(text) { $('play-error').textContent = text; }

  render() {
    if (this.app.mode !== 'play') return;
    const s = this.state();
    const clickable = !this.thinking && !s.terminal && this.humanToMove(s);
    drawBoard($('board'), s, (sq) => this.choose(sq), clickable);
    $('status').textContent = s.status;
    // The seats' colours follow the pie rule: after a swap (by the person or by the engine)
    // the first player plays White.
    const black = s.black_player === 1 ? 1 : 0;
    for (const [value, player] of [['first', 0], ['second', 1]]) {
      $('human').querySelector(`option[value="${value}"]`).textContent =
        `${value} (${player === black ? 'Black' : 'White'})`;
    }
    const pass = $('pass-button');
    pass.hidden = !(clickable && s.choice && s.choice.pass);
    pass.textContent = s.choice && s.choice.decision === 'pie' ? 'Swap colours' : 'Shoot without moving';
    $('cancel-turn').disabled = !clickable;
    let prompt = '';
    if (s.terminal) {
      prompt = `Game over: ${playerName(s.winner_player, s.black_player)} wins`;
    } else if (this.thinking) {
      prompt = 'The engine is thinking…';
    } else if (clickable) {
      prompt = PROMPTS[s.choice.decision] || '';
    } else if (this.paused) {
      prompt = 'Paused: press Engine move to go on';
    }
    $('prompt').textContent = prompt;
    $('record').value = s.moves.join(' ');
    document.body.dataset.turns = String(s.turns);
    document.body.dataset.busy = this.thinking ? '1' : '0';
  }

  choose(action) {
    const s = this.state();
    if (this.thinking || s.terminal || !this.humanToMove(s)) return;
    const error = this.game.choose(action);
    this.setError(error);
    this.render();
    if (!error && this.state().turns > s.turns) this.afterMove('person', null);
  }

  // After a move by `by` ('person' or 'engine', with its search `result`).
  afterMove(by, result) {
    this.logPosition(by, result);
    this.render();
    this.maybeEngineMove();
  }

  maybeEngineMove() {
    const s = this.state();
    if (s.terminal || this.thinking || this.humanToMove(s)) return;
    if ($('human').value !== 'none') {
      this.engineMove();
    } else if (!this.paused) {
      setTimeout(() => this.engineMove(), this.app.watchDelay);  // engine against engine
    }
  }

  async engineMove() {
    const s = this.state();
    if (s.terminal || this.thinking) return;
    const gameId = this.gameId;
    const record = s.moves.join(' ');
    this.thinking = { id: 0, gameId };
    this.render();
    let result;
    try {
      result = await this.app.engine.search(
          { ...this.app.searchArgs(s.rules, s.size), record, game: gameId },
          (id) => { this.thinking.id = id; });
    } catch (e) {
      if (this.thinking && this.thinking.gameId === gameId) this.thinking = null;
      if (e.message !== 'cancelled') this.setError(`engine: ${e.message}`);
      this.render();
      return;
    }
    this.thinking = null;
    if (gameId !== this.gameId || this.state().moves.join(' ') !== record) {
      this.render();
      return;  // the game changed meanwhile
    }
    const error = this.game.play(result.move);
    if (error) {
      console.error(`the engine's move ${result.move} was refused: ${error}`);
      return;
    }
    this.analysis = result;
    $('analysis').innerHTML = analysisHtml(result, s.black_player, null);
    this.afterMove('engine', result);
  }

  cancelThinking() {
    this.app.engine.cancelSearch(this.thinking);
    this.thinking = null;
  }

  undo() {
    this.cancelThinking();
    if (!this.game.undo()) {
      this.render();
      return;
    }
    // Back to a position where a person moves (the engine's reply goes too).
    while (this.state().turns > 0 && !this.humanToMove(this.state()) &&
           $('human').value !== 'none') {
      this.game.undo();
    }
    this.paused = $('human').value === 'none';
    ++this.gameId;  // a search still under way is for another game now
    this.logPosition('undo', null);
    this.render();
  }

  loadRecord() {
    const text = parseRecord($('record').value);
    const error = this.game.load(text);
    this.setError(error ? `cannot load the record: ${error}` : '');
    if (error) return;
    this.cancelThinking();
    ++this.gameId;
    this.paused = $('human').value === 'none';
    this.logPosition('load', null);
    this.render();
    this.maybeEngineMove();
  }

  async copyRecord() {
    const text = this.state().moves.join(' ');
    try {
      await navigator.clipboard.writeText(text);
      this.setError('');
    } catch (e) {
      $('record').select();
      this.setError('select the record above and copy it (the clipboard is not available here)');
    }
  }
}
