// The words of a match for people and scripts: its progress line, its headline, the summary
// `veletas match` prints (or its JSON object), a gate's result, and the name of a new match.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "arena/arena.h"
#include "arena/gate.h"
#include "arena/match_record.h"
#include "util/result.h"

namespace veletas::arena {

// "3/10 games, gen_4 2 - 1 gen_3, 0.50 games/s": games done of the total, the wins of each
// side between the names `a` and `b` ("" for none) and the speed so far.
std::string ProgressText(const ArenaProgress& p, const std::string& a = "",
                         const std::string& b = "");

// "A (spec) vs B (spec), standard 7x7, 10 games, 4 in parallel, 2 threads, seed 1\n", and a
// line saying that a match with a time per turn depends on the machine and its load.
std::string MatchHeadline(const ArenaPlayer& a, const ArenaPlayer& b, rules::RuleSet rules,
                          int size, long long games, const ArenaConfig& config);

// The result of a match in words: games and speed, wins by seat and colour, score, Elo A - B
// with its 95% interval, LOS, the network batching when neural players took part, and the mean
// simulations per turn of timed players (of the games played by this process).
std::string MatchSummary(const Arena& arena);

// Elo A - B as the JSON of `veletas match` and `veletas pool` give it: a_minus_b, low, high,
// bound, los.
nlohmann::json EloJson(const EloEstimate& e);

// `record` as MatchRecordToJson writes it, with the files it went to and the match's
// counters (seconds, turns, network evaluations and calls; `a_timed` / `b_timed`: a timed
// player's turns and mean simulations per turn) and its Elo A - B with the 95% interval (`elo`:
// EloJson): `veletas match --json`.
nlohmann::json MatchResultJson(const MatchRecord& record, const Arena& arena,
                               const std::string& match_file, const std::string& records_file);

// "gate: A (spec) against B (spec), standard 7x7, sprt, batches of 40 games\n": what `veletas
// gate` plays, `candidate` against `best` with `gate`.
std::string GateHeadline(const ArenaPlayer& candidate, const ArenaPlayer& best,
                         rules::RuleSet rules, int size, const GateSettings& gate);

// A gate's result in words (the reason, Elo candidate - best, the decision, the match file)
// or as one JSON object, for `candidate` against `best`.
std::string GateResultText(const GateResult& r, const ArenaPlayer& candidate,
                           const ArenaPlayer& best);
nlohmann::json GateResultJson(const GateResult& r, const ArenaPlayer& candidate,
                              const ArenaPlayer& best);

// The name of a new match of `a` against `b` in OUT_DIR/matches/: `wanted` when given, which
// must be a valid name (else an error naming --name) whose match file is not there; otherwise
// A-vs-B with a numeric suffix rather than overwrite an earlier match. A match that was
// stopped keeps its name (its journal, arena_journal.h, is resumed). Bad input names what to
// change.
util::Result<std::string> NewMatchName(const std::string& out_dir,
                                       const std::optional<std::string>& wanted,
                                       const std::string& a, const std::string& b);

}  // namespace veletas::arena
