// `veletas bench-nn`: network throughput. Evaluations per second through the evaluator's
// whole path (feature encoding, forward pass, softmax over legal actions) at batch sizes
// 1, 2, 4, ..., 256, and training samples per second (forward, losses, backward, SGD step)
// at a few batch sizes, on freshly initialised weights and positions from random games.
#include <fmt/format.h>
#include <cstdio>

#include <iostream>
#include <map>
#include <string>

#include "app/cli.h"
#include "app/command.h"
#include "app/config.h"
#include "model/model_files.h"
#include "model/nn_bench.h"
#include "rules/notation.h"

namespace veletas::app {
namespace {

struct BenchNnArgs {
  ConfigArgs config;
  std::optional<int> blocks, channels, threads;
  std::optional<std::string> device;
  double seconds = 1.0;
  int max_batch = 256;
  std::vector<std::string> precisions = {"torch", "fp32", "bf16", "int8"};
};

// Evaluations/s per precision and batch size, each batch size measured for every precision
// in turn (so ratios compare like with like), with the ratio to fp32 (the inference
// engine) and to "torch" (the LibTorch path), GFLOP/s and the fraction of the peak.
void PrintEvaluationTable(model::NnBench& b, const std::vector<std::string>& precisions,
                          int max_batch) {
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
    std::map<std::string, double> rate;
    for (size_t i = 0; i < precisions.size(); ++i) {
      if (actual[i] != precisions[i] || !b.SetPrecision(precisions[i])) continue;
      rate[actual[i]] = b.EvalRate(batch);
    }
    for (const auto& [name, r] : rate) {
      const double gflops = r * flops / 1e9;
      const double peak = model::PeakGflops(name == "torch" ? "fp32" : name, b.Threads());
      auto ratio = [&](const char* to) {
        return rate.count(to) ? fmt::format("{:.2f}", r / rate.at(to)) : std::string("-");
      };
      std::printf("%8d %10s %12.0f %10.3f %9s %9s %8.1f %7s\n", batch, name.c_str(), r,
                  1000.0 * batch / r, ratio("fp32").c_str(), ratio("torch").c_str(), gflops,
                  peak > 0 ? fmt::format("{:.0f}%", 100 * gflops / peak).c_str() : "-");
    }
    std::fflush(stdout);
  }
  for (size_t i = 0; i < precisions.size(); ++i) {
    if (actual[i] != precisions[i]) {
      std::printf("%s: not measured (runs as %s on this machine)\n", precisions[i].c_str(),
                  actual[i].c_str());
    }
  }
}

int RunBenchNn(const BenchNnArgs& args) {
  auto config = ConfigFromArgs(args.config);
  if (!config) {
    std::cerr << config.error() << "\n";
    return 2;
  }
  model::NnBenchOptions o;
  o.net = config.value().model;
  o.rules = config.value().game.rules;
  o.size = config.value().game.size;
  o.net.blocks = args.blocks.value_or(o.net.blocks);
  o.net.channels = args.channels.value_or(o.net.channels);
  o.net.threads = args.threads.value_or(o.net.threads);
  o.net.device = args.device.value_or(o.net.device);
  o.min_seconds = args.seconds;
  const int max_batch = args.max_batch;

  auto bench = model::NnBench::Create(o);
  if (!bench) {
    std::cerr << "veletas bench-nn: " << bench.error() << "\n";
    return 1;
  }
  model::NnBench& b = *bench.value();
  std::printf("network: %d blocks x %d channels (heads %d, value %d), %lld parameters\n",
              o.net.blocks, o.net.channels, o.net.head_channels, o.net.value_hidden,
              static_cast<long long>(model::ParameterCount(o.net)));
  std::printf("game: %s %dx%d; device: %s; intra-op threads: %d\n", rules::RuleSetName(o.rules),
              o.size, o.size, b.DeviceName().c_str(), b.Threads());
  PrintEvaluationTable(b, args.precisions, max_batch);
  std::printf(
      "\ntraining (encode + forward + losses + backward + SGD step)\n%8s %14s %12s "
      "%16s %12s\n",
      "batch", "samples/s", "ms/step", "bf16 autocast/s", "x fp32");
  for (int batch : {32, 128, 256}) {
    if (batch > max_batch) break;
    const double rate = b.TrainRate(batch);
    const double bf16 = b.TrainRate(batch, /*bf16_autocast=*/true);
    std::printf("%8d %14.0f %12.3f %16.0f %12.2f\n", batch, rate, 1000.0 * batch / rate, bf16,
                bf16 / rate);
    std::fflush(stdout);
  }
  return 0;
}

CommandRun SetupBenchNn(CLI::App& cmd) {
  auto o = std::make_shared<BenchNnArgs>();
  AddConfigOptions(cmd, o->config, /*config_required=*/false);
  cmd.add_option("--blocks", o->blocks, "residual blocks (default: the config's)")
      ->check(CLI::Range(1, 40));
  cmd.add_option("--channels", o->channels, "channels per block (default: the config's)")
      ->check(CLI::Range(8, 512));
  cmd.add_option("--threads", o->threads, "intra-op threads, 0 = all cores (default: the config's)")
      ->check(CLI::Range(0, 256));
  cmd.add_option("--device", o->device, "where the network runs (default: the config's)")
      ->check(CLI::IsMember({"cpu", "cuda", "auto"}));
  cmd.add_option("--seconds", o->seconds, "minimum time per measurement")
      ->check(CLI::Range(0.01, 600.0));
  cmd.add_option("--precisions", o->precisions,
                 "inference precisions measured (torch = the LibTorch path, the reference)")
      ->check(CLI::IsMember(model::kInferencePrecisions))
      ->delimiter(',');
  cmd.add_option("--max-batch", o->max_batch, "largest batch size measured")
      ->check(CLI::Range(1, 4096));
  return [o] { return RunBenchNn(*o); };
}

}  // namespace

VELETAS_CLI_COMMAND(bench_nn, "bench-nn",
                    "network speed: evaluations/s at batch 1..256 and training samples/s",
                    SetupBenchNn);

}  // namespace veletas::app
