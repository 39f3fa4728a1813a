// The player of the interactive commands (cli/interactive_player.h) over a fake opener (the
// network itself is model/'s, tested there), and the board size asked of a new player
// (cli/board_size.h).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <string>

#include "cli/board_size.h"
#include "cli/interactive_player.h"
#include "search/fake_evaluators.h"
#include "tests/support/temp_dir.h"

namespace veletas::cli {
namespace {

// Opens every checkpoint as a 7x7 network of generation 3 (a fake evaluator), recording what
// it was asked and the threads it was set to.
struct FakeOpener {
  model::ModelRequirement need;
  std::string ckpt;
  int threads = -1;
  NetworkOpener Opener() {
    return [this](const std::string& path, const model::ModelRequirement& n,
                  const model::NetConfig&) -> util::Result<PlayNetwork> {
      ckpt = path;
      need = n;
      PlayNetwork net;
      net.meta.size = 7;
      net.meta.generation = 3;
      net.evaluator = std::make_unique<search::HashEvaluator>(1);
      net.set_threads = [this](int t) { threads = t; };
      return net;
    };
  }
};

// Points $VELETAS_NETWORKS at a folder of the test's for its lifetime.
class NetworksDir {
 public:
  NetworksDir() { ::setenv("VELETAS_NETWORKS", dir_.Str().c_str(), 1); }
  ~NetworksDir() { ::unsetenv("VELETAS_NETWORKS"); }
  const test_support::TempDir& Dir() const { return dir_; }

