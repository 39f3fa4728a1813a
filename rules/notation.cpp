#include "rules/notation.h"

#include <algorithm>
#include <cctype>

namespace veletas::rules {
namespace {

// `s` in quotes for a message; a long one (a hostile record's 250 MB token) is cut, so that
// a message never holds more than a few dozen bytes of it.
std::string Quoted(std::string_view s) {
  constexpr size_t kShown = 60;
  if (s.size() <= kShown) return "\"" + std::string(s) + "\"";
  return "\"" + std::string(s.substr(0, kShown)) + "...\" (" + std::to_string(s.size()) + " bytes)";
}

std::vector<std::string_view> Split(std::string_view text, char sep) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  for (;;) {
    const size_t pos = text.find(sep, start);
    parts.push_back(text.substr(start, pos == std::string_view::npos ? pos : pos - start));
    if (pos == std::string_view::npos) break;
    start = pos + 1;
  }
  return parts;
}

const char* PieceName(const Position& pos, int sq) {
  if (pos.Stones(Color::kBlack).Test(sq)) return "black stone";
  if (pos.Stones(Color::kWhite).Test(sq)) return "white stone";
  if (pos.UnclaimedShooters().Test(sq)) return "shooter";
  if (pos.Claimed(Color::kBlack).Test(sq) || pos.Claimed(Color::kWhite).Test(sq)) {
    return "claimed shooter";
  }
  return "nothing";
}

// OK when `to` is reachable along a queen line from `from` in `pos` (for moves and shots
// alike), else bad input saying why not, e.g. "black stone on c6".
util::Status LineReachable(const Position& pos, int from, int to) {
  const int n = pos.Size();
  if (from == to) return util::Status::Error("a shooter must move to another square");
  const int d = pos.Geo().DirectionBetween(from, to);
  if (d < 0) return util::Status::Error("not on a straight line");
  if (pos.Occupied().Test(to)) {
    return util::Status::Error(SquareName(n, to) + " holds a " + PieceName(pos, to));
  }
  const Bitboard blockers = pos.Rules() == RuleSet::kStandard ? pos.Stones() : pos.Occupied();
  const Geometry& g = pos.Geo();
  const Bitboard between = g.ray[from][d] & ~g.ray[to][d] & ~Bitboard::Square(to);
  const Bitboard blocking = between & blockers;
  if (blocking.Any()) {
    const int b = d < 4 ? blocking.Lsb() : blocking.Msb();
    return util::Status::Error(std::string(PieceName(pos, b)) + " on " + SquareName(n, b));
  }
  return util::Ok();
}

// "<to> is not <verb> from <from> (<reason>)" with `verb` = "reachable" or "shootable".
util::Error ReachError(const Position& pos, int from, int to, const char* verb) {
  const int n = pos.Size();
  const util::Status line = LineReachable(pos, from, to);
  return util::Error{SquareName(n, to) + " is not " + verb + " from " + SquareName(n, from) + " (" +
                     (line.ok() ? "" : line.error()) + ")"};
}

// OK when the setup shooters `squares` may go where they are listed (empty squares; the
// interior under the standard rules; never adjacent under the classic rules), else a
// bad-input error saying why not.
util::Status CheckSetupSquares(const Position& before, const std::vector<int>& squares) {
  const int n = before.Size();
  const Geometry& g = before.Geo();
  const bool standard = before.Rules() == RuleSet::kStandard;
  for (size_t i = 0; i < squares.size(); ++i) {
    const int sq = squares[i];
    const std::string name = SquareName(n, sq);
    if (before.Occupied().Test(sq)) {
      return util::Status::Error(name + " is not empty (" + PieceName(before, sq) + ")");
    }
    if (standard && !g.interior.Test(sq)) {
      return util::Status::Error(name + " is on the perimeter, where no setup shooter may go");
    }
    if (!standard) {
      Bitboard others = before.AllShooters();
      for (size_t j = 0; j < squares.size(); ++j) {
        if (j != i) others.Set(squares[j]);
      }
      const Bitboard touching = g.king[sq] & others;
      if (touching.Any()) {
        return util::Status::Error(name + " touches the shooter on " +
                                   SquareName(n, touching.Lsb()) +
                                   ": setup shooters may not be adjacent");
      }
    }
  }
  return util::Ok();
}

util::Result<Turn> ParseSetup(const Position& before, std::string_view text) {
  const int n = before.Size();
  const Geometry& g = before.Geo();
  const bool standard = before.Rules() == RuleSet::kStandard;
  const Color who = before.ToMove();
  const SizeRules sr = RulesForSize(n);
  const int quota = who == Color::kBlack ? sr.black_setup : sr.shooters - sr.black_setup;
  const std::string player = who == Color::kBlack ? "Black" : "White";
  const std::vector<std::string_view> halves = Split(text, '/');
  if (halves.size() > 2)
    return util::Result<Turn>::Error("expected at most one '/' in a setup turn");
  if (standard && halves.size() != 2) {
    return util::Result<Turn>::Error("expected " + player + "'s setup like " +
                                     std::string(quota > 1 ? "\"c3,e5/a1\"" : "\"e5/a1\"") +
                                     ": shooters, '/', then the setup stone");
  }
  if (!standard && halves.size() != 1) {
    return util::Result<Turn>::Error("classic rules have no setup stone: expected only shooters");
  }
  std::vector<int> squares;
  for (std::string_view name : Split(halves[0], ',')) {
    const std::optional<int> sq = ParseSquare(n, name);
    if (!sq) {
      return util::Result<Turn>::Error(Quoted(name) + " is not a square of the " +
                                       std::to_string(n) + "x" + std::to_string(n) + " board");
    }
    if (std::find(squares.begin(), squares.end(), *sq) != squares.end()) {
      return util::Result<Turn>::Error(std::string(name) + " is listed twice");
    }
    squares.push_back(*sq);
  }
  if (static_cast<int>(squares.size()) != quota) {
    return util::Result<Turn>::Error(player + " places " + std::to_string(quota) + " shooter" +
                                     (quota > 1 ? "s" : "") + " in the setup, got " +
                                     std::to_string(squares.size()));
  }
  if (util::Status bad = CheckSetupSquares(before, squares); !bad.ok()) return bad.error_value();
  g.SortInSetupOrder(squares.data(), static_cast<int>(squares.size()));
  Turn turn;
  Position p = before;
  for (int sq : squares) {
    if (!p.IsLegal(sq)) return util::Result<Turn>::Error("illegal setup placement");
    p.Apply(sq);
    turn.Push(sq);
  }
  if (standard) {
    const std::optional<int> stone = ParseSquare(n, halves[1]);
    if (!stone) {
      return util::Result<Turn>::Error(Quoted(halves[1]) + " is not a square of the " +
                                       std::to_string(n) + "x" + std::to_string(n) + " board");
    }
    if (!p.IsLegal(*stone)) {
      return util::Result<Turn>::Error("the setup stone's square " + SquareName(n, *stone) +
                                       " is not empty (" + PieceName(p, *stone) + ")");
    }
    turn.Push(*stone);
  }
  return turn;
}

util::Result<Turn> ParsePlay(const Position& before, std::string_view text) {
  const int n = before.Size();
  const std::string board = std::to_string(n) + "x" + std::to_string(n);
  auto square = [&](std::string_view name) -> util::Result<int> {
    const std::optional<int> sq = ParseSquare(n, name);
    if (!sq)
      return util::Result<int>::Error(Quoted(name) + " is not a square of the " + board + " board");
    return *sq;
  };
  const size_t dash = text.find('-');
  if (dash == std::string_view::npos) {
    if (text.find_first_of(",/") != std::string_view::npos) {
      return util::Result<Turn>::Error(
          "expected a turn like \"e7\" or \"h6-d10/a10\" (the setup is over)");
    }
    const util::Result<int> shot = square(text);
    if (!shot) return shot.error_value();
    const int t = shot.value();
    if (!before.ShotsWithoutMove().Test(t)) {
      if (before.Occupied().Test(t)) {
        return util::Result<Turn>::Error(SquareName(n, t) + " is not empty (" +
                                         PieceName(before, t) + ")");
      }
      return util::Result<Turn>::Error("no unclaimed shooter can shoot to " + SquareName(n, t));
    }
    return MakePlayTurn(before, -1, -1, t);
  }
  const size_t slash = text.find('/');
  if (slash == std::string_view::npos || slash < dash) {
    return util::Result<Turn>::Error("expected a move like \"h6-d10/a10\" (from-to/shot)");
  }
  const util::Result<int> from = square(text.substr(0, dash));
  if (!from) return from.error_value();
  const util::Result<int> to = square(text.substr(dash + 1, slash - dash - 1));
  if (!to) return to.error_value();
  const util::Result<int> shot = square(text.substr(slash + 1));
  if (!shot) return shot.error_value();
  const int f = from.value(), t = to.value(), s = shot.value();
  if (!before.UnclaimedShooters().Test(f)) {
    if (before.AllShooters().Test(f)) {
      return util::Result<Turn>::Error("the shooter on " + SquareName(n, f) +
                                       " is claimed and cannot move");
    }
    return util::Result<Turn>::Error(SquareName(n, f) + " holds no shooter (" +
                                     PieceName(before, f) + ")");
  }
  if (!before.Destinations(f).Test(t)) {
    return ReachError(before, f, t, "reachable");
  }
  Position moved = before;
  moved.Apply(f);
  moved.Apply(t);
  if (!moved.ShotsFrom(t).Test(s)) return ReachError(moved, t, s, "shootable");
  return MakePlayTurn(before, f, t, s);
}

}  // namespace

