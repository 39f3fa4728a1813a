// Games left out of training after they were stored: a sample directory's
// "excluded_games.txt" lists their ids (32 hex digits a line). The cluster learner adds the
// games of a worker that failed a spot check (cluster/learner/learner.h); the replay window
// (training/replay_window.h) leaves them out. The sample files themselves are not rewritten.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "data/sample.h"
#include "data/sample_file.h"
#include "util/result.h"

namespace veletas::data {

// "<dir>/excluded_games.txt".
std::string ExcludedGamesPath(const std::string& dir);

// The ids listed for `dir` (empty when there is no list). Bad input naming the file and line
// when a line is not a game id.
util::Result<std::set<GameId>> ReadExcludedGames(const std::string& dir);

// Adds `ids` to the list of `dir` (rewritten atomically, each id once). Errors name the file.
util::Status AddExcludedGames(const std::string& dir, const std::vector<GameId>& ids);

// Removes the games in `excluded` and their samples from `file`; returns the samples
// removed. Precondition: the games' sample counts add up to file.samples.size().
int64_t DropExcludedGames(SampleFile& file, const std::set<GameId>& excluded);

}  // namespace veletas::data
