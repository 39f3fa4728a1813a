#include "tests/support/naive_rules.h"

#include <algorithm>

#include "rules/notation.h"

namespace veletas::testing {
namespace {

constexpr int kDr[8] = {-1, -1, -1, 0, 0, 1, 1, 1};
constexpr int kDc[8] = {-1, 0, 1, -1, 1, -1, 0, 1};

bool IsShooter(char c) { return c == 'S' || c == 'X' || c == 'O'; }

}  // namespace

NaiveBoard NaiveBoard::Of(const rules::Position& pos) {
  NaiveBoard b;
  b.rules = pos.Rules();
  b.size = pos.Size();
  b.cells.assign(b.size * b.size, '.');
  const std::vector<std::string> rows = rules::BoardRows(pos);  // top row first
  for (int i = 0; i < b.size; ++i) {
    for (int col = 0; col < b.size; ++col) b.cells[(b.size - 1 - i) * b.size + col] = rows[i][col];
  }
  return b;
}

std::vector<int> NaiveBoard::Reach(int from) const {
  std::vector<int> out;
  for (int d = 0; d < 8; ++d) {
    int r = from / size + kDr[d], c = from % size + kDc[d];
    while (r >= 0 && r < size && c >= 0 && c < size) {
      const char cell = cells[r * size + c];
      if (cell == '.') {
        out.push_back(r * size + c);
      } else if (rules == rules::RuleSet::kClassic || !IsShooter(cell)) {
        break;
      }
      r += kDr[d];
      c += kDc[d];
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

bool NaiveBoard::Trapped(int sq) const { return Reach(sq).empty(); }

int NaiveBoard::GroupSize(char stone, int sq) const {
  if (cells[sq] != stone) return 0;
  std::vector<bool> seen(cells.size(), false);
  std::vector<int> stack = {sq};
  seen[sq] = true;
  int count = 0;
  while (!stack.empty()) {
    const int s = stack.back();
    stack.pop_back();
    ++count;
    const int r = s / size, c = s % size;
    const int nr[4] = {r - 1, r + 1, r, r};
    const int nc[4] = {c, c, c - 1, c + 1};
    for (int k = 0; k < 4; ++k) {
      if (nr[k] < 0 || nr[k] >= size || nc[k] < 0 || nc[k] >= size) continue;
      const int t = nr[k] * size + nc[k];
      if (!seen[t] && cells[t] == stone) {
        seen[t] = true;
        stack.push_back(t);
      }
    }
  }
  return count;
}

std::vector<std::string> NaiveBoard::Turns() const {
  std::vector<std::string> out;
  std::vector<bool> stationary(cells.size(), false);
  for (int s = 0; s < size * size; ++s) {
    if (cells[s] != 'S') continue;
    for (int t : Reach(s)) stationary[t] = true;
    for (int t : Reach(s)) {
      NaiveBoard moved = *this;
      moved.cells[s] = '.';
      moved.cells[t] = 'S';
      for (int shot : moved.Reach(t)) {
        out.push_back(rules::SquareName(size, s) + "-" + rules::SquareName(size, t) + "/" +
                      rules::SquareName(size, shot));
      }
    }
  }
  for (int t = 0; t < size * size; ++t) {
    if (stationary[t]) out.push_back(rules::SquareName(size, t));
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::optional<char> NaiveBoard::Play(rules::Color mover, int from, int to, int shot) {
  if (from >= 0) {
    cells[from] = '.';
    cells[to] = 'S';
  }
  const char own = mover == rules::Color::kBlack ? 'x' : 'o';
  cells[shot] = own;
  std::vector<std::pair<int, char>> claims;
  for (int s = 0; s < size * size; ++s) {
    if (cells[s] != 'S' || !Trapped(s)) continue;
    int best_x = 0, best_o = 0;
    const int r = s / size, c = s % size;
    const int nr[4] = {r - 1, r + 1, r, r};
    const int nc[4] = {c, c, c - 1, c + 1};
    for (int k = 0; k < 4; ++k) {
      if (nr[k] < 0 || nr[k] >= size || nc[k] < 0 || nc[k] >= size) continue;
      const int t = nr[k] * size + nc[k];
      best_x = std::max(best_x, GroupSize('x', t));
      best_o = std::max(best_o, GroupSize('o', t));
    }
    const char opponent_claims = mover == rules::Color::kBlack ? 'O' : 'X';
    claims.push_back({s, best_x > best_o ? 'X' : best_o > best_x ? 'O' : opponent_claims});
  }
  for (const auto& [s, who] : claims) cells[s] = who;
  const int x = static_cast<int>(std::count(cells.begin(), cells.end(), 'X'));
  const int o = static_cast<int>(std::count(cells.begin(), cells.end(), 'O'));
  const int shooters = x + o + static_cast<int>(std::count(cells.begin(), cells.end(), 'S'));
  if (2 * x > shooters) return 'X';
  if (2 * o > shooters) return 'O';
  return std::nullopt;
}

}  // namespace veletas::testing
