#include "selfplay/game_journal.h"

#include <cstring>
#include <filesystem>
#include <set>

#include "selfplay/sample_dir.h"
#include "util/atomic_file.h"

namespace veletas::selfplay {
namespace {

constexpr char kEntryMagic[4] = {'V', 'Z', 'J', '1'};
constexpr size_t kEntryHeader = 4 + 8 + 4 + 8;

void PutLe(std::string& out, uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
}

uint64_t GetLe(const char* p, int bytes) {
  uint64_t v = 0;
  for (int i = 0; i < bytes; ++i)
    v |= static_cast<uint64_t>(static_cast<unsigned char>(p[i])) << (8 * i);
  return v;
}

}  // namespace

std::string JournalPath(const std::string& dir, const std::string& prefix, int64_t chunk) {
  return ChunkPath(dir, prefix, chunk) + ".part";
}

std::string AppendJournalGame(const std::string& path, uint64_t index, const SampleFile& game) {
  std::string payload;
  if (std::string err = EncodeSampleFile(game, payload); !err.empty()) return path + ": " + err;
  std::string entry(kEntryMagic, 4);
  PutLe(entry, index, 8);
  PutLe(entry, payload.size(), 4);
  PutLe(entry, util::Fnv1a64(payload), 8);
  entry += payload;
  return util::AppendFile(path, entry);
}

JournalContents ReadJournal(const std::string& path, rules::RuleSet rules, int size, uint64_t first,
                            uint64_t count) {
  JournalContents out;
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return out;
  std::string data;
  if (std::string err = util::ReadFile(path, data); !err.empty()) {
    out.note = err + "; its games will be played again";
    return out;
  }
  std::set<uint64_t> seen;
  size_t at = 0;
  while (at < data.size()) {
    const std::string where = path + ": entry " + std::to_string(out.games.size() + 1) + " (byte " +
                              std::to_string(at) + ")";
    auto stop = [&](const std::string& why) {
      out.note = where + ": " + why + "; it and what follows will be played again";
    };
    if (data.size() - at < kEntryHeader) {
      stop("truncated");
      break;
    }
    const char* p = data.data() + at;
    if (std::memcmp(p, kEntryMagic, 4) != 0) {
      stop("not a journal entry");
      break;
    }
    const uint64_t index = GetLe(p + 4, 8);
    const uint64_t length = GetLe(p + 12, 4);
    const uint64_t sum = GetLe(p + 16, 8);
    if (data.size() - at - kEntryHeader < length) {
      stop("truncated");
      break;
    }
    const std::string_view payload(p + kEntryHeader, length);
    if (util::Fnv1a64(payload) != sum) {
      stop("checksum mismatch");
      break;
    }
    if (index < first || index >= first + count) {
      stop("game " + std::to_string(index) + " does not belong to this file");
      break;
    }
    if (!seen.insert(index).second) {
      stop("game " + std::to_string(index) + " appears twice");
      break;
    }
    rules::Result<SampleFile> game = DecodeSampleFile(payload, where);
    if (!game) {
      out.note = game.error() + "; it and what follows will be played again";
      break;
    }
    if (game.value().rules != rules || game.value().size != size ||
        game.value().games.size() != 1) {
      stop("not one game of this run's rules and board size");
      break;
    }
    out.games.push_back(JournalGame{index, std::move(game.value())});
    at += kEntryHeader + length;
  }
  out.valid_bytes = at;
  if (at < data.size()) std::filesystem::resize_file(path, at, ec);
  return out;
}

}  // namespace veletas::selfplay
