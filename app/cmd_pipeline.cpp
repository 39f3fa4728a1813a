// `veletas pipeline --config FILE --run DIR [--allow-config-change]`: the main job.
#include <iostream>

#include "app/args.h"
#include "app/command.h"
#include "app/config.h"
#include "app/pipeline.h"

namespace veletas::app {
namespace {

int RunPipelineCommand(const std::vector<std::string>& argv) {
  auto parsed =
      ParseArgs({{"config", true}, {"run", true}, {"allow-config-change", false}}, argv, 0);
  if (!parsed) return UsageError("pipeline", parsed.error());
  const ParsedArgs& args = parsed.value();
  const auto config_path = args.Value("config");
  const auto run_dir = args.Value("run");
  if (!config_path || !run_dir) return UsageError("pipeline", "expected --config FILE --run DIR");
  auto config = LoadConfig(*config_path);
  if (!config) {
    std::cerr << config.error() << "\n";
    return 2;
  }
  PipelineOptions options;
  options.run_dir = *run_dir;
  options.allow_config_change = args.Has("allow-config-change");
  return RunPipeline(config.value(), options);
}

}  // namespace

VELETAS_COMMAND(pipeline, "pipeline", "--config FILE --run DIR [--allow-config-change]",
                "train from zero: self-play, training, gating and rating, resumable",
                RunPipelineCommand);

}  // namespace veletas::app
