// `veletas selfplay`: plays games with a network and writes sample files (resumable).
#include <iostream>
#include <memory>
#include <optional>
#include <string>

#include "app/cli.h"
#include "app/command.h"
#include "app/config_network.h"
#include "config/config.h"
#include "rules/notation.h"
#include "selfplay/selfplay_engine.h"
#include "util/progress_line.h"
#include "util/stop_signals.h"

namespace veletas::app {
namespace {

struct SelfplayArgs {
  std::string config, model, out;
  std::string prefix = "samples";
  long long games = 0;
  std::optional<int> threads;
  std::optional<long long> seed;
};

int RunSelfplayCommand(const SelfplayArgs& args) {
  auto loaded = config::LoadConfig(args.config);
  if (!loaded) {
    std::cerr << loaded.error() << "\n";
    return 2;
  }
  config::Config c = loaded.value();
  c.selfplay.threads = args.threads.value_or(c.selfplay.threads);
  if (args.seed) c.selfplay.seed = static_cast<uint64_t>(*args.seed);
  const std::string& ckpt = args.model;
  const std::string& out = args.out;

  auto network = LoadConfigNetwork(ckpt, c);
  if (!network) {
    std::cerr << "veletas selfplay: " << network.error() << "\n";
    return network.exit_code();
  }
  const auto& evaluator = network.value().evaluator;
  const int64_t generation = network.value().meta.generation;

  selfplay::SelfplayJob job;
  job.rules = c.game.rules;
  job.size = c.game.size;
  job.games = args.games;
  job.out_dir = out;
  job.prefix = args.prefix;
  job.generation = static_cast<uint64_t>(generation);
  std::cerr << "selfplay: " << rules::GameName(c.game.rules, c.game.size) << ", generation "
            << generation << " (" << ckpt << ", " << evaluator->DeviceName() << "), " << job.games
            << " games to " << out << ", " << c.selfplay.threads << " threads x "
            << c.selfplay.games_in_flight << " games, batch " << c.evaluator.max_batch << "\n";

  util::ProgressLine progress("selfplay");
  selfplay::SelfplayHooks hooks;
  hooks.progress_seconds = progress.IntervalSeconds();
  hooks.progress = [&](const selfplay::SelfplayStats& s) {
    progress.Update(selfplay::FormatProgress(s), s.games_finished >= s.games_target);
  };
  hooks.log = [](const std::string& m) { std::cerr << "selfplay: " << m << "\n"; };
  std::optional<util::StopSignals> interrupt(std::in_place);
  hooks.stop = interrupt->Flag();
  const auto result =
      selfplay::RunSelfplay(c.selfplay, c.search, c.evaluator, *evaluator, job, hooks);
  const bool interrupted = interrupt->Stopped();
  interrupt.reset();  // the usual handlers again
  progress.Done();
  if (!result) {
    std::cerr << "veletas selfplay: " << result.error() << "\n";
    return result.exit_code();
  }
  std::cout << selfplay::FormatSummary(result.value());
  if (interrupted) {
    std::cerr << "veletas selfplay: interrupted; the complete files are kept, run the same "
                 "command again to play the rest\n";
    return 1;
  }
  return 0;
}

CommandRun SetupSelfplay(CLI::App& cmd) {
  auto o = std::make_shared<SelfplayArgs>();
  AddRequiredConfig(cmd, o->config, "config whose game, search and selfplay apply");
  Required(cmd.add_option("--model", o->model, "network checkpoint"))->type_name("CKPT");
  Required(cmd.add_option("--games", o->games, "games in DIR when done"))
      ->check(CLI::Range(1LL, 1'000'000'000LL));
  Required(cmd.add_option("--out", o->out, "directory of the sample files"))->type_name("DIR");
  cmd.add_option("--threads", o->threads, "self-play threads (default: the config's)")
      ->check(CLI::Range(1, 256));
  cmd.add_option("--seed", o->seed, "seed of the games (default: the config's)")
      ->check(CLI::Range(0LL, 1LL << 62));
  cmd.add_option("--prefix", o->prefix, "file name prefix: PREFIX_<n>.vzs");
  return [o] { return RunSelfplayCommand(*o); };
}

}  // namespace

VELETAS_CLI_COMMAND(selfplay, "selfplay",
                    "play N self-play games with a network and write sample files to DIR "
                    "(resumes: games already in complete files there are not played again)",
                    SetupSelfplay);

}  // namespace veletas::app
