// `veletas selfplay`: plays games with a network and writes sample files (resumable).
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>

#include "app/args.h"
#include "app/command.h"
#include "app/config.h"
#include "app/load_evaluator.h"
#include "rules/notation.h"
#include "selfplay/selfplay_engine.h"

namespace veletas::app {
namespace {

std::atomic<bool> g_interrupted{false};

extern "C" void OnInterrupt(int) { g_interrupted = true; }

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

  auto network = LoadConfigNetwork(*ckpt, c);
  if (!network) {
    std::cerr << "veletas selfplay: " << network.error() << "\n";
    return network.exit_code();
  }
  const auto& evaluator = network.value().evaluator;
  const int64_t generation = network.value().meta.generation;

  selfplay::SelfplayJob job;
  job.rules = c.game.rules;
  job.size = c.game.size;
  job.games = games.value();
  job.out_dir = *out;
  job.prefix = args.Value("prefix").value_or("samples");
  job.generation = static_cast<uint64_t>(generation);
  std::cerr << "selfplay: " << rules::GameName(c.game.rules, c.game.size) << ", generation "
            << generation << " (" << *ckpt << ", " << evaluator->DeviceName() << "), " << job.games
            << " games to " << *out << ", " << c.selfplay.threads << " threads x "
            << c.selfplay.games_in_flight << " games, batch " << c.evaluator.max_batch << "\n";

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

}  // namespace

VELETAS_COMMAND(selfplay, "selfplay",
                "--config FILE --model CKPT --games N --out DIR [--threads T] [--seed S] "
                "[--prefix P]",
                "play N self-play games with a network and write sample files to DIR "
                "(resumes: games already in complete files there are not played again)",
                RunSelfplayCommand);

}  // namespace veletas::app