 private:
  test_support::TempDir dir_;
};

TEST(CliPlayer, ANetworkPlaysItsOwnGame) {
  FakeOpener opener;
  PlayerArgs args;
  args.model = "runs/a/g3.ckpt";
  args.seed = 5;
  auto player = MakeInteractivePlayer(args, opener.Opener());
  ASSERT_TRUE(player) << player.error();
  const InteractivePlayer& b = *player.value();
  EXPECT_EQ(opener.ckpt, "runs/a/g3.ckpt");
  EXPECT_FALSE(opener.need.size.has_value());  // no --size: the checkpoint's
  EXPECT_EQ(b.size, 7);
  EXPECT_TRUE(b.fixed_game);
  ASSERT_NE(b.evaluator, nullptr);
  ASSERT_NE(b.searcher, nullptr);
  // The file's name, never its path.
  EXPECT_NE(b.description.find("model g3.ckpt (generation 3)"), std::string::npos) << b.description;
  EXPECT_EQ(b.description.find("runs/"), std::string::npos) << b.description;
  const play::TerminalGameSetup game = MakeTerminalSetup(b, 1, "game.txt");
  EXPECT_EQ(game.size, 7);
  EXPECT_EQ(game.human, 1);
  EXPECT_EQ(game.engine, b.searcher.get());
  EXPECT_EQ(game.adviser, b.searcher.get());
  EXPECT_EQ(game.engine_visits, b.visits);
  EXPECT_EQ(game.seed, 5u);
  EXPECT_EQ(game.record_file, "game.txt");
  const play::EngineSetup setup = MakeEngineSetup(*player.value());
  ASSERT_TRUE(setup.set_threads);
  ASSERT_TRUE(setup.set_threads(2));
  EXPECT_EQ(opener.threads, 2);
}

TEST(CliPlayer, SizeOptionIsRequiredOfTheNetwork) {
  FakeOpener opener;
  PlayerArgs args;
  args.model = "g3.ckpt";
  args.config.game.size = 9;
  ASSERT_TRUE(MakeInteractivePlayer(args, opener.Opener()));
  ASSERT_TRUE(opener.need.size.has_value());
  EXPECT_EQ(*opener.need.size, 9);
}

TEST(CliPlayer, TheOpenersErrorIsTheCommandsError) {
  PlayerArgs args;
  args.model = "bad.ckpt";
  auto player = MakeInteractivePlayer(
      args, [](const std::string& ckpt, const model::ModelRequirement&, const model::NetConfig&) {
        return util::Result<PlayNetwork>::Error(ckpt + ": truncated");
      });
  ASSERT_FALSE(player);
  EXPECT_EQ(player.error(), "bad.ckpt: truncated");
}

TEST(CliPlayer, UctAndRandomPlayersRefuseTheNetworksOptions) {
  FakeOpener opener;
  PlayerArgs uct;
  uct.uct = 50;
  auto player = MakeInteractivePlayer(uct, opener.Opener());
  ASSERT_TRUE(player) << player.error();
  EXPECT_EQ(player.value()->description, "uct(50)");
  EXPECT_EQ(player.value()->visits, 50);
  EXPECT_EQ(player.value()->evaluator, nullptr);
  uct.threads = 2;
  player = MakeInteractivePlayer(uct, opener.Opener());
  ASSERT_FALSE(player);
  EXPECT_EQ(player.error(), "--threads is for --model");
  PlayerArgs random;
  random.random = true;
  random.simulations = 10;
  player = MakeInteractivePlayer(random, opener.Opener());
  ASSERT_FALSE(player);
  EXPECT_EQ(player.error(), "--simulations and --threads are for --model");
  EXPECT_TRUE(opener.ckpt.empty());  // nothing was opened
}

TEST(CliPlayer, WithoutAShippedNetworkUctPlaysAndSaysSo) {
  NetworksDir networks;
  FakeOpener opener;
  PlayerArgs args;
  args.config.game.size = 9;
  auto player = MakeInteractivePlayer(args, opener.Opener());
  ASSERT_TRUE(player) << player.error();
  EXPECT_EQ(player.value()->description, "uct(1000)");
  EXPECT_EQ(player.value()->size, 9);
  EXPECT_NE(player.value()->notice.find("no network is shipped for standard-9x9"),
            std::string::npos)
      << player.value()->notice;
}

TEST(CliBoardSize, ListsWhichSizesHaveAShippedNetwork) {
  NetworksDir networks;
  std::filesystem::create_directories(networks.Dir().Path() / "standard-7x7");
  const std::vector<BoardChoice> choices = BoardChoices(rules::RuleSet::kStandard);
  ASSERT_EQ(choices.size(), 3u);
  EXPECT_EQ(choices[0].size, 7);
  EXPECT_TRUE(choices[0].shipped);
  EXPECT_EQ(choices[1].size, 9);
  EXPECT_FALSE(choices[1].shipped);
  EXPECT_EQ(choices[2].size, 10);
  EXPECT_FALSE(choices[2].shipped);
}

TEST(CliBoardSize, AsksOnlyATerminalWhoseGameIsOpen) {
  PlayerArgs args;
  EXPECT_TRUE(ShouldAskBoardSize(args, /*interactive=*/true));
  EXPECT_FALSE(ShouldAskBoardSize(args, /*interactive=*/false));
  args.random = true;
  args.config.game.rules = "classic";
  EXPECT_TRUE(ShouldAskBoardSize(args, true));
  PlayerArgs sized;
  sized.config.game.size = 7;
  EXPECT_FALSE(ShouldAskBoardSize(sized, true));
  PlayerArgs configured;
  configured.config.config = "run.yaml";
  EXPECT_FALSE(ShouldAskBoardSize(configured, true));
  PlayerArgs network;
  network.model = "g3.ckpt";
  EXPECT_FALSE(ShouldAskBoardSize(network, true));
}

// The size AskBoardSize reads from `input`, and what it wrote in `out`.
int Ask(const std::string& input, std::string* out = nullptr) {
  const std::vector<BoardChoice> choices = {{7, true}, {9, false}, {10, true}};
  std::istringstream in(input);
  std::ostringstream text;
  const int size = AskBoardSize(choices, in, text);
  if (out) *out = text.str();
  return size;
}

TEST(CliBoardSize, EnterOrTheEndOfInputGivesTenByTen) {
  std::string out;
  EXPECT_EQ(Ask("\n", &out), 10);
  EXPECT_EQ(out,
            "Board sizes:  7x7 (shipped network)  9x9 (no network shipped: UCT plays)  10x10 "
            "(shipped network)\nBoard size, 7, 9 or 10 (Enter: 10x10)? ");
  EXPECT_EQ(Ask(""), 10);
  EXPECT_EQ(Ask("   \n7\n"), 10);
}

TEST(CliBoardSize, TakesASizeOrABoard) {
  EXPECT_EQ(Ask("7\n"), 7);
  EXPECT_EQ(Ask(" 9x9 \n"), 9);
  EXPECT_EQ(Ask("10\n"), 10);
}

TEST(CliBoardSize, AsksAgainAfterAnAnswerItDoesNotKnow) {
  std::string out;
  EXPECT_EQ(Ask("8\n7x9\nseven\n9\n", &out), 9);
  EXPECT_NE(out.find("expected 7, 9 or 10 (the side of the board: 7 for 7x7), got \"8\"\n"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("got \"7x9\""), std::string::npos) << out;
  EXPECT_NE(out.find("got \"seven\""), std::string::npos) << out;
  // Asked four times.
  size_t asked = 0;
  for (size_t at = out.find("Board size,"); at != std::string::npos;
       at = out.find("Board size,", at + 1)) {
    ++asked;
  }
  EXPECT_EQ(asked, 4u);
}

}  // namespace
}  // namespace veletas::cli
