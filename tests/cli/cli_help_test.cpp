// The command-line library (cli/): the grouped help over a catalogue, "did you mean" for
// commands and options, and the front's choice of what runs in veletas-full.
#include <gtest/gtest.h>

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "cli/front.h"
#include "cli/help.h"

namespace veletas::cli {
namespace {

const std::vector<Command> kCatalogue = {
    {"moves", "list legal turns"},
    {"play", "play in the terminal"},
    {"bench", "rules benchmark"},
    {"search", "search benchmark", nullptr, "bench"},
    {"nn", "network benchmark", nullptr, "bench"},
    {"secret", "in no group"},
};

TEST(CliHelp, ListsTheCatalogueByGroupThenTheParts) {
  const std::string help = GroupedHelp(kCatalogue);
  const size_t play = help.find("Play and analyse:\n  play");
  const size_t tools = help.find("Tools:\n  moves");
  const size_t bench = help.find("Benchmarks:\n  bench");
  const size_t parts = help.find("Parts of commands (veletas COMMAND PART):\n  bench search");
  ASSERT_NE(play, std::string::npos) << help;
  ASSERT_NE(tools, std::string::npos) << help;
  ASSERT_NE(bench, std::string::npos) << help;
  ASSERT_NE(parts, std::string::npos) << help;
  EXPECT_LT(play, tools);
  EXPECT_LT(tools, bench);
  EXPECT_LT(bench, parts);
  EXPECT_NE(help.find("  bench nn            network benchmark\n"), std::string::npos) << help;
  // A command in no group is left out.
  EXPECT_EQ(help.find("secret"), std::string::npos) << help;
}

TEST(CliHelp, NamesTheGroupOfACommand) {
  EXPECT_EQ(HelpGroupOf("play"), "Play and analyse");
  EXPECT_EQ(HelpGroupOf("ladder"), "Evaluate");
  EXPECT_EQ(HelpGroupOf("nn"), "");
}

TEST(CliHelp, SuggestsTheClosestCommand) {
  EXPECT_EQ(CommandSuggestion("paly", kCatalogue), " (did you mean play?)");
  EXPECT_EQ(CommandSuggestion("hepl", kCatalogue), " (did you mean help?)");
  EXPECT_EQ(CommandSuggestion("zzzzzzzz", kCatalogue), "");
}

TEST(CliHelp, SuggestsTheClosestOptionForEachUnknownOne) {
  CLI::App app("test");
  int size = 0, seed = 0;
  app.add_option("--size", size, "board size");
  app.add_option("--seed", seed, "seed");
  EXPECT_EQ(OptionSuggestions(app, {"play", "--sizee", "7", "--sed=3"}),
            " (did you mean --size for --sizee, --seed for --sed?)");
  EXPECT_EQ(OptionSuggestions(app, {"play", "--size", "7", "--hepl"}),
            " (did you mean --help for --hepl?)");
  EXPECT_EQ(OptionSuggestions(app, {"play", "--size", "7", "--zzzzzzzzz"}), "");
}

// NeedsFull over a front that runs moves, bench and bench search itself.
bool Full(std::vector<std::string> args) {
  static const std::vector<Command> here = {
      {"moves", ""}, {"bench", ""}, {"search", "", nullptr, "bench"}};
  args.insert(args.begin(), "veletas");
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  return NeedsFull(static_cast<int>(argv.size()), argv.data(), here, kCatalogue);
}

TEST(CliFront, RunsInTheFullAppOnlyWhatTheFrontLacks) {
  EXPECT_FALSE(Full({}));
  EXPECT_FALSE(Full({"help"}));
  EXPECT_FALSE(Full({"moves", "--size", "7"}));
  EXPECT_FALSE(Full({"bench"}));
  EXPECT_FALSE(Full({"bench", "search"}));
  EXPECT_FALSE(Full({"nosuchcommand"}));  // answered by the front with a suggestion
  EXPECT_TRUE(Full({"play"}));
  EXPECT_TRUE(Full({"help", "play"}));
  EXPECT_TRUE(Full({"bench", "nn"}));
  // The help of a command with parts lists them all: the full app has them.
  EXPECT_TRUE(Full({"bench", "--help"}));
  EXPECT_TRUE(Full({"help", "bench"}));
  EXPECT_FALSE(Full({"help", "moves"}));
}

TEST(CliFront, WritesTheCatalogueAsCppWithEscapedText) {
  const std::string source = CatalogueSource(
      {{"show", "print a \"position\" \\ board"}, {"nn", "network", nullptr, "bench"}});
  EXPECT_NE(source.find("{\"show\", \"print a \\\"position\\\" \\\\ board\", nullptr, nullptr},"),
            std::string::npos)
      << source;
  EXPECT_NE(source.find("{\"nn\", \"network\", nullptr, \"bench\"},"), std::string::npos) << source;
  EXPECT_NE(source.find("const std::vector<Command>& FrontCatalogue()"), std::string::npos);
}

}  // namespace
}  // namespace veletas::cli
