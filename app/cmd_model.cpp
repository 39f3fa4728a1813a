// `veletas init-model` and `veletas export`: create a fresh network checkpoint, and export
// one as a self-contained TorchScript module with a JSON description.
#include <iostream>

#include "app/args.h"
#include "app/command.h"
#include "app/config.h"
#include "model/checkpoint_file.h"
#include "model/model_files.h"
#include "rules/notation.h"

namespace veletas::app {
namespace {

int RunInitModel(const std::vector<std::string>& argv) {
  auto args = ParseArgs({{"config", true}, {"out", true}, {"seed", true}}, argv, 0);
  if (!args) return UsageError("init-model", args.error());
  const auto config_path = args.value().Value("config");
  const auto out = args.value().Value("out");
  if (!config_path || !out) return UsageError("init-model", "expected --config FILE --out CKPT");
  auto seed = args.value().Int("seed", 1, 0, 1LL << 62);
  if (!seed) return UsageError("init-model", seed.error());
  auto config = LoadConfig(*config_path);
  if (!config) {
    std::cerr << config.error() << "\n";
    return 2;
  }
  const Config& c = config.value();
  const model::ModelSpec spec{c.game.rules, c.game.size, c.model};
  if (auto s = model::CreateInitialCheckpoint(*out, spec, static_cast<uint64_t>(seed.value()));
      !s) {
    std::cerr << "veletas init-model: " << s.error() << "\n";
    return 1;
  }
  std::cout << *out << ": generation 0, " << rules::RuleSetName(spec.rules) << " " << spec.size
            << "x" << spec.size << ", " << spec.arch.blocks << " blocks x " << spec.arch.channels
            << " channels, " << model::ParameterCount(spec.arch) << " parameters\n";
  return 0;
}

int RunExport(const std::vector<std::string>& argv) {
  auto args = ParseArgs({{"model", true}, {"out", true}}, argv, 0);
  if (!args) return UsageError("export", args.error());
  const auto ckpt = args.value().Value("model");
  const auto out = args.value().Value("out");
  if (!ckpt || !out) return UsageError("export", "expected --model CKPT --out DIR");
  // A missing, corrupt or truncated checkpoint is bad input (exit 2).
  auto meta = model::ExportModel(*ckpt, *out);
  if (!meta) {
    std::cerr << "veletas export: " << meta.error() << "\n";
    return meta.exit_code();
  }
  std::cout << "wrote " << *out << "/model.pt and " << *out << "/model.json (generation "
            << meta.value().generation << ", " << rules::RuleSetName(meta.value().rules) << " "
            << meta.value().size << "x" << meta.value().size << ")\n";
  return 0;
}

}  // namespace

VELETAS_COMMAND(init_model, "init-model", "--config FILE --out CKPT [--seed N]",
                "write a freshly initialised network (generation 0) for the config's game and "
                "model sections",
                RunInitModel);
VELETAS_COMMAND(export_model, "export", "--model CKPT --out DIR",
                "export a checkpoint as TorchScript (DIR/model.pt) with a JSON description "
                "(DIR/model.json)",
                RunExport);

}  // namespace veletas::app
