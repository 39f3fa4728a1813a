#include "arena/arena_journal.h"

#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>

#include "arena/arena_record.h"
#include "arena/match_record.h"
#include "rules/notation.h"
#include "rules/turns.h"
#include "util/atomic_file.h"
#include "util/json.h"

namespace veletas::arena {

std::string MatchJournalHeader(const std::string& name, const Arena& arena,
                               const ArenaConfig& config) {
  nlohmann::json h;
  h["journal"] = 1;
  h["match"] = name;
  h["a"] = {{"name", arena.A().name}, {"spec", arena.A().spec.ToString()}};
  h["b"] = {{"name", arena.B().name}, {"spec", arena.B().spec.ToString()}};
  h["rules"] = rules::RuleSetName(arena.Rules());
  h["size"] = arena.Size();
  h["seed"] = config.seed;
  h["opening_turns"] = config.opening_turns;
  return h.dump();
}

namespace {

std::string GameLine(const ArenaGame& g) {
  nlohmann::json j;
  j["index"] = g.index;
  j["a_first"] = g.a_first;
  j["a_colour"] = rules::ColorName(g.a_colour);
  j["a_won"] = g.a_won;
  j["turns"] = g.turns;
  j["record"] = g.record;
  if (!g.worker.empty()) j["worker"] = g.worker;
  return j.dump();
}

// The game of one journal line, or an error saying what is wrong with it.
util::Result<ArenaGame> ParseGameLine(std::string_view line, rules::RuleSet rs, int size) {
  using R = util::Result<ArenaGame>;
  const util::Result<nlohmann::json> parsed = util::ParseJson(line, "the line");
  if (!parsed || !parsed.value().is_object()) return R::Error("not a JSON object (a torn write?)");
  const nlohmann::json& j = parsed.value();
  ArenaGame g;
  util::JsonFields f(j, "");
  g.index = f.Integer<int>("index");
  g.a_first = f.Bool("a_first");
  const std::string colour = f.String("a_colour");
  g.a_won = f.Bool("a_won");
  g.turns = f.Integer<int>("turns");
  g.record = f.String("record");
  if (j.contains("worker")) g.worker = f.String("worker");
  if (!f.ok()) return R::Error("bad fields: " + f.error());
  if (colour != "black" && colour != "white") return R::Error("bad a_colour");
  g.a_colour = colour == "black" ? rules::Color::kBlack : rules::Color::kWhite;
  if (util::Status valid = ValidateArenaGame(g, rs, size); !valid.ok()) return valid.error_value();
  return g;
}

}  // namespace

util::Status ValidateArenaGame(const ArenaGame& g, rules::RuleSet rs, int size) {
  using S = util::Status;
  if (g.index < 0 || g.a_first != (g.index % 2 == 0)) return S::Error("bad index or seats");
  const util::Result<rules::Game> game = rules::PlayRecord(rs, size, g.record);
  if (!game) return S::Error("bad record: " + game.error());
  const rules::Position& end = game.value().final;
  if (!end.IsTerminal() || static_cast<int>(game.value().turns.size()) != g.turns) {
    return S::Error("the record is not a finished game of " + std::to_string(g.turns) + " turns");
  }
  const rules::Color a_colour = end.ColorOf(g.a_first ? 0 : 1);
  if (a_colour != g.a_colour || (end.Winner() == a_colour) != g.a_won) {
    return S::Error("the result disagrees with the record");
  }
  return util::Ok();
}

size_t ParseMatchJournal(std::string_view data, const std::string& header, rules::RuleSet rules,
                         int size, const std::string& path, std::vector<ArenaGame>& restored,
                         std::vector<std::string>& notes) {
  const size_t first_end = data.find('\n');
  if (first_end == std::string_view::npos || data.substr(0, first_end) != header) return 0;
  size_t good = first_end + 1;
  std::set<int> seen;
  for (int n = 2; good < data.size(); ++n) {
    const size_t end = data.find('\n', good);
    // A last line without its newline is torn.
    auto game = end == std::string_view::npos
                    ? util::Result<ArenaGame>::Error("torn (no line end)")
                    : ParseGameLine(data.substr(good, end - good), rules, size);
    if (game && !seen.insert(game.value().index).second) {
      game = util::Result<ArenaGame>::Error("game " + std::to_string(game.value().index) +
                                            " appears twice");
    }
    if (!game) {
      notes.push_back(path + ":" + std::to_string(n) + ": " + game.error() +
                      "; it and what follows will be played again");
      break;
    }
    restored.push_back(game.value());
    good = end + 1;
  }
  return good;
}

std::string MatchJournalPath(const std::string& run_dir, const std::string& name) {
  return MatchFilePath(run_dir, name) + ".part";
}

util::Result<std::optional<MatchRecord>> ReadFinishedMatch(const std::string& run_dir,
                                                           const std::string& name,
                                                           std::vector<std::string>& notes) {
  const std::string path = MatchFilePath(run_dir, name);
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return std::optional<MatchRecord>();
  auto record = ReadMatchRecord(path);
  if (!record) return record.error_value();
  const std::string journal = MatchJournalPath(run_dir, name);
  if (std::filesystem::remove(journal, ec)) {
    notes.push_back(journal + ": removed (its match file is complete)");
  }
  return std::optional<MatchRecord>(record.value());
}

util::Result<MatchJournal> MatchJournal::Open(const std::string& run_dir, const std::string& name,
                                              const Arena& arena, const ArenaConfig& config,
                                              std::vector<ArenaGame>& restored,
                                              std::vector<std::string>& notes) {
  const std::string path = MatchJournalPath(run_dir, name);
  if (util::Status dir = util::CreateDirectories(MatchesDir(run_dir)); !dir.ok()) {
    return dir.error_value();
  }
  std::error_code ec;
  const std::string header = MatchJournalHeader(name, arena, config);
  const auto read = std::filesystem::exists(path, ec) ? util::ReadFile(path)
                                                      : util::Result<std::string>::Error("");
  if (read.ok()) {
    const std::string& data = read.value();
    const size_t good =
        ParseMatchJournal(data, header, arena.Rules(), arena.Size(), path, restored, notes);
    if (good > 0) {
      if (good < data.size()) std::filesystem::resize_file(path, good, ec);
      if (!restored.empty()) {
        notes.push_back(path + ": " + std::to_string(restored.size()) +
                        " finished games taken back");
      }
      return MatchJournal(path);
    }
    notes.push_back(path +
                    ": another setup of this match (or unreadable); its games will be "
                    "played again");
  }
  if (util::Status s = util::WriteFileAtomic(path, header + "\n"); !s.ok()) return s.error_value();
  return MatchJournal(path);
}

util::Status MatchJournal::Append(const ArenaGame& game) const {
  return util::AppendFile(path_, GameLine(game) + "\n");
}

void MatchJournal::Remove() const {
  std::error_code ec;
  std::filesystem::remove(path_, ec);
}

JournaledMatch::JournaledMatch(std::string run_dir, std::string name, const ArenaPlayer& a,
                               const ArenaPlayer& b, rules::RuleSet rules, int size,
                               const ArenaConfig& config, RemoteGames* remote)
    : run_dir_(std::move(run_dir)),
      name_(std::move(name)),
      config_(config),
      started_(UtcTimestamp()),
      arena_(a, b, rules, size, config),
      remote_(remote) {}

util::Status JournaledMatch::Open(std::vector<std::string>& notes) {
  std::vector<ArenaGame> restored;
  auto journal = MatchJournal::Open(run_dir_, name_, arena_, config_, restored, notes);
  if (!journal) return journal.error_value();
  journal_ = journal.value();
  arena_.Restore(restored);
  for (const ArenaGame& g : restored) in_.emplace(g.index, g.a_won);
  restored_ = static_cast<int>(restored.size());
  return util::Ok();
}

util::Status JournaledMatch::AcceptRemote(const ArenaGame& g, const std::set<int>& wanted,
                                          std::vector<ArenaGame>& got) {
  if (!wanted.count(g.index)) {
    return util::Status::Error("game " + std::to_string(g.index) + " was not asked for");
  }
  if (in_.count(g.index))
    return util::Status::Error("game " + std::to_string(g.index) + " is in already");
  if (util::Status valid = ValidateArenaGame(g, arena_.Rules(), arena_.Size()); !valid.ok()) {
    return valid;
  }
  // The game must start with the match's opening for its pair.
  const auto game = rules::PlayRecord(arena_.Rules(), arena_.Size(), g.record);
  const std::vector<rules::Turn>& opening = arena_.Opening(g.index / 2);
  for (size_t t = 0; t < opening.size(); ++t) {
    if (t >= game.value().turns.size() || !(game.value().turns[t] == opening[t])) {
      return util::Status::Error("game " + std::to_string(g.index) +
                                 " does not start with its pair's opening");
    }
  }
  // Synced: the remote acknowledges the game once this returns.
  if (util::Status s = journal_->Append(g); !s.ok()) {
    return util::Status::Failure(s.error());
  }
  in_.emplace(g.index, g.a_won);
  got.push_back(g);
  return util::Ok();
}

util::Status JournaledMatch::Play(int count, const ArenaProgressFn& progress) {
  if (remote_ != nullptr) {
    // Games not journaled yet are played remotely and journaled here as they arrive; Play
    // below then takes them as restored games.
    const int end = arena_.GamesPlayed() + count;
    std::set<int> wanted;
    int a_wins = arena_.AWins(), b_wins = arena_.BWins();
    for (int i = arena_.GamesPlayed(); i < end; ++i) {
      const auto it = in_.find(i);
      if (it == in_.end()) {
        wanted.insert(i);
      } else {
        (it->second ? a_wins : b_wins)++;
      }
    }
    std::vector<ArenaGame> got;
    const util::Status played =
        remote_->Play(RemoteMatch{name_, arena_, config_},
                      std::vector<int>(wanted.begin(), wanted.end()), [&](const ArenaGame& g) {
                        util::Status s = AcceptRemote(g, wanted, got);
                        if (s.ok() && progress) {
                          (g.a_won ? a_wins : b_wins)++;
                          progress({a_wins + b_wins, end, a_wins, b_wins, 0.0});
                        }
                        return s;
                      });
    arena_.Restore(got);
    if (!played.ok()) return played;
  }
  util::Status status = util::Ok();
  try {
    arena_.Play(count, progress, [&](const ArenaGame& g) {
      if (status.ok()) status = journal_->Append(g);
    });
  } catch (const std::exception& e) {
    return util::Status::Failure("match " + name_ + ": " + e.what());
  }
  return status;
}

util::Result<MatchRecord> JournaledMatch::Save(const std::optional<GateEvidence>& gate) {
  MatchRecord record = MakeMatchRecord(name_, arena_, gate, started_, UtcTimestamp());
  if (util::Status saved = SaveMatch(run_dir_, record, arena_.Games()); !saved.ok()) {
    return saved.error_value();
  }
  journal_->Remove();
  return record;
}

}  // namespace veletas::arena
