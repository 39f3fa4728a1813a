#include "model/onednn/cpu_network.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "util/random.h"

namespace veletas::model {

namespace {

constexpr int kSizes[] = {7, 9, 10};
constexpr int kCalibrationPerSize = 128;
constexpr uint64_t kCalibrationSeed = 0x5eed'ca1b;

std::unique_ptr<CpuNetwork> Wrap(std::unique_ptr<InferenceNet> net) {
  return std::make_unique<CpuNetwork>(std::move(net));
}

// int8 built from `fp32`'s activation ranges on the network's own game positions.
util::Result<std::unique_ptr<CpuNetwork>> MakeInt8(const InferenceWeights& weights,
                                                   CpuNetwork& fp32) {
  Calibration ranges;
  EncodedBatch batch;
  const std::vector<rules::Position> positions =
      OwnGamePositions(fp32, kCalibrationPerSize, kCalibrationSeed);
  for (size_t start = 0; start < positions.size(); start += kCalibrationPerSize) {
    EncodeBatch(std::span(positions).subspan(start, kCalibrationPerSize), 0, batch);
    const Calibration c = fp32.net().MeasureRanges(batch.planes.data(), batch.batch, batch.canvas);
    ranges.max_activation.resize(c.max_activation.size(), 0.0f);
    for (size_t i = 0; i < c.max_activation.size(); ++i) {
      ranges.max_activation[i] = std::max(ranges.max_activation[i], c.max_activation[i]);
    }
  }
  auto net = InferenceNet::Create(weights, Precision::kInt8, ranges);
  if (!net) return net.error_value();
  return Wrap(std::move(net.value()));
}

}  // namespace

std::string Agreement::Describe() const {
  char text[160];
  std::snprintf(text, sizeof text, "mean |dv| %.4f, max |dv| %.4f, policy TV %.4f on %d positions",
                mean_value_diff, max_value_diff, mean_policy_tv, positions);
  return text;
}

CpuNetwork::CpuNetwork(std::unique_ptr<InferenceNet> net) : net_(std::move(net)) {}
CpuNetwork::~CpuNetwork() = default;

util::Result<std::unique_ptr<CpuNetwork>> CpuNetwork::CreateExact(const InferenceWeights& weights,
                                                                  Precision precision) {
  if (precision == Precision::kInt8) {
    auto fp32 = CreateExact(weights, Precision::kFp32);
    if (!fp32) return fp32;
    return MakeInt8(weights, *fp32.value());
  }
  auto net = InferenceNet::Create(weights, precision);
  if (!net) return net.error_value();
  return Wrap(std::move(net.value()));
}

util::Result<std::unique_ptr<CpuNetwork>> CpuNetwork::Create(const InferenceWeights& weights,
                                                             InferencePrecision setting,
                                                             std::string* note) {
  auto fp32 = CreateExact(weights, Precision::kFp32);
  if (!fp32) return fp32;
  const std::string line = "network: fp32 inference (" + fp32.value()->net().Implementation() + ")";
  const bool automatic = setting == InferencePrecision::kAuto;
  std::vector<Precision> candidates;  // fastest first (model/onednn/inference_net.h)
  if (setting == InferencePrecision::kInt8 || automatic) candidates.push_back(Precision::kInt8);
  if (setting == InferencePrecision::kBf16 || automatic) candidates.push_back(Precision::kBf16);
  std::string why = automatic ? "auto" : "as configured";
  std::vector<rules::Position> agreement_positions;  // made once, when first needed
  for (Precision p : candidates) {
    const util::Status supported = CpuSupports(p);
    // int8 calibrates on the fp32 network already built rather than building another.
    auto reduced = !supported.ok()         ? supported.error_value()
                   : p == Precision::kInt8 ? MakeInt8(weights, *fp32.value())
                                           : CreateExact(weights, p);
    if (!reduced) {
      why += std::string(automatic ? "; " : ": ") + PrecisionName(p) + " unavailable (" +
             reduced.error() + ")";
      continue;
    }
    const std::string impl = reduced.value()->net().Implementation();
    if (!automatic) {
      if (note)
        *note = std::string("network: ") + PrecisionName(p) + " inference (" + impl +
                "), as configured";
      return reduced;
    }
    if (agreement_positions.empty()) agreement_positions = AgreementPositions();
    const Agreement a = reduced.value()->Compare(*fp32.value(), agreement_positions);
    if (a.Holds()) {
      if (note)
        *note = std::string("network: ") + PrecisionName(p) + " inference (auto: " + impl +
                ", the fastest here that agrees with fp32: " + a.Describe() + ")";
      return reduced;
    }
    why += std::string("; ") + PrecisionName(p) + " strays from fp32 (" + a.Describe() + ")";
  }
  if (note) *note = line + ", " + why;
  return fp32;
}

void CpuNetwork::EvaluateGroup(std::span<const rules::Position> positions,
                               std::span<search::EvalOutput> out) {
  EncodeBatch(positions, 0, batch_);
  const int m = batch_.canvas;
  logits_.resize(static_cast<size_t>(batch_.batch) * CanvasActions(m));
  values_.resize(batch_.batch);
  net_->Forward(batch_.planes.data(), batch_.batch, m, logits_.data(), values_.data());
  for (int i = 0; i < batch_.batch; ++i) {
    DecodeOutput(batch_, i, m, logits_.data() + static_cast<size_t>(i) * CanvasActions(m),
                 values_[i], out[i]);
  }
}

void CpuNetwork::Evaluate(std::span<const rules::Position> positions,
                          std::span<search::EvalOutput> out) {
  if (positions.empty()) return;
  const int first = positions[0].Size();
  const bool mixed = std::any_of(positions.begin(), positions.end(),
                                 [&](const rules::Position& p) { return p.Size() != first; });
  if (!mixed) return EvaluateGroup(positions, out);
  for (int size = 1; size <= rules::kMaxSize; ++size) {
    group_.clear();
    for (const rules::Position& p : positions) {
      if (p.Size() == size) group_.push_back(p);
    }
    if (group_.empty()) continue;
    group_out_.resize(group_.size());
    EvaluateGroup(group_, group_out_);
    size_t k = 0;
    for (size_t i = 0; i < positions.size(); ++i) {
      if (positions[i].Size() == size) out[i] = group_out_[k++];
    }
  }
}

Agreement CpuNetwork::Compare(CpuNetwork& reference, std::span<const rules::Position> positions) {
  std::vector<search::EvalOutput> mine(positions.size()), theirs(positions.size());
  constexpr size_t kChunk = 64;
  for (size_t s = 0; s < positions.size(); s += kChunk) {
    const size_t n = std::min(kChunk, positions.size() - s);
    Evaluate(positions.subspan(s, n), std::span(mine).subspan(s, n));
    reference.Evaluate(positions.subspan(s, n), std::span(theirs).subspan(s, n));
  }
  Agreement a;
  a.positions = static_cast<int>(positions.size());
  for (size_t i = 0; i < positions.size(); ++i) {
    const double dv = std::fabs(mine[i].value - theirs[i].value);
    a.mean_value_diff += dv;
    a.max_value_diff = std::max(a.max_value_diff, dv);
    double tv = 0.0;
    for (size_t k = 0; k < mine[i].policy.size(); ++k) {
      tv += std::fabs(mine[i].policy[k] - theirs[i].policy[k]);
    }
    a.mean_policy_tv += tv / 2;
  }
  if (a.positions > 0) {
    a.mean_value_diff /= a.positions;
    a.mean_policy_tv /= a.positions;
  }
  return a;
}

std::vector<rules::Position> OwnGamePositions(CpuNetwork& network, int count, uint64_t seed) {
  constexpr int kGames = 16;
  std::vector<rules::Position> result;
  util::Rng rng(seed);
  for (int size : kSizes) {
    std::vector<rules::Position> games(kGames,
                                       rules::Position::Initial(rules::RuleSet::kStandard, size));
    std::vector<search::EvalOutput> out(kGames);
    int taken = 0;
    while (taken < count) {
      network.Evaluate(games, out);
      for (int g = 0; g < kGames && taken < count; ++g, ++taken) {
        result.push_back(games[g]);
        double u = rng.Uniform(), sum = 0.0;
        rules::Action chosen = 0;
        for (int a = 0; a <= size * size; ++a) {
          if (out[g].policy[a] <= 0.0f) continue;
          chosen = a;
          sum += out[g].policy[a];
          if (u < sum) break;
        }
        games[g].Apply(chosen);
        if (games[g].IsTerminal()) {
          games[g] = rules::Position::Initial(rules::RuleSet::kStandard, size);
        }
      }
    }
  }
  return result;
}

std::vector<rules::Position> AgreementPositions() {
  std::vector<rules::Position> result;
  for (int size : kSizes) {
    const auto part = SamplePositions(rules::RuleSet::kStandard, size, 128, 20261203 + size);
    result.insert(result.end(), part.begin(), part.end());
  }
  return result;
}

}  // namespace veletas::model
