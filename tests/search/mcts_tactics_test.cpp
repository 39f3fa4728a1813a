// Tactics with evaluators that know nothing: the search itself must find an immediate win
// and avoid handing the opponent one (with exact terminal values and the solver).
#include <gtest/gtest.h>

#include "search/fake_evaluators.h"
#include "search/player.h"
#include "tests/search/test_util.h"

namespace veletas::search {
namespace {

using testing::DefensePosition;
using testing::HasImmediateWin;
using testing::WinningClaimPosition;

struct TurnCounts {
  int total = 0;
  int winning = 0;        // end the game with the mover winning
  int handing_a_win = 0;  // let the opponent win at once (or lose on the spot)
};

TurnCounts Classify(const rules::Position& p) {
  TurnCounts c;
  rules::ForEachTurn(p, [&](const rules::Turn& t) {
    rules::Position q = p;
    rules::ApplyTurn(q, t);
    ++c.total;
    if (q.IsTerminal()) {
      (q.Winner() == p.ToMove() ? c.winning : c.handing_a_win)++;
    } else if (HasImmediateWin(q)) {
      ++c.handing_a_win;
    }
  });
  return c;
}

std::vector<std::pair<std::string, std::unique_ptr<Player>>> Players(Evaluator& eval) {
  std::vector<std::pair<std::string, std::unique_ptr<Player>>> players;
  SearchConfig puct = ForPlay(SearchConfig{});
  puct.simulations = 800;
  players.emplace_back("puct", MakeMctsPlayer(eval, puct, 1));
  SearchConfig gumbel = puct;
  gumbel.algorithm = Algorithm::kGumbel;
  gumbel.simulations = 200;
  players.emplace_back("gumbel", MakeMctsPlayer(eval, gumbel, 2));
  UctConfig uct;
  uct.playouts = 3000;
  players.emplace_back("uct", MakeUctPlayer(uct, 3));
  return players;
}

TEST(Tactics, PositionsAreWhatTheTestsNeed) {
  // Independent of search: the few winning turns and the many losing ones.
  const TurnCounts win = Classify(WinningClaimPosition());
  EXPECT_GT(win.winning, 0);
  EXPECT_LT(win.winning * 20, win.total);  // under 5%: luck will not find it
  const TurnCounts defense = Classify(DefensePosition());
  EXPECT_EQ(defense.winning, 0);
  EXPECT_GT(defense.handing_a_win * 10, defense.total * 9);  // over 90% lose at once
  EXPECT_LT(defense.handing_a_win, defense.total);
}

TEST(Tactics, TakesAnImmediatelyWinningClaim) {
  UniformEvaluator eval;
  const rules::Position p = WinningClaimPosition();
  for (auto& [name, player] : Players(eval)) {
    const TurnChoice choice = player->ChooseTurn(p);
    rules::Position q = p;
    rules::ApplyTurn(q, choice.turn);
    EXPECT_TRUE(q.IsTerminal()) << name;
    EXPECT_EQ(q.Winner(), rules::Color::kBlack) << name;
    EXPECT_GT(choice.win_rate, 0.99f) << name;
  }
}

TEST(Tactics, AvoidsATurnThatHandsTheOpponentAWin) {
  UniformEvaluator eval;
  const rules::Position p = DefensePosition();
  for (auto& [name, player] : Players(eval)) {
    const TurnChoice choice = player->ChooseTurn(p);
    rules::Position q = p;
    rules::ApplyTurn(q, choice.turn);
    EXPECT_FALSE(q.IsTerminal()) << name;
    EXPECT_FALSE(HasImmediateWin(q)) << name << " played " << rules::TurnToString(p, choice.turn);
  }
}

}  // namespace
}  // namespace veletas::search
