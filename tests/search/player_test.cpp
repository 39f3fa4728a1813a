#include "search/player.h"

#include <gtest/gtest.h>

#include "search/fake_evaluators.h"
#include "search/uct_player.h"
#include "tests/search/test_util.h"

namespace veletas::search {
namespace {

using testing::RandomPositions;

// Positions at every kind of turn start: setup, the pie decision, play; both rule sets.
std::vector<rules::Position> TurnStarts() {
  std::vector<rules::Position> out;
  for (rules::RuleSet rs : {rules::RuleSet::kStandard, rules::RuleSet::kClassic}) {
    for (int size : {7, 9, 10}) {
      util::Rng rng(size);
      rules::Position p = rules::Position::Initial(rs, size);
      for (int t = 0; t < 3 && !p.IsTerminal(); ++t) {
        out.push_back(p);
        rules::ApplyTurn(p, rules::RandomTurn(p, rng));
      }
      for (const auto& q : RandomPositions(rs, size, 2, 40 + size)) out.push_back(q);
    }
  }
  return out;
}

// A legal full turn is exactly a path of legal sub-decision actions that ends the turn at
// its last action (rules/turns.h). Cheaper than listing every turn of a 10x10 setup.
bool IsLegalTurn(const rules::Position& p, const rules::Turn& t) {
  rules::Position q = p;
  for (int i = 0; i < t.length; ++i) {
    if (q.TurnsPlayed() != p.TurnsPlayed() || !q.IsLegal(t[i])) return false;
    q.Apply(t[i]);
  }
  return t.length > 0 && q.TurnsPlayed() == p.TurnsPlayed() + 1;
}

std::vector<std::unique_ptr<Player>> AllPlayers(Evaluator& eval, uint64_t seed) {
  std::vector<std::unique_ptr<Player>> players;
  players.push_back(MakeRandomPlayer(seed));
  SearchConfig puct;
  puct.simulations = 60;
  players.push_back(MakeMctsPlayer(eval, puct, seed));
  SearchConfig gumbel = puct;
  gumbel.algorithm = Algorithm::kGumbel;
  gumbel.simulations = 16;
  players.push_back(MakeMctsPlayer(eval, gumbel, seed));
  UctConfig uct;
  uct.playouts = 200;
  players.push_back(MakeUctPlayer(uct, seed));
  return players;
}

TEST(Players, ChooseLegalFullTurns) {
  HashEvaluator eval(1);
  const auto positions = TurnStarts();
  for (auto& player : AllPlayers(eval, 5)) {
    for (const auto& p : positions) {
      const TurnChoice choice = player->ChooseTurn(p);
      EXPECT_TRUE(IsLegalTurn(p, choice.turn)) << player->Name() << "\n" << rules::Diagram(p);
      for (const TurnAlternative& alt : choice.alternatives) {
        EXPECT_TRUE(IsLegalTurn(p, alt.turn)) << player->Name();
        EXPECT_GE(alt.win_rate, 0.0f);
        EXPECT_LE(alt.win_rate, 1.0f);
        EXPECT_GT(alt.visits, 0u);
      }
      if (player->Name() == "random") {
        EXPECT_LT(choice.win_rate, 0.0f);
      } else {
        EXPECT_GE(choice.win_rate, 0.0f);
        EXPECT_LE(choice.win_rate, 1.0f);
      }
    }
  }
}

TEST(Players, SearchPlayersReportAlternatives) {
  HashEvaluator eval(2);
  for (auto& player : AllPlayers(eval, 6)) {
    if (player->Name() == "random") continue;
    int with_alternatives = 0;
    for (const auto& p : RandomPositions(rules::RuleSet::kStandard, 7, 6, 50)) {
      with_alternatives += !player->ChooseTurn(p).alternatives.empty();
    }
    EXPECT_GT(with_alternatives, 3) << player->Name();
  }
}

// Plays a game between two players from the empty board; returns the winning player
// (0 = the one moving first).
int PlayGame(Player& first, Player& second, rules::RuleSet rs, int size) {
  first.NewGame();
  second.NewGame();
  rules::Position p = rules::Position::Initial(rs, size);
  while (!p.IsTerminal()) {
    Player& mover = p.ToMovePlayer() == 0 ? first : second;
    const rules::Turn t = mover.ChooseTurn(p).turn;
    rules::ApplyTurn(p, t);
  }
  return *p.Winner() == rules::Color::kBlack ? p.BlackPlayer() : 1 - p.BlackPlayer();
}

TEST(Players, SameSeedPlaysTheSameGame) {
  HashEvaluator eval(3);
  auto a = AllPlayers(eval, 9), b = AllPlayers(eval, 9);
  for (size_t i = 0; i < a.size(); ++i) {
    // Each player against a copy of itself, twice with the same seeds: identical games.
    rules::Position p = rules::Position::Initial(rules::RuleSet::kStandard, 7);
    rules::Position q = p;
    a[i]->NewGame();
    b[i]->NewGame();
    for (int t = 0; t < 8 && !p.IsTerminal(); ++t) {
      const rules::Turn ta = a[i]->ChooseTurn(p).turn;
      const rules::Turn tb = b[i]->ChooseTurn(q).turn;
      ASSERT_TRUE(ta == tb) << a[i]->Name() << " turn " << t;
      rules::ApplyTurn(p, ta);
      rules::ApplyTurn(q, tb);
    }
  }
}

TEST(Players, UctBeatsRandomOn7x7) {
  UctConfig config;
  config.playouts = 400;
  config.threads = 2;
  auto uct = MakeUctPlayer(config, 1);
  auto random = MakeRandomPlayer(2);
  constexpr int kGames = 12;
  int uct_wins = 0;
  for (int g = 0; g < kGames; ++g) {
    // Alternate who moves first (and so who may swap).
    if (g % 2 == 0) {
      uct_wins += PlayGame(*uct, *random, rules::RuleSet::kStandard, 7) == 0;
    } else {
      uct_wins += PlayGame(*random, *uct, rules::RuleSet::kStandard, 7) == 1;
    }
  }
  EXPECT_GE(uct_wins, 11) << "of " << kGames;
}

TEST(MctsPlayer, SubDecisionsWithOneLegalActionAreNotSearched) {
  // Sub-decision positions reached by random play where only one action is legal (a shooter
  // with one destination, one shot, or the turn's only move): the player plays it without
  // asking the evaluator about that position.
  util::Rng rng(5);
  std::vector<rules::Position> forced;
  for (int game = 0; game < 200 && forced.size() < 20; ++game) {
    rules::Position p = rules::Position::Initial(rules::RuleSet::kStandard, 7);
    while (!p.IsTerminal() && forced.size() < 20) {
      const rules::ActionSet legal = p.LegalActions();
      if (legal.Count() == 1) forced.push_back(p);
      std::vector<rules::Action> actions(legal.squares.begin(), legal.squares.end());
      if (legal.pass) actions.push_back(p.PassAction());
      p.Apply(actions[rng.Below(actions.size())]);
    }
  }
  ASSERT_EQ(forced.size(), 20u);
  for (const rules::Position& p : forced) {
    int asked = 0;
    FunctionEvaluator eval([&](const rules::Position& q, EvalOutput& out) {
      asked += q.Hash() == p.Hash();
      FillUniformPolicy(q, out);
      out.value = 0;
    });
    SearchConfig config = ForPlay(SearchConfig{});
    config.simulations = 16;
    auto player = MakeMctsPlayer(eval, config, 1);
    const TurnChoice choice = player->ChooseTurn(p);
    EXPECT_EQ(asked, 0);
    ASSERT_GE(choice.turn.length, 1);
    EXPECT_TRUE(p.IsLegal(choice.turn[0]));
  }
}

}  // namespace
}  // namespace veletas::search
