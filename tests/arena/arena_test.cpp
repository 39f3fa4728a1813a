// The arena: player specs, seats and colours, diversified openings, parallel batched play
// equal to sequential play, and the Elo summary of a match record.
#include "arena/arena.h"

#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "arena/arena_record.h"
#include "rules/notation.h"
#include "rules/symmetry.h"
#include "search/batching_evaluator.h"
#include "search/fake_evaluators.h"
#include "search/player.h"

namespace veletas::arena {
namespace {

constexpr rules::RuleSet kStd = rules::RuleSet::kStandard;

std::vector<std::string> Tokens(const std::string& record) {
  std::istringstream in(record);
  std::vector<std::string> out;
  for (std::string t; in >> t;) out.push_back(t);
  return out;
}

ArenaPlayer Neural(const std::string& name, search::Evaluator& ev, int sims) {
  ArenaPlayer p;
  p.name = name;
  p.spec = {PlayerKind::kMcts, sims, name + ".ckpt"};
  p.evaluator = &ev;
  p.search.leaves_per_batch = 4;
  return p;
}

ArenaPlayer Baseline(const std::string& spec) {
  auto parsed = ParsePlayerSpec(spec);
  EXPECT_TRUE(parsed.ok()) << spec;
  return MakeBaselinePlayer(parsed.value());
}

ArenaConfig Config(int parallel, int threads, uint64_t seed = 7) {
  ArenaConfig c;
  c.games_in_parallel = parallel;
  c.threads = threads;
  c.seed = seed;
  return c;
}

// --- Player specs ---

TEST(PlayerSpec, MctsTakesAnOptionalPrecision) {
  auto r = ParsePlayerSpec("mcts:runs/a:b/gen_3.ckpt:64:int8");
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(r.value().checkpoint, "runs/a:b/gen_3.ckpt");
  EXPECT_EQ(r.value().budget, 64);
  EXPECT_EQ(r.value().precision, "int8");
  EXPECT_EQ(r.value().ToString(), "mcts:runs/a:b/gen_3.ckpt:64:int8");
  EXPECT_EQ(DefaultPlayerName(r.value()), "gen_3_int8");
  r = ParsePlayerSpec("mcts:gen_3.ckpt:64");
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(r.value().precision, "");
  EXPECT_EQ(DefaultPlayerName(r.value()), "gen_3");
  for (const char* bad : {"mcts:ckpt:int8", "mcts:int8", "mcts:ckpt:64:Int8", "mcts:ckpt:64:"}) {
    EXPECT_FALSE(ParsePlayerSpec(bad).ok()) << bad;
  }
}

TEST(PlayerSpec, ParsesTheThreeKinds) {
  auto r = ParsePlayerSpec("random");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.value().kind, PlayerKind::kRandom);
  r = ParsePlayerSpec("uct:1000");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.value().kind, PlayerKind::kUct);
  EXPECT_EQ(r.value().budget, 1000);
  EXPECT_EQ(DefaultPlayerName(r.value()), "uct_1000");
  EXPECT_EQ(r.value().c_uct, 0.0);  // the board size's tuned constant
  r = ParsePlayerSpec("uct:1000:0.7");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.value().budget, 1000);
  EXPECT_EQ(r.value().c_uct, 0.7);
  EXPECT_EQ(r.value().ToString(), "uct:1000:0.7");
  EXPECT_EQ(DefaultPlayerName(r.value()), "uct_1000_c0.7");
  // The checkpoint may contain ':'; N follows the last one.
  r = ParsePlayerSpec("mcts:runs/a:b/gen_3.ckpt:64");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.value().kind, PlayerKind::kMcts);
  EXPECT_EQ(r.value().checkpoint, "runs/a:b/gen_3.ckpt");
  EXPECT_EQ(r.value().budget, 64);
  EXPECT_EQ(r.value().ToString(), "mcts:runs/a:b/gen_3.ckpt:64");
  EXPECT_EQ(DefaultPlayerName(r.value()), "gen_3");
  EXPECT_EQ(DefaultPlayerName(PlayerSpec{PlayerKind::kMcts, 8, "x/my model.ckpt"}), "my_model");
}

