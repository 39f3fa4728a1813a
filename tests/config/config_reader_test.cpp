// The config reader with files a hostile or careless hand wrote: keys that are not words,
// directories and unreadable files, YAML that nests or aliases heavily.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "config/config.h"
#include "tests/support/temp_dir.h"

namespace veletas::config {
namespace {

using test_support::TempDir;

// Defect 8 of issue 13: a key that is not a scalar is an error naming the file and line,
// not a yaml-cpp exception.
TEST(ConfigReader, AKeyThatIsNotAWordIsAnErrorNamingFileAndLine) {
  const auto list = LoadConfigFromString("game:\n  [a, b]: 1\n", "d8.yaml");
  ASSERT_FALSE(list.ok());
  EXPECT_EQ(list.error(),
            "d8.yaml:2: a key of game is not a word (expected a key such as \"size\", got a "
            "list)");
  EXPECT_EQ(list.exit_code(), 2);
  const auto top = LoadConfigFromString("{x: 1}: 2\n", "top.yaml");
  ASSERT_FALSE(top.ok());
  EXPECT_EQ(top.error(),
            "top.yaml:1: a key is not a word (expected a key such as \"size\", got a mapping)");
  const auto nested = LoadConfigFromString("arena:\n  gate:\n    ? [1]\n    : 2\n", "n.yaml");
  ASSERT_FALSE(nested.ok());
  EXPECT_EQ(nested.error().rfind("n.yaml:3: a key of arena.gate is not a word", 0), 0u)
      << nested.error();
}

// Defect 7 of issue 13 at the reader: a directory is not a config with every default.
TEST(ConfigReader, ADirectoryOrAMissingFileIsAnError) {
  const TempDir dir;
  const auto directory = LoadConfig(dir.Str());
  ASSERT_FALSE(directory.ok());
  EXPECT_EQ(directory.error(), dir.Str() + ": is a directory, expected a file (the config file)");
  EXPECT_EQ(directory.exit_code(), 2);
  const auto missing = LoadConfig(dir.File("none.yaml"));
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().find(dir.File("none.yaml") + ": cannot open"), std::string::npos)
      << missing.error();
}

TEST(ConfigReader, AHugeFileIsRefusedUnread) {
  const TempDir dir;
  const std::string path = dir.File("huge.yaml");
  std::ofstream(path) << "# " << std::string(kMaxConfigBytes, 'x') << "\n";
  const auto huge = LoadConfig(path);
  ASSERT_FALSE(huge.ok());
  EXPECT_NE(huge.error().find("this reader accepts"), std::string::npos) << huge.error();
}

// Aliases of aliases (a "billion laughs") are read without expanding them, and deep
// nesting ends in an error, not a stack overflow.
TEST(ConfigReader, AliasesAndDeepNestingStayBounded) {
  std::string laughs = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n";
  for (int i = 1; i < 30; ++i) {
    laughs += "a" + std::to_string(i) + ": &a" + std::to_string(i) + " [";
    for (int k = 0; k < 10; ++k)
      laughs += std::string(k ? ", " : "") + "*a" + std::to_string(i - 1);
    laughs += "]\n";
  }
  const auto aliased = LoadConfigFromString(laughs, "laughs.yaml");
  ASSERT_FALSE(aliased.ok());
  // Every unknown key is reported, the first kMaxConfigErrorsListed by line.
  EXPECT_EQ(aliased.error().rfind("laughs.yaml:1: unknown key \"a0\"\nlaughs.yaml:2: ", 0), 0u)
      << aliased.error();
  EXPECT_NE(aliased.error().find("laughs.yaml:20: unknown key \"a19\"\n(and 10 more errors)"),
            std::string::npos)
      << aliased.error();
  const auto deep = LoadConfigFromString("game: " + std::string(100000, '[') + "\n", "deep.yaml");
  ASSERT_FALSE(deep.ok());
  EXPECT_EQ(deep.error().rfind("deep.yaml:", 0), 0u) << deep.error();
}

// Every error of a file at once (issue 47): unknown keys and values of the wrong type, out of
// range or not allowed, in several sections and two in one section, a line each in the order
// of the file's lines, each naming the file, line, key and what was expected.
TEST(ConfigReader, EveryErrorOfAFileIsReportedAtOnce) {
  const auto bad = LoadConfigFromString(
      "search:\n"
      "  simulations: 0\n"        // 2: integer out of range
      "  temperature: 500\n"      // 3: number out of range (Validate)
      "  c_puct_init: -1\n"       // 4: a second one in the same section
      "  solver: maybe\n"         // 5: not a boolean
      "  algorithm: alphabeta\n"  // 6: not a choice
      "selfplay:\n"
      "  threds: 2\n"      // 8: unknown key
      "  threads: many\n"  // 9: not an integer
      "training:\n"
      "  learning_rate: 20\n"  // 11: out of range (Validate)
      "game: 7\n",             // 12: not a mapping
      "all.yaml");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.exit_code(), 2);
  const std::vector<std::string> expected = {
      "all.yaml:2: search.simulations: 0 is out of range [1, 1000000]",
      "all.yaml:3: search.temperature: 500 is out of range [0, 100]",
      "all.yaml:4: search.c_puct_init: -1 is out of range [0, 100]",
      "all.yaml:5: search.solver: expected true or false, got \"maybe\"",
      "all.yaml:6: search.algorithm: \"alphabeta\" is not one of: ",
      "all.yaml:8: unknown key \"selfplay.threds\" (did you mean \"selfplay.threads\"?)",
      "all.yaml:9: selfplay.threads: expected an integer, got \"many\"",
      "all.yaml:11: training.learning_rate: 20 is out of range (0, 10]",
      "all.yaml:12: game: expected a mapping",
  };
  std::vector<std::string> lines;
  std::istringstream text(bad.error());
  for (std::string l; std::getline(text, l);) lines.push_back(l);
  ASSERT_EQ(lines.size(), expected.size()) << bad.error();
  for (size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(lines[i].rfind(expected[i], 0), 0u) << "line " << i << ": " << bad.error();
  }
}

// A key's first error is its only one: an integer list with two values out of range, and a
// nested section's value that its own and its parent's checks both refuse.
TEST(ConfigReader, AKeyIsReportedOnce) {
  const auto bad = LoadConfigFromString("arena:\n  gate:\n    elo1: 5000\n", "once.yaml");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().find('\n'), std::string::npos) << bad.error();
  EXPECT_EQ(bad.error().rfind("once.yaml:3: arena.gate.elo1: ", 0), 0u) << bad.error();
}

// A file of nothing but unknown keys, as large as a config may be: every one is counted, the
// first kMaxConfigErrorsListed listed (each key is checked against the others once, not
// against every error found before it).
TEST(ConfigReader, AFileFullOfUnknownKeysIsCountedWhole) {
  std::string text;
  int keys = 0;
  while (text.size() + 16 < kMaxConfigBytes) text += "k" + std::to_string(keys++) + ": 1\n";
  const auto bad = LoadConfigFromString(text, "many.yaml");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().rfind("many.yaml:1: unknown key \"k0\"\n", 0), 0u) << bad.error();
  EXPECT_NE(
      bad.error().find("\n(and " + std::to_string(keys - kMaxConfigErrorsListed) + " more errors)"),
      std::string::npos)
      << bad.error().substr(bad.error().size() - 200);
}

}  // namespace
}  // namespace veletas::config
