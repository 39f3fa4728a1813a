#include "search/uct_player.h"

#include <algorithm>
#include <exception>
#include <map>
#include <thread>

namespace veletas::search {

float TunedUctC(int size) {
  (void)size;
  // Round robins of uct:1000:C on 7x7 and 10x10 (docs/RATINGS.md, "Anchors"): 1.0 and 1.4
  // tie and beat 0.5, 0.7 (7x7) and 2.0, 2.8; 1.0 is what every anchor has used so far.
  return 1.0f;
}

SearchConfig UctTreeConfig(float c_uct) {
  SearchConfig s;
  s.algorithm = Algorithm::kUct;
  s.c_uct = c_uct;
  s.leaves_per_batch = 1;
  s.root_noise = false;
  s.temperature = 0.0f;
  s.final_temperature = 0.0f;
  s.reuse_tree = true;
  s.solver = true;
  return s;
}

namespace {

uint64_t ThreadSeed(uint64_t seed, int thread) {
  return seed * 0x9E3779B97F4A7C15ULL + static_cast<uint64_t>(thread) * 0xD1B54A32D192ED03ULL;
}

// The last sub-decision of a turn: its search gets the rest of the budget.
bool LastOfTurn(const rules::Position& pos) {
  return pos.Pending() == rules::Decision::kShot || pos.Pending() == rules::Decision::kSetupStone ||
         pos.LegalActions().Count() == 1;
}

}  // namespace

UctPlayer::UctPlayer(const UctConfig& config, uint64_t seed) : config_(config) {
  for (int t = 0; t < config.threads; ++t) {
    trees_.push_back(std::make_unique<Mcts>(UctTreeConfig(config.c_uct), ThreadSeed(seed, t)));
    rollouts_.push_back(std::make_unique<RolloutEvaluator>(ThreadSeed(seed, t) + 1));
  }
  results_.resize(trees_.size());
}

std::string UctPlayer::Name() const { return "uct(" + std::to_string(config_.playouts) + ")"; }

void UctPlayer::NewGame() {
  for (auto& t : trees_) t->Clear();
}

void UctPlayer::Seed(uint64_t seed) {
  for (size_t t = 0; t < trees_.size(); ++t) {
    trees_[t]->Seed(ThreadSeed(seed, static_cast<int>(t)));
    *rollouts_[t] = RolloutEvaluator(ThreadSeed(seed, static_cast<int>(t)) + 1);
  }
}

uint64_t UctPlayer::Playouts() const {
  uint64_t n = 0;
  for (const auto& r : rollouts_) n += r->Playouts();
  return n;
}

void UctPlayer::SearchAll(int playouts) {
  const int threads = static_cast<int>(trees_.size());
  auto work = [&](int t) {
    // Thread t's share; the first threads take the remainder.
    const int share = playouts / threads + (t < playouts % threads ? 1 : 0);
    results_[t] = trees_[t]->Run(*rollouts_[t], share);
  };
  if (threads == 1) {
    work(0);
    return;
  }
  // An exception on a helper thread is rethrown on the calling thread after the join.
  std::vector<std::exception_ptr> errors(static_cast<size_t>(threads));
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) {
    pool.emplace_back([&, t] {
      try {
        work(t);
      } catch (...) {
        errors[static_cast<size_t>(t)] = std::current_exception();
      }
    });
  }
  try {
    work(0);
  } catch (...) {
    errors[0] = std::current_exception();
  }
  for (auto& th : pool) th.join();
  for (const std::exception_ptr& e : errors) {
    if (e) std::rethrow_exception(e);
  }
}

TurnChoice UctPlayer::ChooseTurn(const rules::Position& pos) {
  TurnChoice choice;
  for (auto& t : trees_) t->SetPosition(pos);
  const int start = pos.TurnsPlayed();
  int left = config_.playouts;
  for (bool first = true;; first = false) {
    const rules::Position& root = trees_[0]->RootPosition();
    const int budget = LastOfTurn(root) ? left : std::max(1, left / 2);
    left = std::max(0, left - budget);
    SearchAll(budget);
    // Merge the root statistics of every tree.
    struct Merged {
      uint64_t visits = 0;
      double q_sum = 0;
      int proven_win = 0;
      int proven_loss = 0;
      int win_length = 1 << 20;  // shortest proven win in any tree
    };
    std::map<rules::Action, Merged> merged;
    for (const SearchResult& r : results_) {
      for (const ChildInfo& c : r.children) {
        Merged& m = merged[c.action];
        m.visits += c.visits;
        m.q_sum += static_cast<double>(c.q) * c.visits;
        m.proven_win += c.proven > 0;
        if (c.proven > 0) m.win_length = std::min(m.win_length, c.proof_length);
        m.proven_loss += c.proven < 0;
      }
    }
    // A proven win in any tree (the shortest); else the most visited action not
    // proven lost in any tree (ties: lower action); else the most visited.
    rules::Action best = -1;
    auto better = [&](rules::Action a, rules::Action b) {
      if (b < 0) return true;
      const Merged& x = merged[a];
      const Merged& y = merged[b];
      if ((x.proven_win > 0) != (y.proven_win > 0)) return x.proven_win > 0;
      if ((x.proven_loss > 0) != (y.proven_loss > 0)) return x.proven_loss == 0;
      if (x.proven_win > 0 && x.win_length != y.win_length) return x.win_length < y.win_length;
      return x.visits > y.visits;
    };
    for (const auto& [action, m] : merged) {
      if (better(action, best)) best = action;
    }
    const Merged& chosen = merged[best];
    const double q = chosen.proven_win > 0 ? 1.0
                     : chosen.visits > 0   ? chosen.q_sum / static_cast<double>(chosen.visits)
                                           : 0.0;
    choice.win_rate = WinRate(static_cast<float>(q));
    if (first) choice.alternatives = TopTurns(*trees_[0], results_[0], 5);
    choice.turn.Push(best);
    for (auto& t : trees_) t->Advance(best);
    const rules::Position& now = trees_[0]->RootPosition();
    if (now.IsTerminal() || now.TurnsPlayed() != start) break;
  }
  return choice;
}

std::unique_ptr<Player> MakeUctPlayer(const UctConfig& config, uint64_t seed) {
  return std::make_unique<UctPlayer>(config, seed);
}

}  // namespace veletas::search
