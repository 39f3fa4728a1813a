// `veletas train`: one generation of learning from self-play samples (training/trainer.h).
#include <fmt/format.h>

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <string>

#include "app/cli.h"
#include "app/command.h"
#include "app/config.h"
#include "charts/charts.h"
#include "training/trainer.h"
#include "util/progress_line.h"
#include "util/text.h"

namespace veletas::app {
namespace {

// The text of the progress line: step, losses, learning rate, speed and the time left.
std::string ProgressText(const training::TrainProgress& p) {
  return fmt::format(
      "gen {} step {}/{} (global {}) loss {:.4f} (policy {:.4f} value {:.4f} aux {:.4f}) lr "
      "{:.3g} {:.0f} samples/s ETA {}",
      p.generation, p.step, p.steps, p.global_step, p.loss_total, p.loss_policy, p.loss_value,
      p.loss_aux, p.learning_rate, p.samples_per_second, util::FormatDuration(p.eta_seconds));
}

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
};

// Prints what a finished generation did.
void PrintTrainStats(const training::TrainStats& s, const std::string& out) {
  if (s.already_done) {
    std::printf("%s: generation %lld already trained from this input (%lld steps)\n", out.c_str(),
                static_cast<long long>(s.generation), static_cast<long long>(s.steps));
    return;
  }
  std::printf(
      "%s: generation %lld, %lld steps (global %lld)%s; loss %.4f (policy %.4f value %.4f aux "
      "%.4f l2 %.4f); %lld new files, %lld new samples, window %lld of %lld samples; %.0f "
      "samples/s; %.1f s\n",
      out.c_str(), static_cast<long long>(s.generation), static_cast<long long>(s.steps),
      static_cast<long long>(s.global_steps),
      s.resumed ? (" resumed at step " + std::to_string(s.resumed_from_step)).c_str() : "",
      s.loss_total, s.loss_policy, s.loss_value, s.loss_aux, s.loss_l2,
      static_cast<long long>(s.new_files), static_cast<long long>(s.new_samples),
      static_cast<long long>(s.window_samples), static_cast<long long>(s.total_samples),
      s.loop_samples_per_second, s.seconds);
  if (!s.skipped.empty()) {
    std::printf("%zu sample file(s) skipped (see above)\n", s.skipped.size());
  }
}

int RunTrain(const TrainArgs& args) {
  auto config = LoadConfig(args.config);
  if (!config) {
    std::cerr << "veletas train: " << config.error() << "\n";
    return 2;
  }
  const Config& c = config.value();

  training::TrainRequest request;
  request.config = c.training;
  request.spec = model::ModelSpec{c.game.rules, c.game.size, c.model};
  request.device = c.model.device;
  request.input_checkpoint = args.model;
  request.data = args.data;
  request.output_checkpoint = args.out;
  request.generation = args.generation.value_or(-1);
  request.steps = args.steps.value_or(-1);
  request.metrics_path = args.metrics;
  util::ProgressLine progress;
  request.progress = [&progress](const training::TrainProgress& p) {
    progress.Update(ProgressText(p), p.step >= p.steps);
  };
  request.log = [&progress](const std::string& note) {
    progress.Clear();
    std::cerr << "veletas train: " << note << "\n";
  };

  const training::TrainResult result = training::TrainGeneration(request);
  progress.Done();
  if (!result.ok()) {
    std::cerr << "veletas train: " << result.error << "\n";
    return result.status == training::TrainStatus::kBadInput ? 2 : 1;
  }
  PrintTrainStats(result.stats, args.out);
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
  return [o] { return RunTrain(*o); };
}

}  // namespace

VELETAS_CLI_COMMAND(train, "train",
                    "train the network on self-play samples (one generation; resumable)",
                    SetupTrain);

}  // namespace veletas::app