std::string SquareName(int size, int sq) {
  return std::string(1, static_cast<char>('a' + sq % size)) + std::to_string(sq / size + 1);
}

std::optional<int> ParseSquare(int size, std::string_view text) {
  if (text.size() < 2 || text.size() > 3) return std::nullopt;
  const int col = text[0] - 'a';
  if (col < 0 || col >= size) return std::nullopt;
  int row = 0;
  for (size_t i = 1; i < text.size(); ++i) {
    if (!std::isdigit(static_cast<unsigned char>(text[i]))) return std::nullopt;
    row = row * 10 + (text[i] - '0');
  }
  if (text[1] == '0' || row < 1 || row > size) return std::nullopt;
  return (row - 1) * size + col;
}

const char* RuleSetName(RuleSet rules) {
  return rules == RuleSet::kStandard ? "standard" : "classic";
}

std::string GameName(RuleSet rules, int size) {
  return std::string(RuleSetName(rules)) + " " + std::to_string(size) + "x" + std::to_string(size);
}

std::optional<RuleSet> ParseRuleSet(std::string_view text) {
  if (text == "standard") return RuleSet::kStandard;
  if (text == "classic") return RuleSet::kClassic;
  return std::nullopt;
}

const char* ColorName(Color c) { return c == Color::kBlack ? "black" : "white"; }

