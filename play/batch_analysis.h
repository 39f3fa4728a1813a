// Batch analysis for scripts (`veletas analyse --json-stream`, docs/ENGINE_PROTOCOL.md,
// "Batch analysis"): JSON lines in, one position each; JSON lines out, one answer each, in
// the order the searches finish. Up to `parallel` positions are searched at once, their
// leaves evaluated together (one Evaluate call per step for searchers that share an
// evaluator). Native builds only (a thread reads while the searches run).
#pragma once

#include <functional>
#include <iosfwd>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "play/turn_search.h"
#include "rules/position.h"
#include "util/result.h"

namespace veletas::play {

// What every query gets unless it says otherwise, and the game it is played in.
struct BatchSetup {
  rules::RuleSet rules = rules::RuleSet::kStandard;
  int size = 7;
  bool fixed_game = false;  // a network: queries may not name another game
  int visits = 200;         // the default budget (SearchBudget::visits)
  int candidates = 5;       // the default number of candidates
  int parallel = 8;         // positions searched at once (>= 1)
  // Makes the searcher of slot i (0 <= i < parallel); searchers that return the same
  // OwnEvaluator() share its batches.
  std::function<std::unique_ptr<TurnSearcher>(int slot)> make_searcher;
};

// One position to analyse, read from a JSON line.
struct BatchQuery {
  std::string id_json = "null";  // the query's "id", echoed as JSON text
  rules::Position pos;
  int turns = 0;  // full turns played to reach pos
  int visits = 0;
  int candidates = 0;
};

// Parses one query line: {"id": any, "moves": "c3/a1 b5,c4/g6" or ["c3/a1", ...], "rules":
// "standard"|"classic", "size": 7|9|10, "visits": N, "candidates": K} ("moves" required;
// the others default to `setup`'s). Errors name the key and what was expected; an unknown
// key is an error. `id_json` is filled whenever the line is a JSON object with an "id".
util::Result<BatchQuery> ParseBatchQuery(std::string_view line, const BatchSetup& setup,
                                         std::string& id_json);

// The answer line (no newline) for `query`'s analysis: {"id":..., "turns":N, "to_move":
// "black", "simulations":S, "candidates":[{"move":..., "winrate":0.5123, "lcb":0.4876,
// "visits":V, "pv":[...]}, ...]}; win rates rounded to four decimals.
std::string BatchAnswer(const BatchQuery& query, const TurnAnalysis& analysis);

// An error line: {"id":..., "line":N, "error":"..."}.
std::string BatchError(const std::string& id_json, int line, const std::string& message);

// Answers the query lines `lines` (line numbers from 1; blank ones skipped) on `out`: the
// first `parallel` searches start together. Returns the number of error lines.
int AnalyseBatch(const BatchSetup& setup, const std::vector<std::string>& lines, std::ostream& out);

// Reads query lines from `in` until its end (a thread reads while the searches run, at most
// 1024 lines ahead) and writes an answer or an error line for each non-blank one to `out`
// (flushed per line). Returns the number of error lines, or a failure of the evaluator.
util::Result<int> ServeBatchAnalysis(const BatchSetup& setup, std::istream& in, std::ostream& out);

}  // namespace veletas::play
