// Pooling matches: one result from several match records of the same two players, e.g. a long
// match played as parts with different seeds (so that a stopped session loses at most one
// part), or on several machines.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "arena/elo.h"
#include "arena/match_record.h"
#include "util/result.h"

namespace veletas::arena {

struct PooledMatch {
  rules::RuleSet rules = rules::RuleSet::kStandard;
  int size = 0;
  MatchPlayer a, b;
  int games = 0, a_wins = 0, b_wins = 0;
  EloEstimate elo;                 // A - B from all the games (EstimateElo)
  std::vector<std::string> parts;  // the files pooled, in the order given
};

// The parts of a pool as read from their files.
struct MatchParts {
  std::vector<MatchRecord> matches;  // the match records, in the order of the files
  std::vector<std::string> records;  // each part's games in notation; "" without its file
};

// The match records `files` (DIR/matches/NAME.json) with the games of each from its records
// file beside it (RecordsFileName), where there is one. Errors name the file that cannot be
// read or is no match record.
util::Result<MatchParts> ReadMatchParts(const std::vector<std::string>& files);

// The pool of `matches` (read from `files`, parallel). Bad input, naming the file, when a
// match is of other rules, board size or players (name and spec) than the first, when two
// files are the same match (the same name), or when `records` (each part's games in
// notation, parallel; "" where unknown) shows two parts with the same games, e.g. the same
// seed played twice. Precondition: at least one match, the vectors of equal length.
util::Result<PooledMatch> PoolMatches(const std::vector<MatchRecord>& matches,
                                      const std::vector<std::string>& files,
                                      const std::vector<std::string>& records);

// One line per part and the pooled result with its Elo interval, for people.
std::string PooledMatchText(const PooledMatch& p, const std::vector<MatchRecord>& matches);

// As `veletas match --json` writes a match's totals (games, a_wins, b_wins, players, rules,
// size, elo {a_minus_b, low, high, bound, los}), with format "veletas-match-pool" and the
// parts (file, games, a_wins, b_wins).
nlohmann::json PooledMatchJson(const PooledMatch& p, const std::vector<MatchRecord>& matches);

}  // namespace veletas::arena