TEST(PlayerSpec, BadSpecsNameTheSpecAndWhatWasExpected) {
  const std::string expected = ": expected random, uct:N, uct:N:C or mcts:CKPT:N[:P]";
  for (const char* bad : {"uct:x", "uct:", "uct:-5", "uct: 5", "UCT:5", "rand", "", "mcts:ckpt",
                          "mcts::5", "mcts:ckpt:", "mcts:ckpt:6x", "random:3"}) {
    auto r = ParsePlayerSpec(bad);
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_EQ(r.error(), "unknown player \"" + std::string(bad) + "\"" + expected);
  }
  auto r = ParsePlayerSpec("uct:0");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error(), "player \"uct:0\": N (playouts per turn) must be in [1, 100000000]");
  for (const char* bad :
       {"uct:10:", "uct:10:0", "uct:10:-1", "uct:10:x", "uct:10:1e9", "uct:10:nan"}) {
    r = ParsePlayerSpec(bad);
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_NE(r.error().find("C (the exploration constant) must be a number in (0, 100]"),
              std::string::npos)
        << r.error();
  }
  r = ParsePlayerSpec("mcts:a.ckpt:99999999999");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().find("simulations per decision) must be in [1, 1000000]"), std::string::npos);
}

TEST(Arena, ValidateRefusesUnplayableMatches) {
  search::UniformEvaluator uniform;
  const ArenaConfig c = Config(4, 1);
  EXPECT_TRUE(ValidateArena(Baseline("random"), Baseline("uct:5"), kStd, 7, c).ok());
  const util::Status same = ValidateArena(Baseline("uct:5"), Baseline("uct:5"), kStd, 7, c);
  ASSERT_FALSE(same.ok());
  EXPECT_NE(same.error().find("both"), std::string::npos) << same.error();
  EXPECT_EQ(same.exit_code(), 2);
  ArenaPlayer n = Neural("gen_1", uniform, 8);
  n.evaluator = nullptr;
  const util::Status no_evaluator = ValidateArena(n, Baseline("random"), kStd, 7, c);
  ASSERT_FALSE(no_evaluator.ok());
  EXPECT_NE(no_evaluator.error().find("no evaluator"), std::string::npos);
  EXPECT_FALSE(ValidateArena(Baseline("random"), Baseline("uct:5"), kStd, 8, c).ok());
  EXPECT_FALSE(ValidateArena(Baseline("random"), Baseline("uct:5"), kStd, 7, Config(0, 1)).ok());
}

// --- Seats and colours ---

// Uniform priors and value 0, except that at the pie decision nearly all the prior is on
// the swap: an MCTS player over it always swaps.
search::FunctionEvaluator SwappingEvaluator() {
  return search::FunctionEvaluator([](const rules::Position& pos, search::EvalOutput& out) {
    search::FillUniformPolicy(pos, out);
    if (pos.Pending() != rules::Decision::kPie) return;
    const rules::ActionSet legal = pos.LegalActions();
    const float rest = 0.001f / static_cast<float>(legal.squares.Count());
    for (int sq : legal.squares) out.policy[sq] = rest;
    out.policy[pos.PassAction()] = 0.999f;
  });
}

TEST(Arena, SeatsAlternateAndColoursFollowTheSwap) {
  auto swapping = SwappingEvaluator();
  Arena arena(Baseline("random"), Neural("swapper", swapping, 16), kStd, 7, Config(5, 1));
  arena.Play(12);
  ASSERT_EQ(arena.GamesPlayed(), 12);
  int a_first = 0, swaps = 0, a_black = 0;
  for (const ArenaGame& g : arena.Games()) {
    EXPECT_EQ(g.a_first, g.index % 2 == 0);
    a_first += g.a_first;
    // Independently of the arena: replay the record, see whether the pie rule swapped,
    // and derive who had Black and who won.
    auto game = rules::PlayRecord(kStd, 7, g.record);
    ASSERT_TRUE(game.ok()) << game.error();
    const auto tokens = Tokens(g.record);
    ASSERT_GE(tokens.size(), 2u);
    const bool swapped = tokens[1] == "swap";
    swaps += swapped;
    // The swapper (B) always swaps when it is the second player (A first).
    if (g.a_first) {
      EXPECT_TRUE(swapped) << g.record;
    }
    // Black is the first player unless the second player swapped.
    const bool a_is_first_player = g.a_first;
    const bool a_black_expected = a_is_first_player != swapped;
    EXPECT_EQ(g.a_colour, a_black_expected ? rules::Color::kBlack : rules::Color::kWhite)
        << g.index << " " << g.record;
    a_black += g.a_colour == rules::Color::kBlack;
    ASSERT_TRUE(game.value().final.Winner().has_value());
    EXPECT_EQ(g.a_won, *game.value().final.Winner() == g.a_colour);
    EXPECT_EQ(g.turns, static_cast<int>(tokens.size()));
  }
  EXPECT_EQ(a_first, 6);
  EXPECT_GE(swaps, 6);
  // A was first in six games but swapped out of Black each time; it holds Black only in
  // the games where it was second and (as the random player) swapped itself.
  EXPECT_EQ(a_black, swaps - 6);
}

