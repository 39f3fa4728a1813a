// `veletas pipeline --config FILE --run DIR [--allow-config-change]`: the main job.
#include <iostream>
#include <memory>

#include "app/cli.h"
#include "app/command.h"
#include "app/pipeline_services.h"
#include "config/config.h"
#include "pipeline/pipeline.h"

namespace veletas::app {
namespace {

struct PipelineArgs {
  std::string config;
  pipeline::PipelineOptions options;
};

int RunPipelineCommand(const PipelineArgs& args) {
  auto config = config::LoadConfig(args.config);
  if (!config) {
    std::cerr << config.error() << "\n";
    return 2;
  }
  ConsoleReporter reporter;
  PipelineServicesOfApp app(config.value(), reporter, args.options.run_dir);
  const util::Status run = pipeline::RunPipeline(config.value(), args.options, app.services);
  if (!run.ok()) {
    reporter.Error("veletas pipeline: " + run.error());
    return run.exit_code();
  }
  return 0;
}

CommandRun SetupPipeline(CLI::App& cmd) {
  auto o = std::make_shared<PipelineArgs>();
  AddRequiredConfig(cmd, o->config, "run configuration (YAML, see configs/)");
  Required(cmd.add_option("--run", o->options.run_dir,
                          "run directory: created, or resumed where it stopped"))
      ->type_name("DIR");
  cmd.add_flag(
      "--allow-config-change", o->options.allow_config_change,
      "resume with a config that differs from the run's (replaces it; a finished run continues)");
  return [o] { return RunPipelineCommand(*o); };
}

}  // namespace

VELETAS_CLI_COMMAND(pipeline, "pipeline",
                    "train from zero: self-play, training, gating and rating, resumable",
                    SetupPipeline);

}  // namespace veletas::app
