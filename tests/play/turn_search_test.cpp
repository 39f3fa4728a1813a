// TurnSearcher: legal turns and candidates, budgets (visits per sub-decision or per turn,
// time), principal variations, and immediate wins found, with fake evaluators.
#include "play/turn_search.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>

#include "rules/notation.h"
#include "search/fake_evaluators.h"
#include "tests/play/test_util.h"

namespace veletas::play {
namespace {

using rules::Position;
using rules::RuleSet;

bool IsLegalTurn(const Position& pos, const rules::Turn& t) {
  const auto legal = rules::LegalTurns(pos);
  return std::find(legal.begin(), legal.end(), t) != legal.end();
}

// Positions of every kind: setups, the pie decision, play turns (7x7 and 9x9, both rule
// sets), from seeded random games.
std::vector<Position> SamplePositions() {
  std::vector<Position> out;
  for (RuleSet rs : {RuleSet::kStandard, RuleSet::kClassic}) {
    for (int size : {7, 9}) {
      const auto g = testing::PlayRandomGame(rs, size, 11 + size);
      for (size_t i = 0; i < g.turns.size() && i < 5; ++i) out.push_back(g.before[i]);
      out.push_back(g.before[g.turns.size() / 2]);
      out.push_back(g.before.back());
    }
  }
  return out;
}

search::SearchConfig PlayConfig(int simulations) {
  search::SearchConfig c = search::ForPlay(search::SearchConfig{});
  c.simulations = simulations;
  return c;
}

void ExpectWellFormed(const Position& pos, const TurnAnalysis& a, int max_candidates) {
  ASSERT_FALSE(a.candidates.empty());
  EXPECT_LE(static_cast<int>(a.candidates.size()), max_candidates);
  EXPECT_TRUE(IsLegalTurn(pos, a.best.turn)) << rules::Diagram(pos);
  EXPECT_EQ(a.candidates[0].turn, a.best.turn);
  for (size_t i = 0; i < a.candidates.size(); ++i) {
    const TurnCandidate& c = a.candidates[i];
    EXPECT_GE(c.win_rate, 0.0f);
    EXPECT_LE(c.win_rate, 1.0f);
    EXPECT_GT(c.visits, 0u);
    ASSERT_FALSE(c.pv.empty());
    EXPECT_EQ(c.pv[0], c.turn);
    // The continuation is a sequence of legal turns.
    Position p = pos;
    for (const rules::Turn& t : c.pv) {
      ASSERT_FALSE(p.IsTerminal());
      ASSERT_TRUE(IsLegalTurn(p, t));
      rules::ApplyTurn(p, t);
    }
    for (size_t j = 0; j < i; ++j) EXPECT_FALSE(a.candidates[j].turn == c.turn);
  }
}

TEST(TurnSearcher, NeuralGivesLegalTurnsAndCandidatesEverywhere) {
  search::HashEvaluator eval(3);
  auto searcher = TurnSearcher::Neural(eval, PlayConfig(64), 1);
  for (const Position& pos : SamplePositions()) {
    const TurnAnalysis a = searcher->Search(pos, {64, 0}, 4);
    ExpectWellFormed(pos, a, 4);
  }
}

TEST(TurnSearcher, UctGivesLegalTurnsAndCandidatesEverywhere) {
  auto searcher = TurnSearcher::Uct(1.0f, 2);
  for (const Position& pos : SamplePositions()) {
    const TurnAnalysis a = searcher->Search(pos, {300, 0}, 3);
    ExpectWellFormed(pos, a, 3);
  }
}

// Number of sub-decisions of `turn` played from `pos`, and whether any of them before the
// last had a single legal action.
int SubDecisions(const Position& pos, const rules::Turn& turn, bool* forced) {
  Position p = pos;
  *forced = false;
  for (int i = 0; i < turn.length; ++i) {
    if (i + 1 < turn.length && p.LegalActions().Count() == 1) *forced = true;
    p.Apply(turn[i]);
  }
  return turn.length;
}

TEST(TurnSearcher, VisitsArePerSubDecisionForANetworkAndPerTurnForUct) {
  search::UniformEvaluator eval;
  auto neural = TurnSearcher::Neural(eval, PlayConfig(50), 1);
  auto uct = TurnSearcher::Uct(1.0f, 1);
  int checked = 0;
  for (const Position& pos : SamplePositions()) {
    bool forced = false;
    // A network search runs the visits for every sub-decision of the turn it plays.
    neural->NewGame();
    const TurnAnalysis n = neural->Search(pos, {50, 0}, 1);
    EXPECT_EQ(n.simulations, 50 * SubDecisions(pos, n.best.turn, &forced)) << rules::Diagram(pos);
    // UCT spends the playouts on the whole turn (plus one per forced sub-decision).
    const TurnAnalysis u = uct->Search(pos, {400, 0}, 1);
    SubDecisions(pos, u.best.turn, &forced);
    if (!forced) {
      EXPECT_EQ(u.simulations, 400) << rules::Diagram(pos);
      ++checked;
    }
  }
  EXPECT_GT(checked, 10);
}

// Whatever the budget (visits or time), a search stops when its tree reaches the node
// budget, reports it, and still plays a legal turn.
TEST(TurnSearcher, TheNodeBudgetBoundsHugeVisitAndTimeBudgets) {
  auto uct = TurnSearcher::Uct(1.0f, 5);
  uct->SetMaxNodes(3000);
  const auto g = testing::PlayRandomGame(RuleSet::kStandard, 9, 4);
  const Position& pos = g.before[g.turns.size() / 3];
  for (const SearchBudget budget : {SearchBudget{100'000'000, 0}, SearchBudget{0, 100'000'000}}) {
    uct->NewGame();
    const auto start = std::chrono::steady_clock::now();
    const TurnAnalysis a = uct->Search(pos, budget, 3);
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(60));
    EXPECT_TRUE(a.node_limit);
    EXPECT_EQ(a.max_nodes, 3000);
    EXPECT_TRUE(IsLegalTurn(pos, a.best.turn));
  }
  // A small budget is not affected.
  uct->NewGame();
  const TurnAnalysis small = uct->Search(pos, {200, 0}, 1);
  EXPECT_FALSE(small.node_limit);
}

TEST(TurnSearcher, TimeBudgetIsSpentAndHonoured) {
  auto uct = TurnSearcher::Uct(1.0f, 5);
  const auto g = testing::PlayRandomGame(RuleSet::kStandard, 9, 4);
  const Position& pos = g.before[g.turns.size() / 2];
  const auto start = std::chrono::steady_clock::now();
  const TurnAnalysis a = uct->Search(pos, {0, 300}, 3);
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_TRUE(IsLegalTurn(pos, a.best.turn));
  // Searched in chunks until the time was spent: close to 0.3 s, generously bounded.
  EXPECT_GE(wall, 0.25);
  EXPECT_LE(wall, 1.5);
  EXPECT_NEAR(a.seconds, wall, 0.05);
  EXPECT_GT(a.simulations, 100);
}

TEST(TurnSearcher, TakesAnImmediateWinAndSaysSo) {
  // Positions from random games where the mover can win at once with at least 5% of its
  // turns; every searcher must play a winning turn and report a proven win.
  search::UniformEvaluator eval;
  auto neural = TurnSearcher::Neural(eval, PlayConfig(200), 3);
  auto uct = TurnSearcher::Uct(1.0f, 3);
  int found = 0;
  for (uint64_t seed = 1; found < 4 && seed < 200; ++seed) {
    const auto g = testing::PlayRandomGame(RuleSet::kStandard, 7, seed);
    for (const Position& pos : g.before) {
      double fraction = 0;
      if (pos.Pending() != rules::Decision::kChooseShooter ||
          !testing::HasImmediateWin(pos, &fraction) || fraction < 0.05) {
        continue;
      }
      ++found;
      for (TurnSearcher* s : {neural.get(), uct.get()}) {
        s->NewGame();
        const TurnAnalysis a = s->Search(pos, {s->IsUct() ? 2000 : 200, 0}, 3);
        Position after = pos;
        rules::ApplyTurn(after, a.best.turn);
        EXPECT_TRUE(after.IsTerminal() && after.Winner() == pos.ToMove())
            << s->AlgorithmName() << "\n"
            << rules::Diagram(pos);
        EXPECT_EQ(a.best.proven, 1);
        EXPECT_EQ(a.best.win_rate, 1.0f);
      }
      break;
    }
  }
  EXPECT_EQ(found, 4);
}

TEST(TurnSearcher, PvToStringReplaysAsARecord) {
  search::HashEvaluator eval(9);
  auto searcher = TurnSearcher::Neural(eval, PlayConfig(400), 1);
  const auto g = testing::PlayRandomGame(RuleSet::kStandard, 7, 21);
  const int k = 4;
  const Position& pos = g.before[k];
  const TurnAnalysis a = searcher->Search(pos, {400, 0}, 1);
  const std::string pv = PvToString(pos, a.best.pv);
  auto replay = rules::PlayRecord(RuleSet::kStandard, 7, testing::RecordPrefix(g, k) + " " + pv);
  ASSERT_TRUE(replay.ok()) << replay.error();
  EXPECT_EQ(replay.value().turns.size(), static_cast<size_t>(k) + a.best.pv.size());
  EXPECT_GT(a.best.pv.size(), 1u);  // 400 simulations per sub-decision see past the turn
}

// The stepped form (Begin, CollectLeaves, ProvideEvaluations) with an outside evaluator
// gives exactly what Search gives, turn after turn of a game (tree reuse included), for
// PUCT and Gumbel; batches never exceed leaves_per_batch and are of one leaf only when no
// more could be collected.
TEST(TurnSearcher, SteppedSearchEqualsSearch) {
  for (search::Algorithm alg : {search::Algorithm::kPuct, search::Algorithm::kGumbel}) {
    search::SearchConfig config = PlayConfig(48);
    config.algorithm = alg;
    search::HashEvaluator eval(11);
    auto whole = TurnSearcher::Neural(eval, config, 5);
    search::UniformEvaluator unused;
    auto stepped = TurnSearcher::Neural(unused, config, 5);
    Position pos = Position::Initial(RuleSet::kStandard, 7);
    int rounds = 0, singles = 0;
    for (int turn = 0; turn < 60 && !pos.IsTerminal(); ++turn) {
      const TurnAnalysis a = whole->Search(pos, {48, 0}, 4);
      stepped->Begin(pos, {48, 0}, 4);
      std::vector<Position> leaves;
      std::vector<search::EvalOutput> outputs;
      while (!stepped->Done()) {
        leaves.clear();
        const int k = stepped->CollectLeaves(leaves);
        if (k == 0) break;
        ASSERT_EQ(static_cast<int>(leaves.size()), k);
        ASSERT_LE(k, config.leaves_per_batch);
        ++rounds;
        singles += k == 1;
        outputs.assign(k, search::EvalOutput{});
        eval.Evaluate(leaves, outputs);
        stepped->ProvideEvaluations(outputs);
      }
      ASSERT_TRUE(stepped->Done());
      const TurnAnalysis& b = stepped->Analysis();
      ASSERT_EQ(b.best.turn, a.best.turn) << rules::Diagram(pos);
      EXPECT_EQ(b.best.win_rate, a.best.win_rate);
      EXPECT_EQ(b.best.visits, a.best.visits);
      EXPECT_EQ(b.simulations, a.simulations);
      ASSERT_EQ(b.candidates.size(), a.candidates.size());
      for (size_t i = 0; i < a.candidates.size(); ++i) {
        EXPECT_EQ(b.candidates[i].turn, a.candidates[i].turn);
        EXPECT_EQ(b.candidates[i].pv.size(), a.candidates[i].pv.size());
      }
      rules::ApplyTurn(pos, a.best.turn);
    }
    EXPECT_TRUE(pos.IsTerminal());
    EXPECT_LT(singles * 4, rounds);  // mostly full batches
  }
}

// Begin abandons a search whose leaves are still being evaluated; the next search works.
TEST(TurnSearcher, BeginAbandonsASearchInProgress) {
  search::HashEvaluator eval(2);
  auto searcher = TurnSearcher::Neural(eval, PlayConfig(64), 1);
  auto fresh = TurnSearcher::Neural(eval, PlayConfig(64), 1);
  const auto g = testing::PlayRandomGame(RuleSet::kStandard, 7, 8);
  searcher->Begin(g.before[3], {64, 0}, 2);
  std::vector<Position> leaves;
  ASSERT_GT(searcher->CollectLeaves(leaves), 0);
  EXPECT_FALSE(searcher->Done());
  // The leaves are never evaluated: another position is searched instead.
  const Position& other = g.before[6];
  const TurnAnalysis a = searcher->Search(other, {64, 0}, 2);
  const TurnAnalysis b = fresh->Search(other, {64, 0}, 2);
  EXPECT_EQ(a.best.turn, b.best.turn);
  EXPECT_EQ(a.best.visits, b.best.visits);
  // Abandon, then the same position again from an empty tree.
  searcher->Begin(other, {64, 0}, 2);
  leaves.clear();
  ASSERT_GT(searcher->CollectLeaves(leaves), 0);
  searcher->Abandon();
  fresh->NewGame();
  EXPECT_EQ(searcher->Search(other, {64, 0}, 2).best.visits,
            fresh->Search(other, {64, 0}, 2).best.visits);
}

}  // namespace
}  // namespace veletas::play
