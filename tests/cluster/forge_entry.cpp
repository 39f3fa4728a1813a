// Test tool for the hostile-worker end-to-end test (cluster_e2e_test.sh): writes entries that a
// hostile worker with valid credentials sends, each well-formed, checksummed and legal, so
// that only the learner's deeper checks can refuse or neutralise it.
//   target NETWORK OUT WORKER  a legal 7x7 game for network NETWORK (64 hex digits) whose
//                              targets did not come from it (played with a made-up one), with
//                              all of its first sample's policy target on that sample's least
//                              likely action: for the spot check.
//   resign NETWORK OUT WORKER  a false resignation: the game's winner resigns at the start of
//                              its last turn (where it was about to win), and every sample's
//                              outcome turns around: for the resignation check.
//   bomb NETWORK OUT WORKER    the target game, its sample file declaring 256 MiB of samples
//                              (a decompression bomb in a 3 KB entry).
//   copy ENTRY OUT WORKER N    N copies of the self-play entry in file ENTRY (another worker's
//                              honest game) sent as WORKER's, each under a fresh game id with its
//                              record padded with white space: OUT.1 ... OUT.N.
//   value ENTRY OUT WORKER     the entry in file ENTRY (another worker's honest game) sent as
//                              WORKER's under a fresh id, the root value of its middle sample
//                              (mixed into value targets) turned to the other side: for the
//                              spot check's value test.
//   arena TASK ID OUT WORKER GAMES
//                              for the arena task TASK (its JSON) held under stream id ID, a
//                              game won by A for every index below GAMES outside the task, posted
//                              under ID, and for every index in it under a task id nobody holds:
//                              OUT.1, OUT.2, ... (the count is printed).
// Exit 2 on bad input.
#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "cluster/transport/entry.h"
#include "cluster/transport/task.h"
#include "search/fake_evaluators.h"
#include "selfplay/selfplay_engine.h"
#include "tests/cluster/forge_arena.h"
#include "tests/cluster/forge_bomb.h"
#include "tests/cluster/forge_resignation.h"
#include "util/atomic_file.h"

