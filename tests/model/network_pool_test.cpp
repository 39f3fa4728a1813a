// NetworkPool: one loaded network per (checkpoint, precision), shared; errors name the file
// or the precision. Two real networks, freshly initialised with different seeds.
#include <gtest/gtest.h>

#include <vector>

#include "model/base/features.h"
#include "model/network_evaluator.h"
#include "model/network_pool.h"
#include "model/torch/model_files.h"
#include "tests/model/test_util.h"

namespace veletas::model {
namespace {

using rules::RuleSet;

class NetworkPoolTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const ModelSpec spec{RuleSet::kStandard, 7, testing::TinyArch()};
    ASSERT_TRUE(CreateInitialCheckpoint(a_, spec, 1).ok());
    ASSERT_TRUE(CreateInitialCheckpoint(b_, spec, 2).ok());
  }
  // The values `e` gives the sample positions.
  static std::vector<float> Values(search::Evaluator& e) {
    const auto positions = SamplePositions(RuleSet::kStandard, 7, 6, 3);
    std::vector<search::EvalOutput> out(positions.size());
    e.Evaluate(positions, out);
    std::vector<float> values;
    for (const auto& o : out) values.push_back(o.value);
    return values;
  }

  testing::TempDir dir_;
  const std::string a_ = dir_.File("a.ckpt");
  const std::string b_ = dir_.File("b.ckpt");
  NetworkPool pool_{RuleSet::kStandard, 7, testing::TinyArch(), search::BatchingConfig{}};
};

TEST_F(NetworkPoolTest, TheSameCheckpointAndPrecisionGiveTheSameEvaluator) {
  auto a = pool_.Get(a_);
  ASSERT_TRUE(a.ok()) << a.error();
  auto b = pool_.Get(b_);
  ASSERT_TRUE(b.ok()) << b.error();
  auto a_fp32 = pool_.Get(a_, "fp32");
  ASSERT_TRUE(a_fp32.ok()) << a_fp32.error();
  EXPECT_EQ(pool_.Get(a_).value(), a.value());
  EXPECT_EQ(&pool_.Get(a_).value()->Evaluator(), &a.value()->Evaluator());
  EXPECT_EQ(pool_.Get(a_, "fp32").value(), a_fp32.value());
  EXPECT_EQ(pool_.Get(b_).value(), b.value());
  EXPECT_NE(a.value(), b.value());
  EXPECT_NE(a.value(), a_fp32.value());
  EXPECT_NE(&a.value()->Evaluator(), &b.value()->Evaluator());
  EXPECT_NE(&a.value()->Evaluator(), &a_fp32.value()->Evaluator());
  EXPECT_EQ(a.value()->generation, 0);
  // Each pooled evaluator is its checkpoint's network: a's equals a direct load of a, and
  // differs from b's.
  auto direct = NetworkEvaluator::Open(a_, {}, testing::TinyArch());
  ASSERT_TRUE(direct.ok()) << direct.error();
  const std::vector<float> va = Values(a.value()->Evaluator());
  EXPECT_EQ(va, Values(*direct.value().evaluator));
  EXPECT_NE(va, Values(b.value()->Evaluator()));
}

TEST_F(NetworkPoolTest, ErrorsNameTheFileOrThePrecision) {
  auto unknown = pool_.Get(a_, "fp8");
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.error().find("\"fp8\""), std::string::npos) << unknown.error();
  EXPECT_NE(unknown.error().find(a_), std::string::npos) << unknown.error();
  const std::string missing = dir_.File("none.ckpt");
  auto none = pool_.Get(missing);
  ASSERT_FALSE(none.ok());
  EXPECT_NE(none.error().find(missing), std::string::npos) << none.error();
  // Made for another board size than the pool's game.
  const std::string nine = dir_.File("nine.ckpt");
  ASSERT_TRUE(
      CreateInitialCheckpoint(nine, ModelSpec{RuleSet::kStandard, 9, testing::TinyArch()}, 1).ok());
  auto wrong = pool_.Get(nine);
  ASSERT_FALSE(wrong.ok());
  EXPECT_NE(wrong.error().find(nine), std::string::npos) << wrong.error();
  // A failed load leaves nothing behind: the good checkpoint still loads.
  EXPECT_TRUE(pool_.Get(a_).ok());
}

}  // namespace
}  // namespace veletas::model
