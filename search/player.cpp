#include "search/player.h"

namespace veletas::search {
namespace {

constexpr int kAlternatives = 5;

class RandomPlayer : public Player {
 public:
  explicit RandomPlayer(uint64_t seed) : rng_(seed) {}
  std::string Name() const override { return "random"; }
  TurnChoice ChooseTurn(const rules::Position& pos) override {
    TurnChoice choice;
    choice.turn = rules::RandomTurn(pos, rng_);
    return choice;
  }
  void Seed(uint64_t seed) override { rng_.Seed(seed); }

 private:
  util::Rng rng_;
};

class MctsPlayer : public Player {
 public:
  MctsPlayer(Evaluator& evaluator, const SearchConfig& config, uint64_t seed)
      : evaluator_(evaluator), config_(config), mcts_(config, seed) {}
  std::string Name() const override {
    return std::string(AlgorithmName(config_.algorithm)) + "(" +
           std::to_string(config_.simulations) + ")";
  }
  TurnChoice ChooseTurn(const rules::Position& pos) override {
    TurnChoice choice;
    mcts_.SetPosition(pos);
    const int start = pos.TurnsPlayed();
    for (bool first = true;;) {
      const rules::Position& now = mcts_.RootPosition();
      const rules::ActionSet legal = now.LegalActions();
      rules::Action action;
      if (legal.Count() == 1) {
        // A sub-decision with one legal action is played without a search.
        action = legal.pass ? now.PassAction() : *legal.squares.begin();
      } else {
        const SearchResult r = mcts_.Run(evaluator_);
        if (first) choice.alternatives = TopTurns(mcts_, r, kAlternatives);
        first = false;
        action = r.action;
        choice.win_rate = WinRate(r.value);
      }
      choice.turn.Push(action);
      mcts_.Advance(action);
      const rules::Position& next = mcts_.RootPosition();
      if (next.IsTerminal() || next.TurnsPlayed() != start) break;
    }
    return choice;
  }
  void NewGame() override { mcts_.Clear(); }
  void Seed(uint64_t seed) override { mcts_.Seed(seed); }

 private:
  Evaluator& evaluator_;
  SearchConfig config_;
  Mcts mcts_;
};

}  // namespace

std::vector<TurnAlternative> TopTurns(const Mcts& mcts, const SearchResult& result, int max) {
  std::vector<TurnAlternative> out;
  for (const ChildInfo& c : result.children) {  // most visited first
    if (static_cast<int>(out.size()) == max || c.visits == 0) break;
    if (const auto line = mcts.TurnLineFrom(c.action)) {
      out.push_back({line->turn, WinRate(line->q), line->visits});
    }
  }
  return out;
}

std::unique_ptr<Player> MakeRandomPlayer(uint64_t seed) {
  return std::make_unique<RandomPlayer>(seed);
}

std::unique_ptr<Player> MakeMctsPlayer(Evaluator& evaluator, const SearchConfig& config,
                                       uint64_t seed) {
  return std::make_unique<MctsPlayer>(evaluator, config, seed);
}

}  // namespace veletas::search