TEST(Arena, ClassicRulesGiveTheFirstPlayerBlack) {
  Arena arena(Baseline("random"), Baseline("uct:4"), rules::RuleSet::kClassic, 7, Config(3, 2));
  arena.Play(6);
  ASSERT_EQ(arena.Games().size(), 6u);
  for (const ArenaGame& g : arena.Games()) {
    EXPECT_EQ(g.a_colour, g.a_first ? rules::Color::kBlack : rules::Color::kWhite);
    auto game = rules::PlayRecord(rules::RuleSet::kClassic, 7, g.record);
    ASSERT_TRUE(game.ok()) << game.error();
    EXPECT_EQ(g.a_won, *game.value().final.Winner() == g.a_colour);
  }
}

// --- Openings ---

uint64_t CanonicalHash(const rules::Position& p) {
  uint64_t h = p.Hash();
  for (int s = 1; s < rules::kNumSymmetries; ++s) h = std::min(h, p.Transformed(s).Hash());
  return h;
}

TEST(Arena, OpeningsNeverRepeatUpToSymmetry) {
  // 7x7 has 25 * 48 = 1200 first setups, about 160 up to symmetry: 300 pairs need the
  // deeper openings too.
  OpeningBook book(kStd, 7, 1, 3);
  std::set<uint64_t> seen;
  int deeper = 0;
  for (int pair = 0; pair < 300; ++pair) {
    const auto& turns = book.Get(pair);
    ASSERT_GE(turns.size(), 1u);
    deeper += turns.size() > 1;
    rules::Position p = rules::Position::Initial(kStd, 7);
    for (const rules::Turn& t : turns) {
      ASSERT_TRUE(p.IsLegal(t[0]));
      rules::ApplyTurn(p, t);
    }
    EXPECT_TRUE(seen.insert(CanonicalHash(p)).second) << "pair " << pair;
  }
  EXPECT_GT(deeper, 0);
  EXPECT_LT(deeper, 300 - 100);
}

TEST(Arena, NoTwoGamesAreIdenticalEvenForDeterministicPlayers) {
  // Two deterministic neural players (no noise, temperature 0): only the openings make the
  // games differ.
  search::HashEvaluator ha(11), hb(12);
  Arena arena(Neural("gen_1", ha, 8), Neural("gen_2", hb, 8), kStd, 7, Config(16, 1));
  arena.Play(40);
  std::set<std::string> records;
  for (const ArenaGame& g : arena.Games()) {
    EXPECT_TRUE(records.insert(g.record).second) << "game " << g.index << ": " << g.record;
    // The pair shares its opening (the first player's setup) with the seats swapped.
    const ArenaGame& mate = arena.Games()[g.index ^ 1];
    EXPECT_EQ(Tokens(g.record)[0], Tokens(mate.record)[0]);
    EXPECT_NE(g.a_first, mate.a_first);
  }
  std::set<std::string> first_turns;
  for (int i = 0; i < 40; i += 2) first_turns.insert(Tokens(arena.Games()[i].record)[0]);
  EXPECT_EQ(first_turns.size(), 20u);
}

// --- Parallel batched play equals sequential play ---

// Plays game `index` of a match with ordinary Player objects, one turn at a time, from the
// arena's opening, seeding the players the way the arena does.
ArenaGame PlaySequentially(Arena& arena, int index, const ArenaConfig& config,
                           search::Evaluator* eval_a, search::Evaluator* eval_b) {
  std::unique_ptr<search::Player> players[2];
  for (int side = 0; side < 2; ++side) {
    const ArenaPlayer& p = side == 0 ? arena.A() : arena.B();
    const uint64_t seed = ArenaPlayerSeed(config.seed, index, side);
    if (p.spec.kind == PlayerKind::kMcts) {
      search::SearchConfig sc = search::ForPlay(p.search);
      sc.simulations = p.spec.budget;
      players[side] = search::MakeMctsPlayer(side == 0 ? *eval_a : *eval_b, sc, seed);
    } else if (p.spec.kind == PlayerKind::kUct) {
      search::UctConfig uc;
      uc.playouts = p.spec.budget;
      uc.threads = 1;
      players[side] = search::MakeUctPlayer(uc, seed);
    } else {
      players[side] = search::MakeRandomPlayer(seed);
    }
  }
  rules::Position pos = rules::Position::Initial(arena.Rules(), arena.Size());
  std::vector<std::string> moves;
  for (const rules::Turn& t : arena.Opening(index / 2)) {
    moves.push_back(rules::TurnToString(pos, t));
    rules::ApplyTurn(pos, t);
  }
  const bool a_first = index % 2 == 0;
  while (!pos.IsTerminal()) {
    const int side = (pos.ToMovePlayer() == 0) == a_first ? 0 : 1;
    const rules::Turn t = players[side]->ChooseTurn(pos).turn;
    moves.push_back(rules::TurnToString(pos, t));
    rules::ApplyTurn(pos, t);
  }
  ArenaGame g;
  g.index = index;
  g.a_first = a_first;
  for (const std::string& m : moves) g.record += (g.record.empty() ? "" : " ") + m;
  const int a_player = a_first ? 0 : 1;
  g.a_colour = pos.BlackPlayer() == a_player ? rules::Color::kBlack : rules::Color::kWhite;
  g.a_won = pos.Winner() == g.a_colour;
  return g;
}

