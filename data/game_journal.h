// The journal of a sample file still being filled: every finished game of an incomplete
// file is appended to "<prefix>_<k>.vzs.part" at once, so a killed self-play run loses no
// finished game. A resumed run takes the journal's games back and plays only the others;
// when the file is complete it is written (util/atomic_file.h) and its journal removed.
//
// Entry layout (little-endian): "VZJ3", u64 game index, u32 payload length, u64 XXH3 of the
// payload (util::Checksum64), then the payload: a sample file (sample_file.h, version 3)
// holding that one game. A kill can tear only the last entry; reading stops there. Entries
// of earlier builds ("VZJ1", FNV-1a) are refused, never read or cut away.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "data/sample_file.h"
#include "rules/position.h"
#include "util/result.h"

namespace veletas::data {

// "<dir>/<prefix>_<chunk>.vzs.part".
std::string JournalPath(const std::string& dir, const std::string& prefix, int64_t chunk);

// A game taken back from a journal: its index and a sample file holding only it.
struct JournalGame {
  uint64_t index = 0;
  SampleFile game;
};

// The bytes of the journal entry of game `index` (one game in `game`). Thread-safe.
util::Result<std::string> EncodeJournalEntry(uint64_t index, const SampleFile& game);

// Appends one finished game to the journal at `path` (created if missing). The error names
// the file. Not thread-safe for one path: callers serialise appends.
util::Status AppendJournalGame(const std::string& path, uint64_t index, const SampleFile& game);

struct JournalContents {
  std::vector<JournalGame> games;  // in the order appended, each index once
  std::string note;                // non-empty when a torn or bad entry was dropped
  size_t good_bytes = 0;           // the length of the entries read (the journal's good part)
};

// The games of the journal bytes `data` (the file `path`, named in the note and errors), read
// as ReadJournal does (including its error for an entry of another format version), without
// touching the file. Thread-safe.
util::Result<JournalContents> ParseJournal(std::string_view data, const std::string& path,
                                           rules::RuleSet rules, int size, uint64_t first,
                                           uint64_t count);

// Reads the journal at `path`. Entries whose game is not one valid game of `rules` and
// `size` with an index in [first, first + count), or that repeat an index, end the reading
// (the note says where and why); what was read before stays, and the file is cut back to
// it so that later appends follow good entries. A missing file is empty. A journal holding
// an entry of another format version (an earlier build's) is bad input naming the file and
// the versions, and is left as it is.
util::Result<JournalContents> ReadJournal(const std::string& path, rules::RuleSet rules,
                                          int size, uint64_t first, uint64_t count);

}  // namespace veletas::data
