// Helpers of the engine protocol's files (play/engine_protocol.cpp, play/engine_analyse.cpp):
// parsing counts and formatting win rates and candidates. Not a public interface.
#pragma once

#include <string>

#include "play/turn_search.h"
#include "rules/position.h"

namespace veletas::play::engine_text {

// A whole non-negative decimal integer in [lo, hi], or -1.
long long ParseCount(const std::string& text, long long lo, long long hi);

// A win rate with four decimals: "0.4925".
std::string FormatRate(float r);

// One candidate of `pos` as analyse prints it: "move M winrate W lcb L visits V pv ...".
std::string CandidateText(const rules::Position& pos, const TurnCandidate& c);

// Says on stderr that a search stopped at the tree's node budget, when it did.
void ReportNodeLimit(const char* command, const TurnAnalysis& a);

}  // namespace veletas::play::engine_text
