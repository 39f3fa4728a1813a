#include "tests/support/rules_helpers.h"

#include <algorithm>
#include <sstream>
#include <stdexcept>

namespace veletas::testing {

using rules::Bitboard;
using rules::Position;

Position FromDiagram(rules::RuleSet rules, std::string_view rows, rules::Color to_move) {
  util::Result<Position> p = rules::PositionFromDiagram(rules, rows, to_move);
  if (!p) throw std::runtime_error("bad test diagram: " + p.error());
  return p.value();
}

std::string PaddedDiagram(int size, std::string_view fragment) {
  std::vector<std::string> rows;
  std::istringstream in{std::string(fragment)};
  for (std::string line; std::getline(in, line);) {
    std::string compact;
    for (char c : line) {
      if (c != ' ' && c != '\t' && c != '\r') compact += c;
    }
    if (!compact.empty()) rows.push_back(compact);
  }
  if (static_cast<int>(rows.size()) > size - 2) throw std::runtime_error("fragment too tall");
  std::vector<std::string> board(size, std::string(size, '.'));
  int shooters = 0;
  for (size_t i = 0; i < rows.size(); ++i) {
    if (static_cast<int>(rows[i].size()) > size) throw std::runtime_error("fragment too wide");
    const int row_from_top = size - static_cast<int>(rows.size()) + static_cast<int>(i);
    for (size_t col = 0; col < rows[i].size(); ++col) {
      board[row_from_top][col] = rows[i][col];
      if (rows[i][col] == 'S' || rows[i][col] == 'X' || rows[i][col] == 'O') ++shooters;
    }
  }
  int missing = rules::RulesForSize(size).shooters - shooters;
  if (missing < 0) throw std::runtime_error("fragment holds too many shooters");
  for (int row = 0; row < 2 && missing > 0; ++row) {
    for (int col = size - 1 - row; col >= 0 && missing > 0; col -= 2, --missing) {
      board[row][col] = 'S';
    }
  }
  std::string out;
  for (const std::string& r : board) out += r + "\n";
  return out;
}

int Sq(int size, std::string_view name) {
  const std::optional<int> sq = rules::ParseSquare(size, name);
  if (!sq) throw std::runtime_error("bad square name in test: " + std::string(name));
  return *sq;
}

Bitboard Squares(int size, std::string_view names) {
  Bitboard b;
  std::istringstream in{std::string(names)};
  for (std::string name; in >> name;) b.Set(Sq(size, name));
  return b;
}

std::string Names(int size, Bitboard b) {
  std::string s;
  for (int sq : b) {
    if (!s.empty()) s += ' ';
    s += rules::SquareName(size, sq);
  }
  return s;
}

std::string Sorted(int size, std::string_view names) { return Names(size, Squares(size, names)); }

std::vector<std::string> TurnStrings(const Position& pos) {
  std::vector<std::string> out;
  for (const rules::Turn& t : rules::LegalTurns(pos)) out.push_back(rules::TurnToString(pos, t));
  std::sort(out.begin(), out.end());
  return out;
}

bool IsLegalTurn(const Position& pos, std::string_view text) {
  return TurnError(pos, text).empty();
}

std::string TurnError(const Position& pos, std::string_view text) {
  const util::Result<rules::Turn> t = rules::ParseTurn(pos, text);
  return t.ok() ? "" : t.error();
}

void Play(Position& pos, std::string_view text) {
  util::Result<rules::Turn> t = rules::ParseTurn(pos, text);
  if (!t) throw std::runtime_error("illegal test move " + std::string(text) + ": " + t.error());
  rules::ApplyTurn(pos, t.value());
}

Position AfterRecord(rules::RuleSet rules, int size, std::string_view record) {
  util::Result<rules::Game> g = rules::PlayRecord(rules, size, record);
  if (!g) throw std::runtime_error("bad test record: " + g.error());
  return g.value().final;
}

}  // namespace veletas::testing
