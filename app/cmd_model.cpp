// `veletas init-model` and `veletas export`: create a fresh network checkpoint, and export
// one as a self-contained TorchScript module with a JSON description.
#include <unistd.h>

#include <filesystem>
#include <iostream>
#include <memory>

#include "app/cli.h"
#include "app/command.h"
#include "config/config.h"
#include "model/base/checkpoint_file.h"
#include "model/torch/model_files.h"
#include "rules/notation.h"
#include "util/subprocess.h"

namespace veletas::app {
namespace {

struct InitModelOptions {
  std::string config, out;
  long long seed = 1;
};

int RunInitModel(const InitModelOptions& o) {
  auto config = config::LoadConfig(o.config);
  if (!config) {
    std::cerr << config.error() << "\n";
    return 2;
  }
  const config::Config& c = config.value();
  const model::ModelSpec spec{c.game.rules, c.game.size, c.model};
  if (auto s = model::CreateInitialCheckpoint(o.out, spec, static_cast<uint64_t>(o.seed)); !s) {
    std::cerr << "veletas init-model: " << s.error() << "\n";
    return 1;
  }
  std::cout << o.out << ": generation 0, " << rules::RuleSetName(spec.rules) << " " << spec.size
            << "x" << spec.size << ", " << spec.arch.blocks << " blocks x " << spec.arch.channels
            << " channels, " << model::ParameterCount(spec.arch) << " parameters\n";
  return 0;
}

struct ExportOptions {
  std::string model, out;
  bool checkpoint = false;
  bool onnx = false;
};

// The ONNX file beside the TorchScript one: scripts/export_onnx.py of the source tree, run
// by /usr/bin/python3 (Debian's, with python3-torch and python3-onnx) when present, else the
// python3 in PATH; the script says which package is missing.
int ExportOnnx(const std::string& dir) {
  const std::string script = std::string(VELETAS_SOURCE_DIR) + "/scripts/export_onnx.py";
  if (!std::filesystem::exists(script)) {
    return CommandError("export", {"--onnx needs " + script + " (the source tree's script)",
                                   util::ErrorKind::kFailure});
  }
  const std::string python =
      ::access("/usr/bin/python3", X_OK) == 0 ? "/usr/bin/python3" : "python3";
  auto ran = util::RunProcess({python, script, dir}, {.timeout_seconds = 600});
  if (!ran) return CommandError("export", ran.error_value());
  std::cout << ran.value().output;
  if (ran.value().exit_code == util::kCannotRun) {
    return CommandError("export", {"--onnx needs python3 with PyTorch and onnx (Debian: "
                                   "apt-get install python3 python3-torch python3-onnx)",
                                   util::ErrorKind::kFailure});
  }
  if (ran.value().exit_code != 0) {
    return CommandError("export", {"the ONNX export failed (scripts/export_onnx.py, exit code " +
                                       std::to_string(ran.value().exit_code) + ")",
                                   util::ErrorKind::kFailure});
  }
  return 0;
}

int RunExport(const ExportOptions& o) {
  // A missing, corrupt or truncated checkpoint is bad input (exit 2).
  auto meta = model::ExportModel(o.model, o.out);
  if (!meta) return CommandError("export", meta.error_value());
  if (o.checkpoint) {
    // The network and its metadata as a shipped network holds it (networks/): no optimiser
    // state, no training bookkeeping (model::ShippedMeta).
    const std::string path = o.out + "/model.ckpt";
    auto bytes = model::WriteShippedCheckpoint(o.model, path);
    if (!bytes) return CommandError("export", bytes.error_value());
    std::cout << "wrote " << path << " (" << bytes.value()
              << " bytes, without optimiser state or training bookkeeping)\n";
  }
  std::cout << "wrote " << o.out << "/model.pt and " << o.out << "/model.json (generation "
            << meta.value().generation << ", " << rules::RuleSetName(meta.value().rules) << " "
            << meta.value().size << "x" << meta.value().size << ")\n";
  return o.onnx ? ExportOnnx(o.out) : 0;
}

CommandRun SetupInitModel(CLI::App& cmd) {
  auto o = std::make_shared<InitModelOptions>();
  AddRequiredConfig(cmd, o->config, "config whose game and model sections apply");
  Required(cmd.add_option("--out", o->out, "checkpoint to write"))->type_name("CKPT");
  cmd.add_option("--seed", o->seed, "seed of the initial weights")
      ->check(CLI::Range(0LL, 1LL << 62));
  return [o] { return RunInitModel(*o); };
}

CommandRun SetupExport(CLI::App& cmd) {
  auto o = std::make_shared<ExportOptions>();
  Required(cmd.add_option("--model", o->model, "checkpoint to export"))->type_name("CKPT");
  Required(cmd.add_option("--out", o->out, "directory for model.pt and model.json"))
      ->type_name("DIR");
  cmd.add_flag("--checkpoint", o->checkpoint,
               "also write DIR/model.ckpt: the checkpoint as a shipped network holds it, without "
               "its optimiser state and the run's training bookkeeping (sample file paths)");
  cmd.add_flag("--onnx", o->onnx,
               "also write DIR/model.onnx (checked), for the browser page and onnxruntime: runs "
               "scripts/export_onnx.py, which needs python3 with python3-torch and "
               "python3-onnx (Debian)");
  return [o] { return RunExport(*o); };
}

}  // namespace

VELETAS_CLI_COMMAND(init_model, "init-model",
                    "write a freshly initialised network (generation 0) for the config's game "
                    "and model sections",
                    SetupInitModel);
VELETAS_CLI_COMMAND(export_model, "export",
                    "export a checkpoint as TorchScript (DIR/model.pt) with a JSON description "
                    "(DIR/model.json); --onnx also ONNX (DIR/model.onnx)",
                    SetupExport);

}  // namespace veletas::app
