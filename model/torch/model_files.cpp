#include "model/torch/model_files.h"

#include <exception>
#include <filesystem>
#include <sstream>

#include "model/torch/checkpoint.h"
#include "model/torch/export.h"
#include "model/torch/network.h"
#include "util/atomic_file.h"

namespace veletas::model {

util::Result<CheckpointMeta> ExportModel(const std::string& checkpoint,
                                         const std::string& out_dir) {
  using R = util::Result<CheckpointMeta>;
  auto loaded = LoadCheckpoint(checkpoint, nullptr);
  if (!loaded) return loaded.error_value();
  std::error_code ec;
  std::filesystem::create_directories(out_dir, ec);
  if (ec) return R::Failure(out_dir + ": cannot create directory: " + ec.message());
  const std::string model_path = out_dir + "/model.pt";
  const std::string description = DescribeExport(loaded.value().meta);
  std::ostringstream bytes;
  try {
    torch::jit::Module module = BuildScriptModule(loaded.value().net);
    torch::jit::ExtraFilesMap extra{{"veletas.json", description}};
    module.save(bytes, extra);
  } catch (const std::exception& e) {
    return R::Failure(model_path + ": cannot export: " + e.what());
  }
  Status written = util::WriteFileAtomic(model_path, bytes.str());
  if (written.ok()) written = util::WriteFileAtomic(out_dir + "/model.json", description);
  if (!written.ok()) return written.error_value();
  return std::move(loaded.value().meta);
}

int64_t ParameterCount(const NetConfig& arch) {
  int64_t count = 0;
  for (const auto& p : MakeNet(arch)->parameters()) count += p.numel();
  return count;
}

Status CreateInitialCheckpoint(const std::string& path, const ModelSpec& spec, uint64_t seed) {
  try {
    torch::manual_seed(seed);
    VeletasNet net = MakeNet(spec.arch);
    CheckpointMeta meta;
    meta.rules = spec.rules;
    meta.size = spec.size;
    meta.generation = 0;
    meta.training_steps = 0;
    meta.extra["init_seed"] = std::to_string(seed);
    return SaveCheckpoint(path, net, nullptr, meta);
  } catch (const std::exception& e) {
    return Status::Failure(path + ": cannot create the network: " + e.what());
  }
}

}  // namespace veletas::model
