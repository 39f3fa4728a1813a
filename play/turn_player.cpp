#include "play/turn_player.h"

#include <utility>

namespace veletas::play {
namespace {

class TurnSearchPlayer final : public search::Player {
 public:
  TurnSearchPlayer(std::unique_ptr<TurnSearcher> searcher, const SearchBudget& budget,
                   std::string name)
      : searcher_(std::move(searcher)), budget_(budget), name_(std::move(name)) {}

  std::string Name() const override { return name_; }

  search::TurnChoice ChooseTurn(const rules::Position& pos) override {
    const TurnAnalysis a = searcher_->Search(pos, budget_, 1);
    search::TurnChoice choice;
    choice.turn = a.best.turn;
    choice.win_rate = a.best.win_rate;
    choice.simulations = a.simulations;
    return choice;
  }

  void NewGame() override { searcher_->NewGame(); }
  void Seed(uint64_t seed) override { searcher_->Seed(seed); }

 private:
  std::unique_ptr<TurnSearcher> searcher_;
  SearchBudget budget_;
  std::string name_;
};

}  // namespace

std::unique_ptr<search::Player> MakeTurnSearchPlayer(std::unique_ptr<TurnSearcher> searcher,
                                                     const SearchBudget& budget, std::string name) {
  return std::make_unique<TurnSearchPlayer>(std::move(searcher), budget, std::move(name));
}

}  // namespace veletas::play
