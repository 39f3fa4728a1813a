// Test tool for the hostile-worker end-to-end test (cluster_e2e_test.sh): writes the
// self-play entry a hostile worker with valid credentials sends for network NETWORK (64 hex
// digits): a legal 7x7 game whose targets did not come from that network (played with a
// made-up one), and all of its first sample's policy target on that sample's least likely
// action. With `resign`, a false resignation instead: the game's winner resigns at the start
// of its last turn (where it was about to win), and every sample's outcome turns around.
// Well-formed and legal: only the spot check can tell either from an honest game.
// Usage: cluster_forge_entry NETWORK OUT WORKER [resign]. Exit 2 on bad input.
#include <algorithm>
#include <iostream>
#include <string>

#include "cluster/entry.h"
#include "search/fake_evaluators.h"
#include "selfplay/selfplay_engine.h"
#include "tests/cluster/forge_resignation.h"
#include "util/atomic_file.h"

int main(int argc, char** argv) {
  using namespace veletas;
  const bool resign = argc == 5 && std::string(argv[4]) == "resign";
  if ((argc != 4 && !resign) || std::string(argv[1]).size() != 64) {
    std::cerr << "usage: cluster_forge_entry NETWORK OUT WORKER [resign]\n";
    return 2;
  }
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
  if (!games || games.value().empty() || games.value().front().samples.empty()) {
    std::cerr << "no game: " << (games ? "" : games.error()) << "\n";
    return 2;
  }
  selfplay::FinishedGame& g = games.value().front();
  if (resign) {
    auto lie = cluster::testing::ResignedBy(g, g.winner_person, rules::RuleSet::kStandard, 7);
    if (!lie) {
      std::cerr << "no turn of the winner to resign at\n";
      return 2;
    }
    g = std::move(*lie);
  } else {
    std::vector<data::PolicyEntry>& p = g.samples.front().policy;
    const auto least = std::min_element(
        p.begin(), p.end(), [](const auto& a, const auto& b) { return a.prob < b.prob; });
    p = {{least->action, 1.0f}};
  }
  cluster::Entry e;
  e.kind = cluster::EntryKind::kSelfplay;
  e.game_id = cluster::RandomGameId();
  e.worker = argv[3];
  e.network = argv[1];
  e.game.size = 7;
  e.game.samples = std::move(g.samples);
  e.summaries = std::move(g.summaries);
  g.record.id = e.game_id;
  e.game.games.push_back(std::move(g.record));
  auto out = cluster::EncodeEntry(e);
  if (!out) {
    std::cerr << out.error() << "\n";
    return 2;
  }
  if (util::Status s = util::WriteFileAtomic(argv[2], out.value()); !s.ok()) {
    std::cerr << s.error() << "\n";
    return 2;
  }
  return 0;
}
