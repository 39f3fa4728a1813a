// The board as SVG: pieces from the game state's rows (rules::BoardRows), the squares a
// click may choose now, the chosen squares of the turn being built and the last turn.
const SVG = 'http://www.w3.org/2000/svg';
const CELL = 60;
const MARGIN = 28;

function el(name, attrs, parent) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

export function squareName(size, sq) {
  return String.fromCharCode(97 + (sq % size)) + String(Math.floor(sq / size) + 1);
}

// A shooter: a diamond, filled by the colour that claimed it.
function drawShooter(g, cx, cy, kind) {
  const r = CELL * 0.34;
  const points = `${cx},${cy - r} ${cx + r},${cy} ${cx},${cy + r} ${cx - r},${cy}`;
  const cls = kind === 'S' ? 'shooter' : kind === 'X' ? 'shooter claimed-black' : 'shooter claimed-white';
  el('polygon', { points, class: cls }, g);
}

// Draws `state` into `svg`. `onSquare(sq)` is called for clicks on squares; `highlight`
// chooses whether the state's choice (targets, chosen) is shown.
export function drawBoard(svg, state, onSquare, highlight = true) {
  const n = state.size;
  const side = n * CELL + 2 * MARGIN;
  svg.setAttribute('viewBox', `0 0 ${side} ${side}`);
  svg.replaceChildren();
  const targets = new Set(highlight && state.choice ? state.choice.targets : []);
  const chosen = new Set(highlight && state.choice ? state.choice.chosen : []);
  const last = new Set(state.last || []);
  const placing = new Set(state.choice ? state.choice.placing : []);
  const g = el('g', {}, svg);
  for (let rowTop = 0; rowTop < n; ++rowTop) {
    const row = n - 1 - rowTop;
    for (let col = 0; col < n; ++col) {
      const sq = row * n + col;
      const x = MARGIN + col * CELL;
      const y = MARGIN + rowTop * CELL;
      const classes = ['cell', (row + col) % 2 ? 'light' : 'dark'];
      if (last.has(sq)) classes.push('last');
      if (targets.has(sq)) classes.push('target');
      if (chosen.has(sq)) classes.push('chosen');
      const rect = el('rect', { x, y, width: CELL, height: CELL, class: classes.join(' '),
                                'data-square': sq, 'data-name': squareName(n, sq) }, g);
      rect.addEventListener('click', () => onSquare(sq));
      const cx = x + CELL / 2;
      const cy = y + CELL / 2;
      const piece = placing.has(sq) ? 'S' : state.board[rowTop][col];
      if (piece === 'x' || piece === 'o') {
        el('circle', { cx, cy, r: CELL * 0.36, class: piece === 'x' ? 'stone black' : 'stone white' }, g);
      } else if (piece === 'S' || piece === 'X' || piece === 'O') {
        drawShooter(g, cx, cy, piece);
      }
      if (targets.has(sq)) el('circle', { cx, cy, r: CELL * 0.1, class: 'target-dot' }, g);
    }
  }
  for (let i = 0; i < n; ++i) {
    el('text', { x: MARGIN + i * CELL + CELL / 2, y: side - 8, class: 'coord' }, svg).textContent =
        String.fromCharCode(97 + i);
    el('text', { x: 12, y: MARGIN + (n - 1 - i) * CELL + CELL / 2 + 5, class: 'coord' }, svg)
        .textContent = String(i + 1);
  }
}
