// Arena tasks: the learner posts each gate or ladder match as tasks of a few games (one
// stream entry each, field "t", JSON); a worker plays a task's games with arena::Arena, which
// makes game `index` of a match the same game wherever it is played (same players, seed and
// openings), and sends each game back as an arena entry (cluster/transport/entry.h).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "arena/player_spec.h"
#include "rules/position.h"
#include "util/result.h"

namespace veletas::cluster {

// The largest number of games in one task a worker accepts.
inline constexpr int kMaxTaskGames = 4096;

struct TaskPlayer {
  std::string name;  // the ladder name: "gen_3", "uct_1000", "random"
  arena::PlayerKind kind = arena::PlayerKind::kRandom;
  int budget = 0;            // UCT playouts or MCTS simulations
  std::string network;       // kMcts: the network id (cluster/transport/networks.h)
  long long generation = 0;  // kMcts: the network's generation
};

struct ArenaTask {
  std::string match;
  rules::RuleSet rules = rules::RuleSet::kStandard;
  int size = 7;
  uint64_t seed = 1;  // the match's arena seed
  int opening_turns = 1;
  TaskPlayer a, b;
  std::vector<int> games;  // game indices, distinct
};

// The task as JSON.
std::string EncodeTask(const ArenaTask& task);
// The task of `json`, or bad input saying what is wrong (unknown or missing fields, values
// out of range, more than kMaxTaskGames games).
util::Result<ArenaTask> DecodeTask(std::string_view json);

}  // namespace veletas::cluster
