// The signature of `veletas bench` (rules/bench.h), pinned as Stockfish pins its bench: the
// number below changes only in a commit that changes the rules core's behaviour on purpose
// and says why. The perft counts and the final positions of seeded random games on every
// size and rule set all enter it.
#include <gtest/gtest.h>

#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "rules/bench.h"

namespace veletas::rules {
namespace {

// `veletas bench` of commit 786033f (2026-12-03) prints "bench signature: 1464173944925299228".
constexpr uint64_t kBenchSignature = 1464173944925299228ULL;

TEST(Bench, TheSignatureIsPinned) {
  const auto signature = BenchSignature();
  ASSERT_TRUE(signature.ok()) << signature.error();
  EXPECT_EQ(signature.value(), kBenchSignature)
      << "the rules core plays differently: if that is intended, pin the new number in a "
         "commit that says why";
}

TEST(Bench, TheGamesEnterTheSignatureInOrder) {
  // One game fewer gives another number: the random games are in it, not only perft.
  const auto fewer = BenchSignature(1);
  ASSERT_TRUE(fewer.ok()) << fewer.error();
  EXPECT_NE(fewer.value(), kBenchSignature);
  EXPECT_NE(MixSignature(0, 1), MixSignature(1, 0));
}

// What `veletas bench` prints: a row per perft workload and per rule set and size, then the
// signature that the call returns.
TEST(Bench, TheReportHasARowPerWorkloadAndTheSignature) {
  std::ostringstream report;
  const auto signature = BenchSignature(1, &report);
  ASSERT_TRUE(signature.ok()) << signature.error();
  std::vector<std::string> lines;
  std::istringstream in(report.str());
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  ASSERT_EQ(lines.size(), 1 + BenchPerfts().size() + 2 + 6 + 2) << report.str();
  EXPECT_EQ(lines[1].rfind("standard 7x7 depth 3 ", 0), 0u) << report.str();
  EXPECT_EQ(lines[1 + BenchPerfts().size() + 2].rfind("standard 7x7 ", 0), 0u) << report.str();
  EXPECT_EQ(lines.back(), "bench signature: " + std::to_string(signature.value()));
}

}  // namespace
}  // namespace veletas::rules