const char* DecisionName(Decision d) {
  switch (d) {
    case Decision::kSetupShooter:
      return "setup_shooter";
    case Decision::kSetupStone:
      return "setup_stone";
    case Decision::kPie:
      return "pie";
    case Decision::kChooseShooter:
      return "choose_shooter";
    case Decision::kDestination:
      return "destination";
    case Decision::kShot:
      return "shot";
    case Decision::kGameOver:
      return "game_over";
  }
  return "?";
}

std::string TurnToString(const Position& before, const Turn& turn) {
  const int n = before.Size();
  const Action pass = before.PassAction();
  if (before.Pending() == Decision::kChooseShooter) {
    if (turn[0] == pass) return SquareName(n, turn[1]);
    return SquareName(n, turn[0]) + "-" + SquareName(n, turn[1]) + "/" + SquareName(n, turn[2]);
  }
  if (before.Pending() == Decision::kPie && turn.length == 1 && turn[0] == pass) return "swap";
  // Setup: shooters in notation order (the order they are placed in), then the stone.
  const bool standard = before.Rules() == RuleSet::kStandard;
  const int shooters = standard ? turn.length - 1 : turn.length;
  std::string s;
  for (int i = 0; i < shooters; ++i) {
    if (i > 0) s += ',';
    s += SquareName(n, turn[i]);
  }
  if (standard) s += "/" + SquareName(n, turn[shooters]);
  return s;
}

std::vector<std::string> SortedMoveNames(const Position& pos) {
  std::vector<std::string> names;
  ForEachTurn(pos, [&](const Turn& t) { names.push_back(TurnToString(pos, t)); });
  std::sort(names.begin(), names.end());
  return names;
}

util::Result<Turn> ParseTurn(const Position& before, std::string_view text) {
  if (text.empty()) return util::Result<Turn>::Error("empty move");
  if (before.IsTerminal()) {
    return util::Result<Turn>::Error(std::string("the game is over: ") +
                                     (before.Winner() == Color::kBlack ? "Black" : "White") +
                                     " has won");
  }
  switch (before.Pending()) {
    case Decision::kPie:
      if (text == "swap") {
        Turn t;
        t.Push(before.PassAction());
        return t;
      }
      return ParseSetup(before, text);
    case Decision::kSetupShooter:
      if (text == "swap") {
        return util::Result<Turn>::Error(
            "swap is only allowed right after Black's setup, under standard rules");
      }
      if (before.PlacedThisTurn() != 0) break;
      return ParseSetup(before, text);
    case Decision::kChooseShooter:
      if (text == "swap") {
        return util::Result<Turn>::Error(
            "swap is only allowed right after Black's setup, under standard rules");
      }
      return ParsePlay(before, text);
    default:
      break;
  }
  return util::Result<Turn>::Error("the position is in the middle of a turn");
}

