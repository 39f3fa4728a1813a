// The network on the CPU at the precision a setting asks for: picks and builds the
// InferenceNet (model/onednn/inference_net.h), calibrates int8 on the network's own self-play
// positions, checks that a reduced precision agrees with fp32, and evaluates batches for
// search. Torch-free.
#pragma once

#include <memory>
#include <span>
#include <string>

#include "model/base/features.h"
#include "model/onednn/inference_net.h"
#include "rules/position.h"
#include "search/evaluator.h"
#include "util/result.h"

namespace veletas::model {

// How far a reduced precision's outputs may stray from fp32's on the agreement positions
// (AgreementPositions) for `auto` to choose it: mean and largest absolute value difference,
// and mean total-variation distance of the policies.
struct Agreement {
  double mean_value_diff = 0.0;
  double max_value_diff = 0.0;
  double mean_policy_tv = 0.0;
  int positions = 0;
  static constexpr double kMeanValueTolerance = 0.03;
  static constexpr double kMaxValueTolerance = 0.25;
  static constexpr double kPolicyTvTolerance = 0.03;
  bool Holds() const {
    return mean_value_diff <= kMeanValueTolerance && max_value_diff <= kMaxValueTolerance &&
           mean_policy_tv <= kPolicyTvTolerance;
  }
  // "mean |dv| 0.004, max |dv| 0.03, policy TV 0.006 on 512 positions".
  std::string Describe() const;
};

class CpuNetwork {
 public:
  // `setting`: kAuto, kFp32, kBf16 or kInt8 (NetConfig::inference_precision; not kTorch,
  // which runs LibTorch instead). An explicit precision the CPU lacks falls back to fp32 and says
  // so in `note`; `auto` takes the fastest precision the CPU has whose outputs agree with fp32
  // (Agreement): int8, then bf16, then fp32 (measured order: docs/RESULTS.md).
  // `note` gets one line on what was chosen and why. Errors: oneDNN cannot build fp32.
  static util::Result<std::unique_ptr<CpuNetwork>> Create(const InferenceWeights& weights,
                                                          InferencePrecision setting,
                                                          std::string* note);
  // Exactly this precision, no fallback (benchmarks, tests). Errors: unsupported here.
  static util::Result<std::unique_ptr<CpuNetwork>> CreateExact(const InferenceWeights& weights,
                                                               Precision precision);
  ~CpuNetwork();

  // As search::Evaluator::Evaluate: positions of different sizes are evaluated in groups,
  // each on its own board. Not thread-safe.
  void Evaluate(std::span<const rules::Position> positions, std::span<search::EvalOutput> out);

  Precision precision() const { return net_->precision(); }
  InferenceNet& net() { return *net_; }

  // Compares this network's outputs with `reference`'s on `positions`.
  Agreement Compare(CpuNetwork& reference, std::span<const rules::Position> positions);

  explicit CpuNetwork(std::unique_ptr<InferenceNet> net);

 private:
  void EvaluateGroup(std::span<const rules::Position> positions, std::span<search::EvalOutput> out);
  std::unique_ptr<InferenceNet> net_;
  EncodedBatch batch_;
  std::vector<float> logits_, values_;
  std::vector<rules::Position> group_;
  std::vector<search::EvalOutput> group_out_;
};

// Positions from games the network plays against itself, each move drawn from its policy
// (no search): `count` positions of each of the sizes 7, 9 and 10, standard rules; fixed
// for a seed and a network. Used to calibrate int8.
std::vector<rules::Position> OwnGamePositions(CpuNetwork& network, int count, uint64_t seed);

// The fixed positions on which precisions are compared: seeded random games, sizes 7, 9, 10.
std::vector<rules::Position> AgreementPositions();

}  // namespace veletas::model
