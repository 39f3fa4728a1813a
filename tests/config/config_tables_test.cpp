// The settings tables the config reader reads (util/settings_table.h): every section's keys
// are distinct and documented, and the resolved config lists exactly the tables' keys.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "config/config.h"

namespace veletas::config {
namespace {

// The keys of S::Fields(), after checking that each has help text and is not a repeat.
template <class S>
std::set<std::string> KeysOf(const char* section) {
  std::set<std::string> keys;
  for (const util::Field<S>& f : S::Fields()) {
    EXPECT_STRNE(f.help, "") << section << "." << f.key << " has no help";
    if (std::string(f.key).empty()) continue;  // a nested struct's settings at this level
    EXPECT_TRUE(keys.insert(f.key).second) << section << "." << f.key << " is a repeat";
  }
  return keys;
}

TEST(ConfigTables, EveryKeyIsDistinctAndHasHelp) {
  EXPECT_FALSE(KeysOf<GameConfig>("game").empty());
  EXPECT_FALSE(KeysOf<model::NetConfig>("model").empty());
  EXPECT_FALSE(KeysOf<search::SearchConfig>("search").empty());
  EXPECT_FALSE(KeysOf<search::BatchingConfig>("evaluator").empty());
  EXPECT_FALSE(KeysOf<arena::ArenaConfig>("arena").empty());
  EXPECT_FALSE(KeysOf<arena::ArenaSettings>("arena").empty());  // gate, ladder
  EXPECT_FALSE(KeysOf<arena::GateSettings>("arena.gate").empty());
  EXPECT_FALSE(KeysOf<arena::GateConfig>("arena.gate").empty());
  EXPECT_FALSE(KeysOf<arena::SprtConfig>("arena.gate").empty());
  EXPECT_FALSE(KeysOf<arena::LadderConfig>("arena.ladder").empty());
  EXPECT_FALSE(KeysOf<selfplay::SelfplayConfig>("selfplay").empty());
  EXPECT_FALSE(KeysOf<training::TrainingConfig>("training").empty());
  EXPECT_FALSE(KeysOf<PipelineConfig>("pipeline").empty());
  EXPECT_FALSE(KeysOf<ClusterConfig>("cluster").empty());
}

// A key added to a table is read, resolved and accepted in a config file with no other edit.
TEST(ConfigTables, TheResolvedConfigHoldsEveryTableKey) {
  const auto c = LoadConfigFromString("cluster:\n  redis: redis://h\n", "t.yaml");
  ASSERT_TRUE(c.ok()) << c.error();
  for (const util::Field<training::TrainingConfig>& f : training::TrainingConfig::Fields()) {
    EXPECT_NE(c.value().resolved_yaml.find(std::string("  ") + f.key + ":"), std::string::npos)
        << f.key;
  }
  for (const util::Field<ClusterConfig>& f : ClusterConfig::Fields()) {
    EXPECT_NE(c.value().resolved_yaml.find(std::string("  ") + f.key + ":"), std::string::npos)
        << f.key;
  }
}

}  // namespace
}  // namespace veletas::config
