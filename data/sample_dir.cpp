#include "data/sample_dir.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>
#include <system_error>

#include "data/sample_file.h"
#include "rules/notation.h"
#include "util/atomic_file.h"
#include "util/names.h"

namespace veletas::data {
namespace {

namespace fs = std::filesystem;

// Parses a run of decimal digits (no sign, at most 12 digits) at the start of `text`;
// returns the number of characters used (0: none).
size_t ParseDigits(std::string_view text, int64_t& value) {
  size_t i = 0;
  value = 0;
  while (i < text.size() && i < 12 && std::isdigit(static_cast<unsigned char>(text[i]))) {
    value = value * 10 + (text[i] - '0');
    ++i;
  }
  return i;
}

}  // namespace

std::string ChunkPath(const std::string& dir, const std::string& prefix, int64_t chunk) {
  return (fs::path(dir) / (prefix + "_" + std::to_string(chunk) + ".vzs")).string();
}

int64_t ChunkCount(int64_t games, int games_per_file) {
  return (games + games_per_file - 1) / games_per_file;
}

int64_t ChunkGames(int64_t chunk, int64_t games, int games_per_file) {
  return std::clamp<int64_t>(games - chunk * games_per_file, 0, games_per_file);
}

namespace {

// The complete sample files of `prefix` in `dir`: chunk -> path, in chunk order.
util::Result<std::map<int64_t, std::string>> ListChunkFiles(const std::string& dir,
                                                            const std::string& prefix) {
  std::error_code ec;
  std::map<int64_t, std::string> files;
  const std::string head = prefix + "_";
  for (const fs::directory_entry& e : fs::directory_iterator(dir, ec)) {
    const std::string name = e.path().filename().string();
    if (name.rfind(head, 0) != 0) continue;
    std::string_view rest = std::string_view(name).substr(head.size());
    int64_t chunk = 0;
    const size_t digits = ParseDigits(rest, chunk);
    if (digits == 0) continue;
    rest.remove_prefix(digits);
    if (rest == ".vzs") files[chunk] = e.path().string();
  }
  if (ec) {
    return util::Result<std::map<int64_t, std::string>>::Error(
        dir + ": cannot list the output directory: " + ec.message());
  }
  return files;
}

// Takes the complete files into `plan` (marking their chunks in `done`); unreadable ones
// are noted and played again, files of another game or layout are errors.
util::Status TakeCompleteFiles(const std::map<int64_t, std::string>& files, int64_t games,
                               int games_per_file, rules::RuleSet rules, int size,
                               std::vector<bool>& done, ResumePlan& plan) {
  const int64_t chunks = ChunkCount(games, games_per_file);
  for (const auto& [chunk, path] : files) {
    if (chunk >= chunks) {
      plan.notes.push_back(path + ": ignored (this run has " + std::to_string(chunks) +
                           " files of " + std::to_string(games_per_file) + " games)");
      continue;
    }
    const util::Result<SampleFile> file = ReadSampleFile(path);
    if (!file) {
      // A file of an earlier build is refused, not played again over.
      if (auto version = CheckSampleFileVersion(path); !version) return version.error_value();
      plan.notes.push_back(file.error() + "; skipped: its games will be played again");
      continue;
    }
    if (file.value().rules != rules || file.value().size != size) {
      return util::Status::Error(path + ": holds " +
                                 rules::GameName(file.value().rules, file.value().size) +
                                 " games, this run plays " + rules::GameName(rules, size) +
                                 " (use another output directory)");
    }
    const int64_t expected = ChunkGames(chunk, games, games_per_file);
    if (static_cast<int64_t>(file.value().games.size()) != expected) {
      return util::Status::Error(
          path + ": holds " + std::to_string(file.value().games.size()) + " games, file " +
          std::to_string(chunk) + " of a run of " + std::to_string(games) + " games with " +
          std::to_string(games_per_file) + " per file holds " + std::to_string(expected) +
          " (the number of games or games_per_file changed; use another output "
          "directory)");
    }
    done[static_cast<size_t>(chunk)] = true;
    plan.games_done += expected;
    for (const GameRecord& g : file.value().games) {
      if (!g.id.IsNone()) plan.done_ids.push_back(g.id);
    }
    ++plan.files_done;
  }
  return util::Ok();
}

// For each chunk without a complete file: the games its journal gives back, and the
// indices still to play; a complete chunk's leftover journal is removed.
util::Status TakeJournals(const std::string& dir, const std::string& prefix, int64_t games,
                          int games_per_file, rules::RuleSet rules, int size,
                          const std::vector<bool>& done, ResumePlan& plan) {
  std::error_code ec;
  const int64_t chunks = ChunkCount(games, games_per_file);
  for (int64_t k = 0; k < chunks; ++k) {
    const std::string journal = JournalPath(dir, prefix, k);
    if (done[static_cast<size_t>(k)]) {
      // Killed between writing the file and removing its journal.
      if (fs::remove(journal, ec))
        plan.notes.push_back(journal + ": removed (its file is complete)");
      continue;
    }
    const int64_t n = ChunkGames(k, games, games_per_file);
    const uint64_t first = static_cast<uint64_t>(k * games_per_file);
    util::Result<JournalContents> read =
        ReadJournal(journal, rules, size, first, static_cast<uint64_t>(n));
    if (!read) return read.error_value();
    JournalContents& taken = read.value();
    if (!taken.note.empty()) plan.notes.push_back(taken.note);
    std::vector<bool> have(static_cast<size_t>(n), false);
    for (const JournalGame& g : taken.games) have[g.index - first] = true;
    if (!taken.games.empty()) {
      plan.notes.push_back(journal + ": " + std::to_string(taken.games.size()) +
                           " finished games taken back");
    }
    for (JournalGame& g : taken.games) plan.recovered.push_back(std::move(g));
    for (int64_t i = 0; i < n; ++i) {
      if (!have[static_cast<size_t>(i)]) plan.indices.push_back(first + static_cast<uint64_t>(i));
    }
  }
  return util::Ok();
}

}  // namespace

util::Result<ResumePlan> PlanResume(const std::string& dir, const std::string& prefix,
                                    int64_t games, int games_per_file, rules::RuleSet rules,
                                    int size) {
  if (util::Status s = util::ValidateName(prefix, "sample file prefix"); !s.ok()) {
    return s.error_value();
  }
  if (util::Status created = util::CreateDirectories(dir); !created.ok()) {
    return util::Prefixed(created.error_value(), "the output directory: ");
  }
  auto files = ListChunkFiles(dir, prefix);
  if (!files) return files.error_value();
  ResumePlan plan;
  std::vector<bool> done(static_cast<size_t>(ChunkCount(games, games_per_file)), false);
  util::Status s = TakeCompleteFiles(files.value(), games, games_per_file, rules, size, done, plan);
  if (s.ok()) s = TakeJournals(dir, prefix, games, games_per_file, rules, size, done, plan);
  if (!s.ok()) return s.error_value();
  return plan;
}

}  // namespace veletas::data
