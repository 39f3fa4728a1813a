// The shipped networks (model/base/shipped_networks.h): the lookup by game, $VELETAS_NETWORKS, the
// checks of a folder against its card (SHA-256, game, size limit), `veletas export
// --checkpoint`, and every network shipped in the source tree's networks/ (loads, matches
// its card, fits the size limit, plays a legal game).
#include "model/base/shipped_networks.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "model/base/checkpoint_file.h"
#include "model/network_evaluator.h"
#include "model/torch/model_files.h"
#include "rules/turns.h"
#include "search/player.h"
#include "search/search_config.h"
#include "tests/model/test_util.h"
#include "tests/support/files.h"
#include "util/sha256.h"

#ifndef VELETAS_SOURCE_NETWORKS
#error "VELETAS_SOURCE_NETWORKS must name the source tree's networks/ folder"
#endif

namespace veletas::model {
namespace {

namespace fs = std::filesystem;
using rules::RuleSet;
using testing::TempDir;

// Sets $VELETAS_NETWORKS for one test and restores it after.
class NetworksEnv {
 public:
  explicit NetworksEnv(const std::string& value) {
    if (const char* old = std::getenv(kNetworksEnvVar)) old_ = old;
    setenv(kNetworksEnvVar, value.c_str(), 1);
  }
  ~NetworksEnv() {
    if (old_) {
      setenv(kNetworksEnvVar, old_->c_str(), 1);
    } else {
      unsetenv(kNetworksEnvVar);
    }
  }

