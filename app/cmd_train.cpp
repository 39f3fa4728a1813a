// `veletas train`: one generation of learning from self-play samples (training/trainer.h).
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <string>

#include "app/args.h"
#include "app/command.h"
#include "app/config.h"
#include "charts/charts.h"
#include "training/trainer.h"

namespace veletas::app {
namespace {

std::string Clock(double seconds) {
  const long long s = static_cast<long long>(seconds + 0.5);
  char text[32];
  if (s >= 3600) {
    std::snprintf(text, sizeof text, "%lld:%02lld:%02lld", s / 3600, s / 60 % 60, s % 60);
  } else {
    std::snprintf(text, sizeof text, "%lld:%02lld", s / 60, s % 60);
  }
  return text;
}

// One line of progress: on a terminal it rewrites itself; otherwise a log line per
// metrics window.
void PrintProgress(const training::TrainProgress& p, bool terminal) {
  if (!terminal && !p.metrics_line) return;
  char line[256];
  std::snprintf(line, sizeof line,
                "gen %lld step %lld/%lld (global %lld) loss %.4f (policy %.4f value %.4f aux "
                "%.4f) lr %.3g %.0f samples/s ETA %s",
                static_cast<long long>(p.generation), static_cast<long long>(p.step),
                static_cast<long long>(p.steps), static_cast<long long>(p.global_step),
                p.loss_total, p.loss_policy, p.loss_value, p.loss_aux, p.learning_rate,
                p.samples_per_second, Clock(p.eta_seconds).c_str());
  if (terminal) {
    std::fprintf(stderr, "\r%s\x1b[K", line);
    if (p.step == p.steps) std::fputc('\n', stderr);
  } else {
    std::fprintf(stderr, "%s\n", line);
  }
  std::fflush(stderr);
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

int RunTrain(const std::vector<std::string>& argv) {
  auto parsed = ParseArgs({{"config", true},
                           {"model", true},
                           {"data", true, true},
                           {"out", true},
                           {"steps", true},
                           {"generation", true},
                           {"metrics", true}},
                          argv, 0);
  if (!parsed) return UsageError("train", parsed.error());
  const ParsedArgs& args = parsed.value();
  const auto config_path = args.Value("config");
  const auto model = args.Value("model");
  const auto out = args.Value("out");
  const std::vector<std::string> data = args.Values("data");
  if (!config_path || !model || !out || data.empty()) {
    return UsageError("train", "expected --config FILE --model CKPT --data DIR --out CKPT");
  }
  auto steps = args.Int("steps", -1, 0, 1LL << 40);
  if (!steps) return UsageError("train", steps.error());
  auto generation = args.Int("generation", -1, 0, 1LL << 40);
  if (!generation) return UsageError("train", generation.error());
  auto config = LoadConfig(*config_path);
  if (!config) {
    std::cerr << "veletas train: " << config.error() << "\n";
    return 2;
  }
  const Config& c = config.value();

  training::TrainRequest request;
  request.config = c.training;
  request.spec = model::ModelSpec{c.game.rules, c.game.size, c.model};
  request.device = c.model.device;
  request.input_checkpoint = *model;
  request.data = data;
  request.output_checkpoint = *out;
  request.generation = generation.value();
  request.steps = steps.value();
  request.metrics_path = args.Value("metrics").value_or("");
  const bool terminal = ::isatty(::fileno(stderr)) != 0;
  request.progress = [terminal](const training::TrainProgress& p) { PrintProgress(p, terminal); };
  request.log = [](const std::string& note) { std::cerr << "veletas train: " << note << "\n"; };

  const training::TrainResult result = training::TrainGeneration(request);
  if (!result.ok()) {
    std::cerr << "veletas train: " << result.error << "\n";
    return result.status == training::TrainStatus::kBadInput ? 2 : 1;
  }
  const training::TrainStats& s = result.stats;
  if (s.already_done) {
    std::printf("%s: generation %lld already trained from this input (%lld steps)\n", out->c_str(),
                static_cast<long long>(s.generation), static_cast<long long>(s.steps));
    return 0;
  }
  std::printf(
      "%s: generation %lld, %lld steps (global %lld)%s; loss %.4f (policy %.4f value %.4f aux "
      "%.4f l2 %.4f); %lld new files, %lld new samples, window %lld of %lld samples; %.0f "
      "samples/s; %.1f s\n",
      out->c_str(), static_cast<long long>(s.generation), static_cast<long long>(s.steps),
      static_cast<long long>(s.global_steps),
      s.resumed ? (" resumed at step " + std::to_string(s.resumed_from_step)).c_str() : "",
      s.loss_total, s.loss_policy, s.loss_value, s.loss_aux, s.loss_l2,
      static_cast<long long>(s.new_files), static_cast<long long>(s.new_samples),
      static_cast<long long>(s.window_samples), static_cast<long long>(s.total_samples),
      s.loop_samples_per_second, s.seconds);
  if (!s.skipped.empty()) {
    std::printf("%zu sample file(s) skipped (see above)\n", s.skipped.size());
  }
  DrawLosses(request);
  return 0;
}

}  // namespace

VELETAS_COMMAND(train, "train",
                "--config FILE --model CKPT --data DIR [--data DIR ...] --out CKPT [--steps N] "
                "[--generation G] [--metrics FILE]",
                "train the network on self-play samples (one generation; resumable)", RunTrain);

}  // namespace veletas::app
