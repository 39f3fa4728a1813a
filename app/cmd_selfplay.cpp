// `veletas selfplay`: plays games with a network and writes sample files (resumable), and
// `veletas bench-selfplay`: the network's raw batched speed against the speed self-play
// achieves with it, in one run.
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>

#include "app/args.h"
#include "app/command.h"
#include "app/config.h"
#include "model/checkpoint_file.h"
#include "model/model_files.h"
#include "model/nn_bench.h"
#include "model/torch_evaluator.h"
#include "rules/notation.h"
#include "selfplay/selfplay_engine.h"

namespace veletas::app {
namespace {

std::atomic<bool> g_interrupted{false};

extern "C" void OnInterrupt(int) { g_interrupted = true; }

// Loads `ckpt` for the config's game and architecture. Bad input (missing, corrupt,
// mismatched checkpoint) returns exit code 2 in `code`, other failures 1.
std::unique_ptr<model::TorchEvaluator> LoadEvaluator(const std::string& command,
                                                     const std::string& ckpt, const Config& c,
                                                     int& code) {
  const model::ModelSpec spec{c.game.rules, c.game.size, c.model};
  const auto meta = model::ReadCheckpointMeta(ckpt);
  if (!meta) {
    std::cerr << "veletas " << command << ": " << meta.error() << "\n";
    code = 2;
    return nullptr;
  }
  if (const std::string mismatch = model::DescribeMismatch(meta.value(), spec); !mismatch.empty()) {
    std::cerr << "veletas " << command << ": " << ckpt << " does not fit " << c.source << ": "
              << mismatch << "\n";
    code = 2;
    return nullptr;
  }
  auto evaluator = model::TorchEvaluator::Load(ckpt, spec, c.model);
  if (!evaluator) {
    std::cerr << "veletas " << command << ": " << evaluator.error() << "\n";
    code = 1;
    return nullptr;
  }
  return std::move(evaluator.value());
}

std::string GameName(const Config& c) {
  return std::string(rules::RuleSetName(c.game.rules)) + " " + std::to_string(c.game.size) + "x" +
         std::to_string(c.game.size);
}

int RunSelfplayCommand(const std::vector<std::string>& argv) {
  auto parsed = ParseArgs({{"config", true},
                           {"model", true},
                           {"games", true},
                           {"out", true},
                           {"threads", true},
                           {"seed", true},
                           {"prefix", true}},
                          argv, 0);
  if (!parsed) return UsageError("selfplay", parsed.error());
  const ParsedArgs& args = parsed.value();
  const auto config_path = args.Value("config");
  const auto ckpt = args.Value("model");
  const auto out = args.Value("out");
  if (!config_path || !ckpt || !out || !args.Has("games")) {
    return UsageError("selfplay", "expected --config FILE --model CKPT --games N --out DIR");
  }
  auto loaded = LoadConfig(*config_path);
  if (!loaded) {
    std::cerr << loaded.error() << "\n";
    return 2;
  }
  Config c = loaded.value();
  const auto games = args.Int("games", 0, 1, 1'000'000'000);
  const auto threads = args.Int("threads", c.selfplay.threads, 1, 256);
  const auto seed = args.Int("seed", static_cast<long long>(c.selfplay.seed), 0, 1LL << 62);
  for (const auto* r : {&games, &threads, &seed}) {
    if (!*r) return UsageError("selfplay", r->error());
  }
  c.selfplay.threads = static_cast<int>(threads.value());
  c.selfplay.seed = static_cast<uint64_t>(seed.value());

  int code = 0;
  auto evaluator = LoadEvaluator("selfplay", *ckpt, c, code);
  if (!evaluator) return code;
  const int64_t generation = model::ReadCheckpointMeta(*ckpt).value().generation;

  selfplay::SelfplayJob job;
  job.rules = c.game.rules;
  job.size = c.game.size;
  job.games = games.value();
  job.out_dir = *out;
  job.prefix = args.Value("prefix").value_or("samples");
  job.generation = static_cast<uint64_t>(generation);
  std::cerr << "selfplay: " << GameName(c) << ", generation " << generation << " (" << *ckpt << ", "
            << evaluator->DeviceName() << "), " << job.games << " games to " << *out << ", "
            << c.selfplay.threads << " threads x " << c.selfplay.games_in_flight << " games, batch "
            << c.evaluator.max_batch << "\n";

  const bool tty = ::isatty(STDERR_FILENO) != 0;
  bool progress_shown = false;
  selfplay::SelfplayHooks hooks;
  hooks.progress_seconds = tty ? 1.0 : 10.0;
  hooks.progress = [&](const selfplay::SelfplayStats& s) {
    if (tty) {
      std::fprintf(stderr, "\r%s\033[K", selfplay::FormatProgress(s).c_str());
    } else {
      std::fprintf(stderr, "selfplay: %s\n", selfplay::FormatProgress(s).c_str());
    }
    std::fflush(stderr);
    progress_shown = true;
  };
  hooks.log = [](const std::string& m) { std::cerr << "selfplay: " << m << "\n"; };
  hooks.stop = &g_interrupted;
  g_interrupted = false;
  const auto previous_int = std::signal(SIGINT, OnInterrupt);
  const auto previous_term = std::signal(SIGTERM, OnInterrupt);
  const auto result =
      selfplay::RunSelfplay(c.selfplay, c.search, c.evaluator, *evaluator, job, hooks);
  std::signal(SIGINT, previous_int);
  std::signal(SIGTERM, previous_term);
  if (tty && progress_shown) std::fputc('\n', stderr);
  if (!result) {
    std::cerr << "veletas selfplay: " << result.error() << "\n";
    return 1;
  }
  std::cout << selfplay::FormatSummary(result.value());
  if (g_interrupted) {
    std::cerr << "veletas selfplay: interrupted; the complete files are kept, run the same "
                 "command again to play the rest\n";
    return 1;
  }
  return 0;
}

int RunBenchSelfplay(const std::vector<std::string>& argv) {
  auto parsed = ParseArgs({{"config", true},
                           {"model", true},
                           {"seconds", true},
                           {"threads", true},
                           {"games-in-flight", true},
                           {"leaves", true},
                           {"max-batch", true},
                           {"max-wait-us", true},
                           {"nn-threads", true}},
                          argv, 0);
  if (!parsed) return UsageError("bench-selfplay", parsed.error());
  const ParsedArgs& args = parsed.value();
  const auto config_path = args.Value("config");
  if (!config_path) return UsageError("bench-selfplay", "expected --config FILE");
  auto loaded = LoadConfig(*config_path);
  if (!loaded) {
    std::cerr << loaded.error() << "\n";
    return 2;
  }
  Config c = loaded.value();
  const auto seconds = args.Real("seconds", 60.0, 1.0, 86400.0);
  if (!seconds) return UsageError("bench-selfplay", seconds.error());
  const auto threads = args.Int("threads", c.selfplay.threads, 1, 256);
  const auto in_flight = args.Int("games-in-flight", c.selfplay.games_in_flight, 1, 65536);
  const auto leaves = args.Int("leaves", c.selfplay.leaves_per_search, 1, 1024);
  const auto max_batch = args.Int("max-batch", c.evaluator.max_batch, 2, 65536);
  const auto max_wait = args.Int("max-wait-us", c.evaluator.max_wait_us, 0, 10'000'000);
  const auto nn_threads = args.Int("nn-threads", c.model.threads, 0, 256);
  for (const auto* r : {&threads, &in_flight, &leaves, &max_batch, &max_wait, &nn_threads}) {
    if (!*r) return UsageError("bench-selfplay", r->error());
  }
  c.selfplay.threads = static_cast<int>(threads.value());
  c.selfplay.games_in_flight = static_cast<int>(in_flight.value());
  c.selfplay.leaves_per_search = static_cast<int>(leaves.value());
  c.evaluator.max_batch = static_cast<int>(max_batch.value());
  c.evaluator.max_wait_us = static_cast<int>(max_wait.value());
  c.model.threads = static_cast<int>(nn_threads.value());
  const int batch = c.evaluator.max_batch;

  // 1. The network alone at the self-play batch size (the bench-nn measurement).
  double raw_rate = 0;
  std::string device;
  int torch_threads = 0;
  {
    model::NnBenchOptions o;
    o.net = c.model;
    o.rules = c.game.rules;
    o.size = c.game.size;
    o.min_seconds = std::min(5.0, std::max(1.0, seconds.value() / 10));
    auto bench = model::NnBench::Create(o);
    if (!bench) {
      std::cerr << "veletas bench-selfplay: " << bench.error() << "\n";
      return 1;
    }
    raw_rate = bench.value()->EvalRate(batch);
    device = bench.value()->DeviceName();
    torch_threads = bench.value()->Threads();
  }

  // 2. Self-play with the same network settings (the model, or a fresh network).
  int code = 0;
  std::unique_ptr<model::TorchEvaluator> evaluator;
  if (const auto ckpt = args.Value("model")) {
    evaluator = LoadEvaluator("bench-selfplay", *ckpt, c, code);
  } else {
    const std::string tmp = (std::filesystem::temp_directory_path() /
                             ("veletas_bench_selfplay_" + std::to_string(::getpid()) + ".ckpt"))
                                .string();
    const model::ModelSpec spec{c.game.rules, c.game.size, c.model};
    if (auto s = model::CreateInitialCheckpoint(tmp, spec, 1); !s) {
      std::cerr << "veletas bench-selfplay: " << s.error() << "\n";
      return 1;
    }
    evaluator = LoadEvaluator("bench-selfplay", tmp, c, code);
    std::filesystem::remove(tmp);
  }
  if (!evaluator) return code;

  selfplay::SelfplayJob job;
  job.rules = c.game.rules;
  job.size = c.game.size;
  job.games = 1'000'000'000;  // until stopped
  std::atomic<bool> stop{false};
  const double warmup = std::min(10.0, seconds.value() / 5);
  selfplay::SelfplayStats warm;
  bool have_warm = false;
  selfplay::SelfplayHooks hooks;
  hooks.progress_seconds = 0.25;
  hooks.stop = &stop;
  hooks.progress = [&](const selfplay::SelfplayStats& s) {
    if (!have_warm && s.seconds >= warmup) {
      warm = s;
      have_warm = true;
    }
    if (s.seconds >= seconds.value()) stop = true;
  };
  const auto result =
      selfplay::RunSelfplay(c.selfplay, c.search, c.evaluator, *evaluator, job, hooks);
  if (!result) {
    std::cerr << "veletas bench-selfplay: " << result.error() << "\n";
    return 1;
  }
  const selfplay::SelfplayStats& end = result.value();
  // Rates over the measured window (after the warm-up).
  const double span = end.seconds - warm.seconds;
  const double net_rate = span > 0 ? (end.network_positions - warm.network_positions) / span : 0;
  const double asked_rate = span > 0 ? (end.evaluations - warm.evaluations) / span : 0;
  const double searches_rate = span > 0 ? (end.searches - warm.searches) / span : 0;
  const uint64_t batches = end.batches - warm.batches;
  const double fill = batches > 0
                          ? static_cast<double>(end.network_positions - warm.network_positions) /
                                static_cast<double>(batches) / batch
                          : 0;
  const uint64_t asked = end.evaluations - warm.evaluations;
  const double hits = asked > 0 ? static_cast<double>(end.cache_hits - warm.cache_hits) / asked : 0;

  std::printf("bench-selfplay: %s, network %d blocks x %d channels on %s (%d intra-op threads)\n",
              GameName(c).c_str(), c.model.blocks, c.model.channels, device.c_str(), torch_threads);
  std::printf(
      "self-play: %d threads x %d games, %d leaves per search, %s %d/%d simulations "
      "(full p=%.2f), batch %d, max wait %d us, cache %d\n",
      c.selfplay.threads, c.selfplay.games_in_flight, c.selfplay.leaves_per_search,
      c.search.algorithm == search::Algorithm::kGumbel ? "gumbel" : "puct",
      c.selfplay.full_simulations, c.selfplay.cheap_simulations, c.selfplay.full_search_probability,
      batch, c.evaluator.max_wait_us, c.evaluator.cache_size);
  std::printf("measured over %.1f s after a %.1f s warm-up\n\n", span, warm.seconds);
  std::printf("network alone, batch %d        %10.0f evaluations/s\n", batch, raw_rate);
  std::printf("network during self-play       %10.0f evaluations/s\n", net_rate);
  std::printf("ratio                          %10.3f  (goal >= 0.85)\n",
              raw_rate > 0 ? net_rate / raw_rate : 0.0);
  std::printf("mean batch fill                %10.1f%%\n", 100.0 * fill);
  std::printf("evaluations asked by searches  %10.0f /s (cache hits %.1f%%)\n", asked_rate,
              100.0 * hits);
  std::printf("searches (decisions)           %10.1f /s\n", searches_rate);
  const int64_t searched = end.full_decisions + end.cheap_decisions;
  if (end.games_finished > 0 && searched > 0) {
    const double per_game = static_cast<double>(searched) / end.games_finished;
    std::printf(
        "games per hour                 %10.0f  (searches/s / %.1f searches per game; "
        "%lld games finished)\n",
        3600.0 * searches_rate / per_game, per_game, static_cast<long long>(end.games_finished));
  } else {
    std::printf(
        "games per hour                        n/a  (no game finished yet: run longer "
        "or with fewer games in flight)\n");
  }
  return 0;
}

}  // namespace

VELETAS_COMMAND(selfplay, "selfplay",
                "--config FILE --model CKPT --games N --out DIR [--threads T] [--seed S] "
                "[--prefix P]",
                "play N self-play games with a network and write sample files to DIR "
                "(resumes: games already in complete files there are not played again)",
                RunSelfplayCommand);
VELETAS_COMMAND(bench_selfplay, "bench-selfplay",
                "--config FILE [--model CKPT] [--seconds S] [--threads T] [--games-in-flight G] "
                "[--leaves L] [--max-batch B] [--max-wait-us W] [--nn-threads N]",
                "self-play speed: network evaluations/s during self-play against the network "
                "alone at the same batch size, batch fill, games per hour",
                RunBenchSelfplay);

}  // namespace veletas::app
