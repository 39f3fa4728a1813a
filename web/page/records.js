// Game records as the project writes them: a match's NAME.records.txt (one game in
// notation per line, line i+1 = game i) with its NAME.json (docs/RATINGS.md: rules, size,
// players, results), a record pasted from `veletas play` ("record: ..."), the engine
// protocol's `record` answer ("= ..."), or plain moves.

// The records in `text`: one per non-empty line, without a "record:" or "=" prefix.
export function parseRecordLines(text) {
  return text.split(/\r?\n/)
    .map((line) => line.trim().replace(/^(record:|=\d*)\s*/, '').trim())
    .filter((line) => line.length > 0);
}

// One record from pasted text: the lines joined (a record may be wrapped).
export function parseRecord(text) {
  return parseRecordLines(text).join(' ');
}

// The games of a match: records from NAME.records.txt and, when given, the match record
// NAME.json (parsed). Returns {rules, size, games: [{index, record, label}]} (rules and
// size null without the JSON).
export function matchGames(recordsText, match) {
  const lines = recordsText.split(/\r?\n/);
  while (lines.length && lines[lines.length - 1].trim() === '') lines.pop();
  const games = lines.map((line, i) => ({ index: i, record: line.trim(), label: `game ${i + 1}` }));
  if (!match) return { rules: null, size: null, games };
  if (match.format !== 'veletas-match') {
    throw new Error(`not a match record: "format" is ${JSON.stringify(match.format)}, ` +
                    'expected "veletas-match"');
  }
  const a = (match.players && match.players.a && match.players.a.name) || 'a';
  const b = (match.players && match.players.b && match.players.b.name) || 'b';
  (match.results || []).forEach((r, i) => {
    const m = /:(\d+)$/.exec(r.record || '');
    const index = m ? Number(m[1]) - 1 : i;
    const g = games[index];
    if (!g) return;
    const first = r.a_seat === 'first' ? a : b;
    const second = r.a_seat === 'first' ? b : a;
    const winner = r.winner === 'a' ? a : r.winner === 'b' ? b : '?';
    g.label = `game ${index + 1}: ${first} vs ${second}, ${winner} won in ${r.turns} turns`;
  });
  return { rules: match.rules || null, size: match.size || null, games };
}

// The game (rules and size) a record is played in: `preferred` ({rules, size}) first, then
// every other supported game; the first in which the whole record is legal. Returns
// {rules, size} or throws with the error of the preferred game.
export function detectGame(core, record, preferred) {
  const info = core.info();
  const order = [];
  if (preferred && preferred.rules) order.push({ rules: preferred.rules, size: preferred.size });
  for (const rules of info.rules) {
    for (const size of info.sizes) {
      if (!order.some((o) => o.rules === rules && o.size === size)) order.push({ rules, size });
    }
  }
  let firstError = '';
  for (const g of order) {
    const game = core.newGame(g.rules, g.size);
    const error = game.load(record);
    game.free();
    if (!error) return g;
    if (!firstError) firstError = `${g.rules} ${g.size}x${g.size}: ${error}`;
  }
  throw new Error(`the record is not a legal game: ${firstError}`);
}