 private:
  std::optional<std::string> old_;
};

void WriteBytes(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

// A shipped folder ROOT/NAME for a fresh tiny network of `rules` `size` as ship_network.py
// writes it: the checkpoint and model.json of `veletas export`, the other files' bytes (the
// ONNX file is only hashed here; tests/model/ship_network_test.py ships a real one).
nlohmann::json MakeFolder(const std::string& root, const std::string& name, RuleSet rules,
                          int size) {
  const std::string dir = (fs::path(root) / name).string();
  fs::create_directories(dir);
  const std::string ckpt = (fs::path(root) / (name + ".full.ckpt")).string();
  EXPECT_TRUE(CreateInitialCheckpoint(ckpt, ModelSpec{rules, size, testing::TinyArch()}, 3).ok());
  auto stripped = ReadShippedCheckpoint(ckpt);
  EXPECT_TRUE(stripped.ok());
  WriteBytes(dir + "/model.ckpt", stripped.value());
  WriteBytes(dir + "/model.json", "{\"format\": \"veletas-zero TorchScript export\"}\n");
  WriteBytes(dir + "/model.onnx", std::string(1000, 'o'));
  WriteBytes(dir + "/config.yaml", "game:\n  rules: standard\n  size: 7\n");
  WriteBytes(dir + "/CARD.md", "# " + name + "\n");
  nlohmann::json card = {{"format", kNetworkCardFormat},
                         {"name", name},
                         {"rules", rules::RuleSetName(rules)},
                         {"size", size},
                         {"generation", 12},
                         {"config", "config.yaml"},
                         {"command", "veletas pipeline --config configs/tiny.yaml --out run"},
                         {"commit", "0123456789abcdef"},
                         {"cpu_minutes", 3.5},
                         {"results",
                          {{{"opponent", "uct:1000"},
                            {"games", 200},
                            {"wins", 150},
                            {"losses", 50},
                            {"elo", 190.8},
                            {"elo_low", 139.3},
                            {"elo_high", 247.4}},
                           {{"opponent", "random"},
                            {"games", 200},
                            {"wins", 200},
                            {"losses", 0},
                            {"elo", nullptr},
                            {"elo_low", 766.0},
                            {"elo_high", nullptr}}}}};
  for (const char* f : kShippedNetworkFiles) {
    card["files"][f] = util::Sha256Hex(test_support::ReadAll(dir + "/" + f));
  }
  WriteBytes(dir + "/card.json", card.dump(1));
  return card;
}

TEST(ShippedNetworks, FolderNameIsRulesAndSize) {
  EXPECT_EQ(ShippedNetworkName(RuleSet::kStandard, 7), "standard-7x7");
  EXPECT_EQ(ShippedNetworkName(RuleSet::kClassic, 10), "classic-10x10");
}

TEST(ShippedNetworks, FindsTheFolderOfTheGameInTheEnvironmentsRoot) {
  TempDir root;
  MakeFolder(root.Str(), "standard-7x7", RuleSet::kStandard, 7);
  NetworksEnv env(root.Str());
  EXPECT_EQ(ShippedNetworksRoot(), root.Str());
  auto found = FindShippedNetwork(RuleSet::kStandard, 7);
  ASSERT_TRUE(found.ok()) << found.error();
  ASSERT_TRUE(found.value().has_value());
  const ShippedNetwork& n = *found.value();
  EXPECT_EQ(n.card.name, "standard-7x7");
  EXPECT_EQ(n.card.generation, 12);
  EXPECT_EQ(n.checkpoint, root.File("standard-7x7/model.ckpt"));
  ASSERT_EQ(n.card.results.size(), 2u);
  EXPECT_EQ(n.card.results[0].wins, 150);
  EXPECT_FALSE(n.card.results[1].elo_high.has_value());
  EXPECT_EQ(SummarizeCard(n.card),
            "generation 12, 3.5 CPU-minutes, commit 0123456789; uct:1000 150-50 (Elo +191 [+139, "
            "+247]), random 200-0 (Elo >= +766)");
  // The checkpoint holds the network without optimiser state and loads.
  auto meta = ReadCheckpointMeta(n.checkpoint);
  ASSERT_TRUE(meta.ok()) << meta.error();
  EXPECT_EQ(meta.value().optimizer, "");
  EXPECT_TRUE(NetworkEvaluator::Open(n.checkpoint, ModelRequirement{}, testing::TinyArch()).ok());
}

TEST(ShippedNetworks, NoFolderForTheGameIsNoNetwork) {
  TempDir root;
  MakeFolder(root.Str(), "standard-7x7", RuleSet::kStandard, 7);
  NetworksEnv env(root.Str());
  auto found = FindShippedNetwork(RuleSet::kStandard, 9);
  ASSERT_TRUE(found.ok()) << found.error();
  EXPECT_FALSE(found.value().has_value());
  NetworksEnv missing(root.File("nothing-here"));
  found = FindShippedNetwork(RuleSet::kStandard, 7);
  ASSERT_TRUE(found.ok()) << found.error();
  EXPECT_FALSE(found.value().has_value());
}

TEST(ShippedNetworks, WithoutTheEnvironmentTheSourceTreesFolderIsUsed) {
  unsetenv(kNetworksEnvVar);
  EXPECT_EQ(fs::path(ShippedNetworksRoot()), fs::path(VELETAS_SOURCE_NETWORKS));
}

TEST(ShippedNetworks, AChangedFileFailsItsSha256) {
  TempDir root;
  MakeFolder(root.Str(), "standard-7x7", RuleSet::kStandard, 7);
  WriteBytes(root.File("standard-7x7/model.onnx"), std::string(1000, 'x'));
  NetworksEnv env(root.Str());
  auto found = FindShippedNetwork(RuleSet::kStandard, 7);
  ASSERT_FALSE(found.ok());
  EXPECT_NE(found.error().find("standard-7x7/model.onnx: SHA-256"), std::string::npos)
      << found.error();
  EXPECT_EQ(found.exit_code(), 2);
}

TEST(ShippedNetworks, AFolderOfAnotherGameIsRefused) {
  TempDir root;
  // A 7x7 network in the 9x9 folder.
  MakeFolder(root.Str(), "standard-9x9", RuleSet::kStandard, 7);
  NetworksEnv env(root.Str());
  auto found = FindShippedNetwork(RuleSet::kStandard, 9);
  ASSERT_FALSE(found.ok());
  EXPECT_NE(found.error().find("the network is for standard 7x7, expected standard 9x9"),
            std::string::npos)
      << found.error();
}

TEST(ShippedNetworks, ACardThatDisagreesWithTheCheckpointIsRefused) {
  TempDir root;
  nlohmann::json card = MakeFolder(root.Str(), "standard-9x9", RuleSet::kStandard, 7);
  card["size"] = 9;  // the checkpoint is still 7x7
  WriteBytes(root.File("standard-9x9/card.json"), card.dump());
  auto n = LoadShippedNetwork(root.File("standard-9x9"), RuleSet::kStandard, 9);
  ASSERT_FALSE(n.ok());
  EXPECT_NE(n.error().find("the checkpoint is for standard 7x7, the card says standard 9x9"),
            std::string::npos)
      << n.error();
}

TEST(ShippedNetworks, BadCardsNameTheKey) {
  TempDir root;
  nlohmann::json card = MakeFolder(root.Str(), "standard-7x7", RuleSet::kStandard, 7);
  const std::string dir = root.File("standard-7x7");
  struct Case {
    std::function<void(nlohmann::json&)> change;
    std::string expected;
  };
  const std::vector<Case> cases = {
      {[](nlohmann::json& c) { c["format"] = "veletas-network-card v9"; }, "format: expected"},
      {[](nlohmann::json& c) { c.erase("commit"); }, "commit: missing (expected a string)"},
      {[](nlohmann::json& c) { c["files"].erase("model.onnx"); }, "model.onnx is not listed"},
      {[](nlohmann::json& c) { c["files"]["../x"] = std::string(64, '0'); }, "is not a file name"},
      {[](nlohmann::json& c) { c["results"][0]["wins"] = 151; }, "results[0].wins + losses"},
      {[](nlohmann::json& c) { c["name"] = "other"; }, "is not the folder's name"},
      {[](nlohmann::json& c) { c["size"] = 8; }, "size: expected 7, 9 or 10"},
      {[](nlohmann::json& c) { c["results"][0].erase("elo_low"); }, "results[0].elo_low: missing"},
  };
  for (const Case& k : cases) {
    nlohmann::json changed = card;
    k.change(changed);
    WriteBytes(dir + "/card.json", changed.dump());
    auto n = LoadShippedNetwork(dir, RuleSet::kStandard, 7);
    ASSERT_FALSE(n.ok()) << k.expected;
    EXPECT_NE(n.error().find(k.expected), std::string::npos) << n.error();
    EXPECT_NE(n.error().find("card.json"), std::string::npos) << n.error();
  }
  WriteBytes(dir + "/card.json", "{not json");
  EXPECT_FALSE(LoadShippedNetwork(dir, RuleSet::kStandard, 7).ok());
}

TEST(ShippedNetworks, AFolderOverTheSizeLimitIsRefused) {
  TempDir root;
  nlohmann::json card = MakeFolder(root.Str(), "standard-7x7", RuleSet::kStandard, 7);
  const std::string onnx(kMaxShippedNetworkBytes - 1000, 'o');
  WriteBytes(root.File("standard-7x7/model.onnx"), onnx);
  card["files"]["model.onnx"] = util::Sha256Hex(onnx);
  WriteBytes(root.File("standard-7x7/card.json"), card.dump());
  auto n = LoadShippedNetwork(root.File("standard-7x7"), RuleSet::kStandard, 7);
  ASSERT_FALSE(n.ok());
  EXPECT_NE(n.error().find("more than the 8388608"), std::string::npos) << n.error();
}

TEST(ShippedNetworks, ExportWritesTheShippedCheckpoint) {
  TempDir dir;
  const std::string ckpt = dir.File("g0.ckpt");
  ASSERT_TRUE(
      CreateInitialCheckpoint(ckpt, ModelSpec{RuleSet::kStandard, 7, testing::TinyArch()}, 1).ok());
  const auto o =
      test_support::RunCommand(std::string(VELETAS_BINARY) + " export --checkpoint --model " +
                                   ckpt + " --out " + dir.File("out"),
                               dir);
  ASSERT_EQ(o.code, 0) << o.err;
  auto stripped = ReadShippedCheckpoint(ckpt);
  ASSERT_TRUE(stripped.ok());
  EXPECT_EQ(test_support::ReadAll(dir.File("out/model.ckpt")), stripped.value());
  EXPECT_TRUE(fs::exists(dir.File("out/model.json")));
}

// Every network of the source tree's networks/: it matches its card and SHA-256s, fits the
// size limit, loads and plays a legal game with a few simulations.
TEST(ShippedNetworks, EveryShippedNetworkLoadsAndPlaysALegalGame) {
  std::error_code ec;
  int checked = 0;
  for (const auto& entry : fs::directory_iterator(VELETAS_SOURCE_NETWORKS, ec)) {
    if (!entry.is_directory() || entry.path().filename().string().front() == '.') continue;
    const std::string dir = entry.path().string();
    auto card = ParseNetworkCard(test_support::ReadAll(dir + "/card.json"), dir + "/card.json");
    ASSERT_TRUE(card.ok()) << card.error();
    auto n = LoadShippedNetwork(dir, card.value().rules, card.value().size);
    ASSERT_TRUE(n.ok()) << n.error();
    EXPECT_EQ(n.value().card.name, ShippedNetworkName(card.value().rules, card.value().size));
    NetConfig runtime;
    runtime.threads = 1;
    auto opened = NetworkEvaluator::Open(n.value().checkpoint, ModelRequirement{}, runtime);
    ASSERT_TRUE(opened.ok()) << opened.error();
    search::SearchConfig sc = search::ForPlay(search::SearchConfig{});
    sc.simulations = 8;
    auto player = search::MakeMctsPlayer(*opened.value().evaluator, sc, 1);
    rules::Position pos = rules::Position::Initial(card.value().rules, card.value().size);
    int turns = 0;
    while (!pos.IsTerminal() && turns < 1000) {
      const rules::Turn t = player->ChooseTurn(pos).turn;
      for (int i = 0; i < t.length; ++i) {
        ASSERT_TRUE(pos.IsLegal(t[i])) << dir << " turn " << turns;
        pos.Apply(t[i]);
      }
      ++turns;
    }
    EXPECT_TRUE(pos.IsTerminal()) << dir;
    ++checked;
  }
  if (checked == 0) GTEST_SKIP() << "no network is shipped in " << VELETAS_SOURCE_NETWORKS;
}

}  // namespace
}  // namespace veletas::model
