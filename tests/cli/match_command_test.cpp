// `veletas match` journals each finished game: a match killed in the middle is resumed by the
// same command, which takes the journal's games back and plays only the others.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "tests/cli/run_veletas.h"

namespace veletas::cli_test {
namespace {

namespace fs = std::filesystem;

// The complete lines of `text` (a torn last line left out).
std::vector<std::string> CompleteLines(const std::string& text) {
  std::vector<std::string> lines;
  size_t start = 0;
  for (size_t end; (end = text.find('\n', start)) != std::string::npos; start = end + 1) {
    lines.push_back(text.substr(start, end - start));
  }
  return lines;
}

TEST(MatchCli, AKilledMatchIsResumedByTheSameCommand) {
  const std::string dir = ::testing::TempDir() + "/match_resume_" + std::to_string(getpid());
  fs::remove_all(dir);
  const std::vector<std::string> args = {"match",   "--a",        "uct:300", "--b",    "random",
                                         "--games", "30",         "--size",  "7",      "--threads",
                                         "1",       "--parallel", "1",       "--seed", "5",
                                         "--out",   dir,          "--name",  "k"};
  const std::string journal = dir + "/matches/k.json.part";
  // Killed (SIGKILL) once the journal holds a finished game: 29 games are still to play.
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    std::vector<char*> argv{const_cast<char*>(VELETAS_BINARY)};
    for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    freopen("/dev/null", "w", stdout);
    freopen("/dev/null", "w", stderr);
    execv(VELETAS_BINARY, argv.data());
    _exit(127);
  }
  bool exited = false;
  while (CompleteLines(ReadFile(journal)).size() < 2) {
    int status = 0;
    if (waitpid(child, &status, WNOHANG) == child) {
      exited = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  ASSERT_FALSE(exited) << "the match ended before it had journaled a game";
  kill(child, SIGKILL);
  waitpid(child, nullptr, 0);
  ASSERT_FALSE(fs::exists(dir + "/matches/k.json"));
  // The journal's finished games: index -> record.
  const std::vector<std::string> lines = CompleteLines(ReadFile(journal));
  std::map<int, std::string> kept;
  for (size_t i = 1; i < lines.size(); ++i) {
    const nlohmann::json j = nlohmann::json::parse(lines[i]);
    kept[j.at("index").get<int>()] = j.at("record").get<std::string>();
  }
  ASSERT_GE(kept.size(), 1u);

  const Output o = RunVeletas(args);
  ASSERT_EQ(o.code, 0) << o.err;
  EXPECT_NE(
      o.out.find("resuming match k: " + std::to_string(kept.size()) + " games from " + journal),
      std::string::npos)
      << o.out;
  EXPECT_FALSE(fs::exists(journal));
  const nlohmann::json match = nlohmann::json::parse(ReadFile(dir + "/matches/k.json"));
  EXPECT_EQ(match.at("a_wins").get<int>() + match.at("b_wins").get<int>(), 30);
  std::istringstream records(ReadFile(dir + "/matches/k.records.txt"));
  std::vector<std::string> record_lines;
  for (std::string line; std::getline(records, line);) record_lines.push_back(line);
  ASSERT_EQ(record_lines.size(), 30u);
  for (const auto& [index, record] : kept) EXPECT_EQ(record_lines.at(index), record) << index;
  fs::remove_all(dir);
}

}  // namespace
}  // namespace veletas::cli_test
