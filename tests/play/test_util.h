// Helpers shared by the play tests: temporary directories, a child process driven through
// pipes, random games and a constructed blunder.
#pragma once

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "rules/notation.h"
#include "rules/position.h"
#include "rules/turns.h"
#include "tests/support/files.h"
#include "tests/support/temp_dir.h"
#include "util/random.h"

namespace veletas::play::testing {

using test_support::TempDir;

using test_support::ReadAll;

// A child process with its stdin and stdout connected to pipes (stderr goes to a file).
class Child {
 public:
  // Starts argv[0] with the arguments argv[1..].
  Child(const std::vector<std::string>& argv, const std::string& stderr_path);
  ~Child();  // kills the child if it still runs
  Child(const Child&) = delete;
  Child& operator=(const Child&) = delete;

  void Send(const std::string& text);
  // Output up to and including the first `marker` not yet returned. Fails the test and
  // returns what there is after `timeout_s`, and at the end of the output unless `eof_ok`.
  std::string ReadUntil(const std::string& marker, double timeout_s = 60.0, bool eof_ok = false);
  // Everything until the child closes its output.
  std::string ReadToEnd(double timeout_s = 60.0);
  void CloseInput();
  // Waits for the exit; the exit code (-1 if killed by a signal).
  int Wait();

 private:
  // Reads what is available within `timeout_s`; false at end of output or timeout.
  bool Fill(double timeout_s);
  int pid_ = -1;
  int in_ = -1;   // child's stdin
  int out_ = -1;  // child's stdout
  bool eof_ = false;
  std::string buffer_;
};

// The turns of a uniformly random game from the empty board (to the end).
struct RandomGame {
  std::vector<rules::Position> before;  // before[i]: the position before turns[i]
  std::vector<rules::Turn> turns;
  rules::Position final;
};
RandomGame PlayRandomGame(rules::RuleSet rules, int size, uint64_t seed);

// The record in notation of the first `count` turns of `game`.
std::string RecordPrefix(const RandomGame& game, int count);

// True when the player to move has a full turn that wins at once; fills `fraction` with the
// share of its turns that do.
bool HasImmediateWin(const rules::Position& pos, double* fraction = nullptr);

// A 7x7 standard record from the empty board whose last move is a blunder: before it, the
// mover had no immediate win and most of its turns (at least half) left the opponent no
// immediate win; the move played lets the opponent win at once with at least 30% of its
// turns. Found in seeded random games; the criteria are checked by enumerating turns.
struct BlunderRecord {
  std::string record;
  int moves = 0;  // number of moves; the blunder is the last
};
BlunderRecord FindBlunderRecord(uint64_t seed);

}  // namespace veletas::play::testing
