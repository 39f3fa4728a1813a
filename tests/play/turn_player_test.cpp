// play::MakeTurnSearchPlayer: a TurnSearcher under a time budget as a search::Player (the
// arena's timed players). The clock is a fake one (each reading a millisecond after the last),
// so the searches are deterministic and nothing depends on the machine's speed.
#include "play/turn_player.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>

#include "rules/turns.h"
#include "search/fake_evaluators.h"

namespace veletas::play {
namespace {

// A clock whose every reading is a millisecond after the last.
std::function<double()> FakeClock() {
  return [t = 0.0]() mutable { return t += 0.001; };
}

// Plays a whole game of `player` against itself from the 7x7 start; every turn must be one of
// the position's legal full turns. Returns the simulations reported per turn.
std::vector<int> SelfPlayGame(search::Player& player) {
  rules::Position pos = rules::Position::Initial(rules::RuleSet::kStandard, 7);
  std::vector<int> simulations;
  while (!pos.IsTerminal() && simulations.size() < 400) {
    const search::TurnChoice choice = player.ChooseTurn(pos);
    const std::vector<rules::Turn> legal = rules::LegalTurns(pos);
    EXPECT_NE(std::find(legal.begin(), legal.end(), choice.turn), legal.end())
        << "turn " << simulations.size();
    rules::ApplyTurn(pos, choice.turn);
    simulations.push_back(choice.simulations);
  }
  EXPECT_TRUE(pos.IsTerminal());
  return simulations;
}

std::unique_ptr<search::Player> TimedUct(uint64_t seed, int ms) {
  auto searcher = TurnSearcher::Uct(1.0f, seed);
  searcher->SetClock(FakeClock());
  return MakeTurnSearchPlayer(std::move(searcher), SearchBudget{.time_ms = ms}, "uct:20ms");
}

TEST(TurnSearchPlayer, TimedUctPlaysLegalFullTurnsAndCountsItsPlayouts) {
  auto player = TimedUct(5, 20);
  EXPECT_EQ(player->Name(), "uct:20ms");
  const std::vector<int> simulations = SelfPlayGame(*player);
  ASSERT_FALSE(simulations.empty());
  for (int s : simulations) EXPECT_GE(s, 1);
}

TEST(TurnSearchPlayer, TimedNeuralPlaysLegalFullTurnsAndCountsItsSimulations) {
  search::UniformEvaluator uniform;
  search::SearchConfig config = search::ForPlay(search::SearchConfig{});
  config.leaves_per_batch = 8;
  auto searcher = TurnSearcher::Neural(uniform, config, 3);
  searcher->SetClock(FakeClock());
  auto player = MakeTurnSearchPlayer(std::move(searcher), SearchBudget{.time_ms = 30}, "n");
  const std::vector<int> simulations = SelfPlayGame(*player);
  ASSERT_FALSE(simulations.empty());
  for (int s : simulations) EXPECT_GE(s, 1);
}

TEST(TurnSearchPlayer, TheSameSeedAndClockGiveTheSameGameAndNewGameForgetsTheTree) {
  auto a = TimedUct(9, 10);
  auto b = TimedUct(9, 10);
  const std::vector<int> first = SelfPlayGame(*a);
  EXPECT_EQ(SelfPlayGame(*b), first);
  // A longer budget runs more playouts on the same fake clock.
  auto longer = TimedUct(9, 40);
  const rules::Position start = rules::Position::Initial(rules::RuleSet::kStandard, 7);
  auto shorter = TimedUct(9, 10);
  EXPECT_GT(longer->ChooseTurn(start).simulations, shorter->ChooseTurn(start).simulations);
  longer->NewGame();
  longer->Seed(9);
  EXPECT_GE(longer->ChooseTurn(start).simulations, 1);
}

}  // namespace
}  // namespace veletas::play
