// `veletas train`: one generation of learning from self-play samples (training/trainer.h).

#include <filesystem>
#include <iostream>
#include <string>

#include "app/cli.h"
#include "app/command.h"
#include "charts/charts.h"
#include "config/config.h"
#include "training/train_text.h"
#include "training/trainer.h"
#include "util/progress_line.h"

namespace veletas::app {
namespace {

// training_loss.png beside the output checkpoint, from the metrics file; a chart that cannot
// be drawn is a warning (the checkpoint and metrics are the product).
void DrawLosses(const training::TrainRequest& request) {
  const std::string metrics = training::MetricsPath(request);
  const std::string png =
      (std::filesystem::absolute(request.output_checkpoint).parent_path() / "training_loss.png")
          .string();
  if (auto drawn = charts::DrawLossChart(metrics, png); !drawn) {
    std::cerr << "veletas train: " << drawn.error() << "\n";
  }
}

struct TrainArgs {
  std::string config, model, out, metrics;
  std::vector<std::string> data;
  std::optional<long long> steps, generation;
  bool resume_optimizer = false;
};

int RunTrain(const TrainArgs& args) {
  auto config = config::LoadConfig(args.config);
  if (!config) {
    std::cerr << "veletas train: " << config.error() << "\n";
    return 2;
  }
  const config::Config& c = config.value();

  training::TrainRequest request =
      training::MakeTrainRequest(c.training, model::ModelSpec{c.game.rules, c.game.size, c.model},
                                 c.model.device, args.model, args.data, args.out);
  request.generation = args.generation.value_or(-1);
  request.steps = args.steps.value_or(-1);
  request.metrics_path = args.metrics;
  request.restore_input_optimizer = args.resume_optimizer;
  util::ProgressLine progress;
  request.progress = [&progress](const training::TrainProgress& p) {
    progress.Update(training::TrainProgressText(p), p.step >= p.steps);
  };
  request.log = [&progress](const std::string& note) {
    progress.Clear();
    std::cerr << "veletas train: " << note << "\n";
  };

  const training::TrainResult result = training::TrainGeneration(request);
  progress.Done();
  if (!result.ok()) return CommandError("train", result.ToStatus().error_value());
  std::cout << training::TrainStatsText(result.stats, args.out);
  if (result.stats.already_done) return 0;
  DrawLosses(request);
  return 0;
}

CommandRun SetupTrain(CLI::App& cmd) {
  auto o = std::make_shared<TrainArgs>();
  AddRequiredConfig(cmd, o->config, "config whose game, model and training apply");
  Required(cmd.add_option("--model", o->model, "checkpoint to start from"))->type_name("CKPT");
  Required(cmd.add_option("--data", o->data, "sample directory (repeat for several)"))
      ->type_name("DIR")
      ->allow_extra_args(false);
  Required(cmd.add_option("--out", o->out, "checkpoint to write"))->type_name("CKPT");
  cmd.add_option("--steps", o->steps, "optimiser steps (default: from the sample-reuse limit)")
      ->check(CLI::Range(0LL, 1LL << 40));
  cmd.add_option("--generation", o->generation,
                 "generation of the output (default: the input's + 1)")
      ->check(CLI::Range(0LL, 1LL << 40));
  cmd.add_option("--metrics", o->metrics, "metrics file (JSON lines; default: beside --out)")
      ->type_name("FILE");
  cmd.add_flag("--resume-optimizer", o->resume_optimizer,
               "also restore the optimiser state of --model (a checkpoint of this training, e.g. "
               "the previous call's --out); without it --model gives its weights only");
  return [o] { return RunTrain(*o); };
}

}  // namespace

VELETAS_CLI_COMMAND(train, "train",
                    "train the network on self-play samples (one generation; resumable)",
                    SetupTrain);

}  // namespace veletas::app
