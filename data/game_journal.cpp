#include "data/game_journal.h"

#include <filesystem>
#include <set>

#include "data/sample_dir.h"
#include "util/atomic_file.h"
#include "util/byte_io.h"
#include "util/checksum.h"

namespace veletas::data {

using util::Reader;
using util::Writer;
namespace {

// Entries of this format version; "VZJ" followed by another digit is an entry of another
// version (earlier builds wrote "VZJ1", checksummed with FNV-1a).
constexpr char kEntryMagic[4] = {'V', 'Z', 'J', '0' + kSampleFormatVersion};
constexpr size_t kEntryHeader = 4 + 8 + 4 + 8;

}  // namespace

std::string JournalPath(const std::string& dir, const std::string& prefix, int64_t chunk) {
  return ChunkPath(dir, prefix, chunk) + ".part";
}

util::Result<std::string> EncodeJournalEntry(uint64_t index, const SampleFile& game) {
  const auto encoded = EncodeSampleFile(game);
  if (!encoded) return encoded.error_value();
  const std::string& payload = encoded.value();
  Writer entry;
  entry.Bytes(std::string_view(kEntryMagic, 4));
  entry.U64(index);
  entry.U32(payload.size());
  entry.U64(util::Checksum64(payload));
  entry.Bytes(payload);
  return std::move(entry.str());
}

util::Status AppendJournalGame(const std::string& path, uint64_t index, const SampleFile& game) {
  const auto entry = EncodeJournalEntry(index, game);
  if (!entry) return util::Prefixed(entry.error_value(), path + ": ");
  return util::AppendFile(path, entry.value());
}

util::Result<JournalContents> ReadJournal(const std::string& path, rules::RuleSet rules,
                                          int size, uint64_t first, uint64_t count) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return JournalContents{};
  const auto read = util::ReadFile(path);
  if (!read) {
    JournalContents out;
    out.note = read.error() + "; its games will be played again";
    return out;
  }
  util::Result<JournalContents> parsed =
      ParseJournal(read.value(), path, rules, size, first, count);
  if (!parsed) return parsed;  // another version's journal is left as it is
  JournalContents& out = parsed.value();
  if (out.good_bytes < read.value().size()) {
    std::filesystem::resize_file(path, out.good_bytes, ec);
  }
  return parsed;
}

util::Result<JournalContents> ParseJournal(std::string_view data, const std::string& path,
                                           rules::RuleSet rules, int size, uint64_t first,
                                           uint64_t count) {
  JournalContents out;
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
    Reader header(data.substr(at, kEntryHeader));
    const std::string_view magic = header.Bytes(4);
    if (magic.substr(0, 3) == "VZJ" && magic != std::string_view(kEntryMagic, 4)) {
      return util::Error{where + ": journal entry of format version " + std::string(1, magic[3]) +
                         " (written by another build); this build reads version " +
                         std::to_string(kSampleFormatVersion) +
                         " only: finish or remove the run with the build that wrote it"};
    }
    if (magic != std::string_view(kEntryMagic, 4)) {
      stop("not a journal entry");
      break;
    }
    const uint64_t index = header.U64();
    const uint64_t length = header.U32();
    const uint64_t sum = header.U64();
    if (data.size() - at - kEntryHeader < length) {
      stop("truncated");
      break;
    }
    const std::string_view payload = data.substr(at + kEntryHeader, length);
    if (util::Checksum64(payload) != sum) {
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
    util::Result<SampleFile> game = DecodeSampleFile(payload, where);
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
  out.good_bytes = at;
  return out;
}

}  // namespace veletas::data
