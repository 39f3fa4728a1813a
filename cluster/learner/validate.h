// What a learner checks in a self-play game a worker sent, beyond the entry's framing
// (cluster/transport/entry.h) and the sample file's own checks (data/sample_file.h: consistent
// positions, legal policy actions summing to one, aux targets on shooters, outcomes of +1/-1,
// root values in [-1, 1]): a buggy or hostile worker must not poison the training data.
#pragma once

#include <string>

#include "data/sample_file.h"
#include "rules/position.h"
#include "util/result.h"

namespace veletas::cluster {

// Ok when `game` (a sample file holding exactly one game) is a game of `rules` and `size`
// whose record replays through the rules (ended by the rules, or resigned by the player to
// move at a play-phase turn start), whose winner is the record's, whose samples are
// positions of the record's sub-decisions with more than one legal action, in the order
// played, as many as the game says, each with the outcome of the game for its player to move,
// and an aux target for every shooter on the board. Else bad input; the message starts with
// the reason's name ("illegal record: ...", "inconsistent samples: ...", "wrong outcome: ...").
// When ok and `canonical` is given, it receives the record in canonical form
// (rules::RecordToString of the replayed game: single spaces, no padding), and `end`, when
// given, the game's last position (for a resigned game, where its player to move resigned).
// Thread-safe.
util::Status ValidateSelfplayGame(const data::SampleFile& game, rules::RuleSet rules, int size,
                                  std::string* canonical = nullptr, rules::Position* end = nullptr);

// The reason's name of a rejection message: the text before its first ':' ("malformed",
// "checksum", "oversized", "illegal record", ...), or "rejected".
std::string RejectionReason(const std::string& message);

}  // namespace veletas::cluster
