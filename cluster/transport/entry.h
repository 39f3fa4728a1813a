// The cluster's result entries: one finished game as a worker sends it (one stream entry,
// field "e"; docs/CLUSTER.md has the byte layout). A self-play entry carries the game as a
// sample file of one game (data/sample_file.h, with its own checksums); an arena entry
// carries the game of a task (arena::ArenaGame). Both carry the game id, the worker id and a
// checksum of the whole entry. Decoding checks the framing and the limits before it allocates
// anything; what the game means is checked by cluster/learner/validate.h.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "arena/arena.h"
#include "data/sample.h"
#include "data/sample_file.h"
#include "model/base/net_config.h"
#include "selfplay/spot_check.h"
#include "util/result.h"

namespace veletas::cluster {

enum class EntryKind : uint8_t { kSelfplay = 1, kArena = 2 };

// The largest entry a learner accepts by default (an endless 10x10 game stays far below).
inline constexpr int64_t kDefaultMaxEntryBytes = 4 << 20;

// How many times its entry limit the sample file of an entry may declare uncompressed: real
// games expand 3.0-3.5 times (7x7 and 10x10 self-play games measured), so 16 leaves room
// while a decompression bomb of a 4 MiB entry gets at most 64 MiB.
inline constexpr uint64_t kMaxExpansion = 16;

struct Entry {
  EntryKind kind = EntryKind::kSelfplay;
  data::GameId game_id;
  // The sending worker's id (util::ValidateName, cluster/transport/keys.h kMaxNameLength): the
  // owner of the stream it came in.
  std::string worker;
  // kSelfplay: the network that played it (64 hex digits, the SHA-256 of its published
  // checkpoint) and the game with its samples (one game in `game.games`).
  std::string network;
  // kSelfplay: the inference precision the worker evaluated the network at (on the wire its
  // name, model::InferencePrecisionName, at most 16 bytes; nullopt: "" or a name this build
  // does not know): the learner's spot checks use the same.
  std::optional<model::InferencePrecision> precision;
  data::SampleFile game;
  // kSelfplay: the root summary of each sample's search (parallel to game.samples), for the
  // learner's spot checks (selfplay/spot_check.h).
  std::vector<selfplay::RootSummary> summaries;
  // kArena: the task (its stream id), the match and the game.
  std::string task;
  std::string match;
  arena::ArenaGame arena;
};

// The bytes of `entry`. Preconditions: worker, task and match at most 255 bytes; network 64
// hex digits for kSelfplay. Errors (failures) come from encoding the sample file.
util::Result<std::string> EncodeEntry(const Entry& entry);

// The entry in `bytes`, refused (bad input saying what is wrong) when longer than
// `max_bytes`, not an entry, of another version, torn (lengths), corrupt (checksums), or
// carrying a sample file that does not decode (data::DecodeSampleFile, its uncompressed size
// limited to kMaxExpansion times `max_bytes`). The game's content is not checked here.
util::Result<Entry> DecodeEntry(std::string_view bytes, int64_t max_bytes);

// The id of game `index` of arena match `match`: the same for every worker that plays it,
// so that a game played twice (a reclaimed task) is stored once.
data::GameId ArenaGameId(const std::string& match, int index);

// The id of a self-play game by its content: the same for every copy of the game, whatever id
// its worker gave it, so that a game sent twice under two ids is stored once. Precondition:
// `canonical_record` is in canonical form (cluster::ValidateSelfplayGame).
data::GameId SelfplayGameId(rules::RuleSet rules, int size, const std::string& canonical_record);

// A random game id (from the system's random device).
data::GameId RandomGameId();

}  // namespace veletas::cluster