void ExpectSameGames(Arena& arena, const ArenaConfig& config, search::Evaluator* eval_a,
                     search::Evaluator* eval_b, size_t games) {
  ASSERT_EQ(arena.Games().size(), games);
  for (const ArenaGame& g : arena.Games()) {
    const ArenaGame s = PlaySequentially(arena, g.index, config, eval_a, eval_b);
    EXPECT_EQ(g.record, s.record) << "game " << g.index;
    EXPECT_EQ(g.a_won, s.a_won) << "game " << g.index;
    EXPECT_EQ(g.a_colour, s.a_colour) << "game " << g.index;
  }
}

TEST(Arena, ParallelBatchedGamesEqualSequentialPlay_NeuralVsUct) {
  search::HashEvaluator hash(5);
  search::BatchingConfig bc;
  bc.max_wait_us = 0;
  search::BatchingEvaluator batching(hash, bc);
  const ArenaConfig config = Config(6, 2, 21);
  Arena arena(Neural("gen_1", batching, 12), Baseline("uct:20"), kStd, 7, config);
  arena.Play(4);
  arena.Play(8);  // a second batch continues the match
  ASSERT_EQ(arena.GamesPlayed(), 12);
  // Games' searches shared Evaluate calls: more leaves per call than one search sends (4).
  // How many more depends on thread timing (max_wait_us 0): 5.8 under ASan on a loaded
  // machine, above 6 otherwise.
  EXPECT_GT(arena.Stats().MeanBatch(), 4);
  ExpectSameGames(arena, config, &hash, nullptr, 12);
}

TEST(Arena, ParallelBatchedGamesEqualSequentialPlay_TwoModels) {
  search::HashEvaluator ha(1), hb(2);
  const ArenaConfig config = Config(10, 1, 4);
  Arena arena(Neural("gen_1", ha, 10), Neural("gen_2", hb, 10), kStd, 7, config);
  arena.Play(10);
  ExpectSameGames(arena, config, &ha, &hb, 10);
  // Same for the other rule set, with one model shared by both players.
  Arena shared(Neural("a", ha, 6), Neural("b", ha, 6), rules::RuleSet::kClassic, 7, config);
  shared.Play(6);
  ExpectSameGames(shared, config, &ha, &ha, 6);
}

// --- The summary written to the match record ---

TEST(Arena, MatchRecordSummaryOfAnEvenMatch) {
  // Identical deterministic players: each pair of games is won once by each seat holder, so
  // the match is exactly 10-10 and the numbers can be worked out by hand.
  search::HashEvaluator hash(9);
  Arena arena(Neural("gen_5", hash, 8), Neural("gen_4", hash, 8), kStd, 7, Config(20, 1));
  arena.Play(20);
  EXPECT_EQ(arena.AWins(), 10);
  const nlohmann::json j = MatchRecordToJson(MakeMatchRecord("m", arena, std::nullopt, "s", "f"));
  EXPECT_EQ(j["games"], 20);
  EXPECT_EQ(j["a_wins"], 10);
  EXPECT_EQ(j["b_wins"], 10);
  EXPECT_NEAR(j["elo"].get<double>(), 0.0, 1e-9);
  // Wilson interval at p = 1/2, n = 20, z = 1.959964: centre 1/2, half-width
  // z / (1 + z^2/n) * sqrt(1/(4n) + z^2/(4n^2)).
  const double z = 1.959963984540054, n = 20;
  const double half = z / (1 + z * z / n) * std::sqrt(0.25 / n + z * z / (4 * n * n));
  const double hi = 400 * std::log10((0.5 + half) / (0.5 - half));
  EXPECT_NEAR(j["elo_ci95"][1].get<double>(), hi, 0.01);
  EXPECT_NEAR(j["elo_ci95"][0].get<double>(), -hi, 0.01);
  EXPECT_NEAR(j["los"].get<double>(), 0.5, 1e-9);  // P(Bin(21, 1/2) <= 10) = 1/2
  EXPECT_EQ(j["players"]["a"]["spec"], "mcts:gen_5.ckpt:8");
  ASSERT_EQ(j["results"].size(), 20u);
  EXPECT_EQ(j["results"][3]["record"], "matches/m.records.txt:4");
  EXPECT_EQ(j["results"][3]["a_seat"], "second");
}

}  // namespace
}  // namespace veletas::arena
