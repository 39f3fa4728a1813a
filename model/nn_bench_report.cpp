#include "model/nn_bench_report.h"

#include <cstdio>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "model/onednn/inference_net.h"
#include "model/torch/model_files.h"
#include "rules/notation.h"

namespace veletas::model {
namespace {

// `x` with two decimals ("1.25").
std::string Fixed2(double x) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.2f", x);
  return buf;
}

// Whether an evaluator set to precision `setting` runs at it (`actual`, NnBench::SetPrecision).
bool RunsAsSet(const std::string& actual, const std::string& setting) {
  const std::optional<InferencePrecision> a = ParseInferencePrecision(actual);
  return a && a == ParseInferencePrecision(setting);
}

// The measured rates in the table's row order: bf16, fp32, int8, torch.
std::vector<std::pair<InferencePrecision, double>> InRowOrder(
    const std::map<InferencePrecision, double>& rate) {
  std::vector<std::pair<InferencePrecision, double>> rows;
  for (InferencePrecision p : {InferencePrecision::kBf16, InferencePrecision::kFp32,
                               InferencePrecision::kInt8, InferencePrecision::kTorch}) {
    if (rate.count(p)) rows.emplace_back(p, rate.at(p));
  }
  return rows;
}

void PrintEvaluationTable(NnBench& b, const std::vector<std::string>& precisions, int max_batch) {
  std::vector<std::string> actual;
  for (const std::string& p : precisions) {
    auto set = b.SetPrecision(p);
    actual.push_back(set ? set.value() : "unavailable");
  }
  const double flops = b.FlopsPerEvaluation();
  std::printf(
      "\nevaluation (encode + forward + legal softmax), %.2f MFLOP per evaluation;\n"
      "peak = threads x max cpu MHz x ops/cycle (fp32 64, bf16 128, int8 256 with "
      "AVX-512), from the instruction set, not measured\n",
      flops / 1e6);
  std::printf("%8s %10s %12s %10s %9s %9s %8s %7s\n", "batch", "precision", "positions/s",
              "ms/call", "x fp32", "x torch", "GFLOP/s", "%peak");
  for (int batch = 1; batch <= max_batch; batch *= 2) {
    std::map<InferencePrecision, double> rate;
    for (size_t i = 0; i < precisions.size(); ++i) {
      if (!RunsAsSet(actual[i], precisions[i]) || !b.SetPrecision(precisions[i])) continue;
      rate[*ParseInferencePrecision(actual[i])] = b.EvalRate(batch);
    }
    for (const auto& [precision, r] : InRowOrder(rate)) {
      const double gflops = r * flops / 1e9;
      const double peak = PeakGflops(precision, b.Threads());  // torch: fp32's
      auto ratio = [&](InferencePrecision to) {
        return rate.count(to) ? Fixed2(r / rate.at(to)) : std::string("-");
      };
      char share[32] = "-";
      if (peak > 0) std::snprintf(share, sizeof share, "%.0f%%", 100 * gflops / peak);
      std::printf("%8d %10s %12.0f %10.3f %9s %9s %8.1f %7s\n", batch,
                  InferencePrecisionName(precision), r, 1000.0 * batch / r,
                  ratio(InferencePrecision::kFp32).c_str(),
                  ratio(InferencePrecision::kTorch).c_str(), gflops, share);
    }
    std::fflush(stdout);
  }
  for (size_t i = 0; i < precisions.size(); ++i) {
    if (!RunsAsSet(actual[i], precisions[i])) {
      std::printf("%s: not measured (runs as %s on this machine)\n", precisions[i].c_str(),
                  actual[i].c_str());
    }
  }
}

void PrintTrainingTable(NnBench& b, int max_batch) {
  std::printf(
      "\ntraining, raw step (encode + forward + losses + backward + SGD step); the training "
      "loop: veletas bench train\n%8s %-22s %12s %10s %9s\n",
      "batch", "path", "samples/s", "ms/step", "x torch");
  // The paths of `veletas bench train`: LibTorch fp32 (the reference), LibTorch under bf16
  // autocast, the oneDNN path (training.engine onednn) in fp32 and bf16. On a CPU without
  // bf16 instructions oneDNN would emulate bf16: not measured.
  struct Path {
    const char* name;
    TrainPath path;
  };
  std::vector<Path> paths = {{"torch fp32", {false, false}}};
  const bool cuda = b.DeviceName().rfind("cuda", 0) == 0;
  if (!cuda) {
    const util::Status bf16 = CpuSupports(Precision::kBf16);
    if (bf16.ok()) {
      paths.push_back({"torch bf16 autocast", {false, true}});
    } else {
      std::printf("bf16 not measured: %s\n", bf16.error().c_str());
    }
    paths.push_back({"onednn fp32", {true, false}});
    if (bf16.ok()) paths.push_back({"onednn bf16", {true, true}});
  }
  for (int batch : {32, 128, 256}) {
    if (batch > max_batch) break;
    double torch_rate = 0.0;
    for (const Path& p : paths) {
      const util::Result<double> rate = b.TrainRate(batch, p.path);
      if (!rate) {
        std::printf("%8d %-22s not measured: %s\n", batch, p.name, rate.error().c_str());
        continue;
      }
      if (torch_rate == 0.0) torch_rate = rate.value();
      std::printf("%8d %-22s %12.0f %10.3f %9.2f\n", batch, p.name, rate.value(),
                  1000.0 * batch / rate.value(), rate.value() / torch_rate);
      std::fflush(stdout);
    }
  }
}

}  // namespace

void PrintNnBench(NnBench& b, const NnBenchOptions& o, const std::vector<std::string>& precisions,
                  int max_batch) {
  std::printf("network: %d blocks x %d channels (heads %d, value %d), %lld parameters\n",
              o.net.blocks, o.net.channels, o.net.head_channels, o.net.value_hidden,
              static_cast<long long>(ParameterCount(o.net)));
  std::printf("game: %s %dx%d; device: %s; intra-op threads: %d\n", rules::RuleSetName(o.rules),
              o.size, o.size, b.DeviceName().c_str(), b.Threads());
  PrintEvaluationTable(b, precisions, max_batch);
  PrintTrainingTable(b, max_batch);
}

}  // namespace veletas::model