namespace veletas::cluster {
namespace {

int Fail(const std::string& why) {
  std::cerr << "cluster_forge_entry: " << why << "\n";
  return 2;
}

// Writes `e` to `path`; 0, or 2 with the error printed.
int Write(const Entry& e, const std::string& path, uint64_t declared = 0) {
  auto out = EncodeEntry(e);
  if (!out) return Fail(out.error());
  const std::string bytes =
      declared > 0 ? testing::DeclaringHugeSamples(out.value(), e.game, declared) : out.value();
  if (util::Status s = util::WriteFileAtomic(path, bytes); !s.ok()) return Fail(s.error());
  return 0;
}

// A legal 7x7 game played with a made-up network, to the end.
std::optional<selfplay::FinishedGame> MadeUpGame() {
  search::HashEvaluator made_up(7);
  selfplay::SelfplayConfig config;
  config.threads = 1;
  config.games_in_flight = 1;
  config.resign_threshold = -1.0f;  // played to the end
  selfplay::SelfplayJob job;
  job.size = 7;
  job.games = 1;
  search::SearchConfig search;
  search.algorithm = search::Algorithm::kGumbel;
  search.simulations = 16;
  auto games = selfplay::PlayGamesInMemory(config, search, search::BatchingConfig{}, made_up, job);
  if (!games || games.value().empty() || games.value().front().samples.empty()) return std::nullopt;
  return std::move(games.value().front());
}

// Modes target, resign and bomb.
int Forged(const std::string& mode, const std::string& network, const std::string& out,
           const std::string& worker) {
  if (network.size() != 64) return Fail("NETWORK must be 64 hex digits");
  auto g = MadeUpGame();
  if (!g) return Fail("no game");
  if (mode == "resign") {
    auto lie = testing::ResignedBy(*g, g->winner_person, rules::RuleSet::kStandard, 7);
    if (!lie) return Fail("no turn of the winner to resign at");
    *g = std::move(*lie);
  } else {
    std::vector<data::PolicyEntry>& p = g->samples.front().policy;
    const auto least = std::min_element(
        p.begin(), p.end(), [](const auto& a, const auto& b) { return a.prob < b.prob; });
    p = {{least->action, 1.0f}};
  }
  Entry e;
  e.kind = EntryKind::kSelfplay;
  e.game_id = RandomGameId();
  e.worker = worker;
  e.network = network;
  e.game.size = 7;
  e.game.samples = std::move(g->samples);
  e.summaries = std::move(g->summaries);
  g->record.id = e.game_id;
  e.game.games.push_back(std::move(g->record));
  return Write(e, out, mode == "bomb" ? 256ULL << 20 : 0);
}

// Modes copy (n copies, padded) and value (one, with a forged root value: n = 0).
int Copies(const std::string& from, const std::string& out, const std::string& worker, int n) {
  auto bytes = util::ReadFile(from);
  if (!bytes) return Fail(bytes.error());
  auto decoded = DecodeEntry(bytes.value(), kDefaultMaxEntryBytes);
  if (!decoded) return Fail(from + ": " + decoded.error());
  Entry e = std::move(decoded.value());
  if (e.kind != EntryKind::kSelfplay || e.game.games.size() != 1) {
    return Fail(from + ": not a self-play entry");
  }
  e.worker = worker;
  if (n == 0) {
    if (e.game.samples.empty()) return Fail(from + ": no samples");
    float& v = e.game.samples[e.game.samples.size() / 2].root_value;
    v = v > 0 ? -1.0f : 1.0f;
    e.game_id = RandomGameId();
    e.game.games[0].id = e.game_id;
    return Write(e, out);
  }
  std::string padded;
  for (char c : e.game.games[0].record)
    padded += c == ' ' ? std::string(" \t  ") : std::string(1, c);
  e.game.games[0].record = "  " + padded + std::string(200, ' ');
  for (int i = 1; i <= n; ++i) {
    e.game_id = RandomGameId();
    e.game.games[0].id = e.game_id;
    if (int rc = Write(e, out + "." + std::to_string(i)); rc != 0) return rc;
  }
  return 0;
}

// Mode arena.
int ArenaResults(const std::string& task_file, const std::string& id, const std::string& out,
                 const std::string& worker, int games) {
  auto json = util::ReadFile(task_file);
  if (!json) return Fail(json.error());
  auto task = DecodeTask(json.value());
  if (!task) return Fail(task_file + ": " + task.error());
  const ArenaTask& t = task.value();
  std::vector<int> indices(games);
  for (int i = 0; i < games; ++i) indices[i] = i;
  arena::ArenaConfig config;
  config.opening_turns = t.opening_turns;
  config.threads = 1;
  int written = 0;
  for (const arena::ArenaGame& g : testing::ForgedWins(indices, t.rules, t.size, config)) {
    const bool held = std::find(t.games.begin(), t.games.end(), g.index) != t.games.end();
    Entry e;
    e.kind = EntryKind::kArena;
    e.game_id = ArenaGameId(t.match, g.index);
    e.worker = worker;
    e.task = held ? "1-1" : id;  // its own games under a task nobody holds
    e.match = t.match;
    e.arena = g;
    if (int rc = Write(e, out + "." + std::to_string(++written)); rc != 0) return rc;
  }
  std::cout << written << "\n";
  return 0;
}

}  // namespace
}  // namespace veletas::cluster

int main(int argc, char** argv) {
  using namespace veletas::cluster;
  const std::vector<std::string> a(argv + 1, argv + argc);
  const std::string mode = a.empty() ? "" : a[0];
  if ((mode == "target" || mode == "resign" || mode == "bomb") && a.size() == 4) {
    return Forged(mode, a[1], a[2], a[3]);
  }
  if (mode == "copy" && a.size() == 5 && std::atoi(a[4].c_str()) > 0) {
    return Copies(a[1], a[2], a[3], std::atoi(a[4].c_str()));
  }
  if (mode == "value" && a.size() == 4) return Copies(a[1], a[2], a[3], 0);
  if (mode == "arena" && a.size() == 6) {
    return ArenaResults(a[1], a[2], a[3], a[4], std::atoi(a[5].c_str()));
  }
  std::cerr << "usage: cluster_forge_entry target|resign|bomb NETWORK OUT WORKER\n"
               "       cluster_forge_entry copy ENTRY OUT WORKER N\n"
               "       cluster_forge_entry value ENTRY OUT WORKER\n"
               "       cluster_forge_entry arena TASK ID OUT WORKER GAMES\n";
  return 2;
}