util::Result<Game> PlayRecord(RuleSet rules, int size, std::string_view record) {
  if (!IsSupportedSize(size)) {
    return util::Result<Game>::Error("unsupported board size " + std::to_string(size) +
                                     " (expected 7, 9 or 10)");
  }
  Game game{Position::Initial(rules, size), Position::Initial(rules, size), {}, {}};
  size_t i = 0;
  int number = 0;
  while (i < record.size()) {
    while (i < record.size() && std::isspace(static_cast<unsigned char>(record[i]))) ++i;
    if (i >= record.size()) break;
    size_t j = i;
    while (j < record.size() && !std::isspace(static_cast<unsigned char>(record[j]))) ++j;
    const std::string_view move = record.substr(i, j - i);
    ++number;
    util::Result<Turn> turn = ParseTurn(game.final, move);
    if (!turn) {
      return util::Result<Game>::Error("move " + std::to_string(number) + " " + Quoted(move) +
                                       ": " + turn.error());
    }
    game.before.push_back(game.final);
    game.turns.push_back(turn.value());
    ApplyTurn(game.final, turn.value());
    i = j;
  }
  return game;
}

std::string RecordToString(const Game& game) {
  std::string s;
  for (size_t i = 0; i < game.turns.size(); ++i) {
    if (i > 0) s += ' ';
    s += TurnToString(game.before[i], game.turns[i]);
  }
  return s;
}

std::vector<std::string> BoardRows(const Position& pos) {
  const int n = pos.Size();
  std::vector<std::string> rows;
  for (int row = n - 1; row >= 0; --row) {
    std::string line;
    for (int col = 0; col < n; ++col) {
      const int sq = row * n + col;
      char c = '.';
      if (pos.Stones(Color::kBlack).Test(sq)) c = 'x';
      if (pos.Stones(Color::kWhite).Test(sq)) c = 'o';
      if (pos.UnclaimedShooters().Test(sq)) c = 'S';
      if (pos.Claimed(Color::kBlack).Test(sq)) c = 'X';
      if (pos.Claimed(Color::kWhite).Test(sq)) c = 'O';
      line += c;
    }
    rows.push_back(line);
  }
  return rows;
}

std::string Diagram(const Position& pos) {
  const int n = pos.Size();
  const std::vector<std::string> rows = BoardRows(pos);
  std::string s;
  for (int i = 0; i < n; ++i) {
    const int rank = n - i;
    s += (rank < 10 ? " " : "") + std::to_string(rank) + " ";
    for (int col = 0; col < n; ++col) {
      s += ' ';
      s += rows[i][col];
    }
    s += '\n';
  }
  s += "   ";
  for (int col = 0; col < n; ++col) {
    s += ' ';
    s += static_cast<char>('a' + col);
  }
  s += '\n';
  return s;
}

util::Result<Position> PositionFromDiagram(RuleSet rules, std::string_view rows, Color to_move) {
  std::vector<std::string> lines;
  for (std::string_view line : Split(rows, '\n')) {
    std::string compact;
    for (char c : line) {
      if (!std::isspace(static_cast<unsigned char>(c))) compact += c;
    }
    if (!compact.empty()) lines.push_back(compact);
  }
  const int n = static_cast<int>(lines.size());
  if (!IsSupportedSize(n)) {
    return util::Result<Position>::Error("a diagram needs 7, 9 or 10 rows, got " +
                                         std::to_string(n));
  }
  Bitboard parts[5];
  for (int i = 0; i < n; ++i) {
    if (static_cast<int>(lines[i].size()) != n) {
      return util::Result<Position>::Error("diagram row " + std::to_string(i + 1) + " has " +
                                           std::to_string(lines[i].size()) + " squares, expected " +
                                           std::to_string(n));
    }
    for (int col = 0; col < n; ++col) {
      const int sq = (n - 1 - i) * n + col;
      const std::string_view kinds = "xoSXO";
      const char c = lines[i][col];
      if (c == '.') continue;
      const size_t k = kinds.find(c);
      if (k == std::string_view::npos) {
        return util::Result<Position>::Error(std::string("unknown diagram character '") + c +
                                             "' (expected one of . x o S X O)");
      }
      parts[k].Set(sq);
    }
  }
  const int shooters = (parts[2] | parts[3] | parts[4]).Count();
  if (shooters != RulesForSize(n).shooters) {
    return util::Result<Position>::Error(
        "a " + std::to_string(n) + "x" + std::to_string(n) + " diagram needs " +
        std::to_string(RulesForSize(n).shooters) + " shooters, got " + std::to_string(shooters));
  }
  std::optional<Position> p =
      Position::FromContents(rules, n, parts[0], parts[1], parts[2], parts[3], parts[4], to_move);
  if (!p) return util::Result<Position>::Error("inconsistent diagram");
  return *p;
}

}  // namespace veletas::rules
