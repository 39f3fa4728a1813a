#include "model/torch/checkpoint.h"

#include <cstring>
#include <map>
#include <sstream>

#include "model/base/features.h"

namespace veletas::model {
namespace {

template <class T>
void Put(std::string& out, T value) {
  char bytes[sizeof(T)];
  std::memcpy(bytes, &value, sizeof(T));
  out.append(bytes, sizeof(T));
}

std::string ShapeText(const std::vector<int64_t>& shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

util::Result<std::string> SerializeTensors(const VeletasNet& net) {
  const auto named = NamedTensors(net);
  std::string out;
  Put<uint32_t>(out, static_cast<uint32_t>(named.size()));
  for (const auto& [name, tensor] : named) {
    const torch::Tensor t = tensor.detach().to(torch::kCPU).contiguous();
    uint8_t dtype;
    if (t.scalar_type() == torch::kFloat) {
      dtype = kFloat32;
    } else if (t.scalar_type() == torch::kLong) {
      dtype = kInt64;
    } else {
      return util::Result<std::string>::Error("tensor " + name + " has an unsupported type");
    }
    Put<uint32_t>(out, static_cast<uint32_t>(name.size()));
    out += name;
    Put<uint8_t>(out, dtype);
    Put<uint32_t>(out, static_cast<uint32_t>(t.dim()));
    for (int64_t d : t.sizes()) Put<int64_t>(out, d);
    const uint64_t bytes = static_cast<uint64_t>(t.numel()) * t.element_size();
    Put<uint64_t>(out, bytes);
    out.append(static_cast<const char*>(t.data_ptr()), bytes);
  }
  return out;
}

Status LoadTensors(const std::string& path, const std::string& blob, VeletasNet& net) {
  const util::Result<std::map<std::string, StoredTensor>> table = ParseTensorTable(blob, path);
  if (!table) return table.error_value();
  const std::map<std::string, StoredTensor>& stored = table.value();
  const auto named = NamedTensors(net);
  if (named.size() != stored.size()) {
    return Status::Error(path + ": checkpoint has " + std::to_string(stored.size()) +
                         " tensors, the network has " + std::to_string(named.size()));
  }
  torch::NoGradGuard no_grad;
  for (const auto& [name, tensor] : named) {
    const auto it = stored.find(name);
    if (it == stored.end()) return Status::Error(path + ": checkpoint lacks tensor " + name);
    const StoredTensor& s = it->second;
    const auto want = tensor.sizes().vec();
    const bool type_ok = (s.dtype == kFloat32) == (tensor.scalar_type() == torch::kFloat);
    if (!type_ok || s.shape != want) {
      return Status::Error(path + ": tensor " + name + " has shape " + ShapeText(s.shape) +
                           ", the network expects " + ShapeText(want));
    }
    torch::Tensor cpu = torch::empty(want, s.dtype == kFloat32 ? torch::kFloat : torch::kLong);
    std::memcpy(cpu.data_ptr(), s.data.data(), s.data.size());
    tensor.copy_(cpu);
  }
  return Ok();
}

std::string OptimizerKind(torch::optim::Optimizer* optimizer) {
  if (dynamic_cast<torch::optim::SGD*>(optimizer) != nullptr) return "sgd";
  if (dynamic_cast<torch::optim::AdamW*>(optimizer) != nullptr) return "adamw";
  return "";
}

}  // namespace

Status SaveCheckpoint(const std::string& path, const VeletasNet& net,
                      torch::optim::Optimizer* optimizer, CheckpointMeta meta) {
  try {
    meta.format_version = kCheckpointFormatVersion;
    meta.arch.blocks = net->arch().blocks;
    meta.arch.channels = net->arch().channels;
    meta.arch.head_channels = net->arch().head_channels;
    meta.arch.value_hidden = net->arch().value_hidden;
    meta.feature_version = kFeatureVersion;
    meta.input_planes = kNumPlanes;
    CheckpointSections sections;
    if (optimizer != nullptr) {
      meta.optimizer = OptimizerKind(optimizer);
      if (meta.optimizer.empty()) {
        return Status::Error(path +
                             ": cannot save optimiser state: only SGD and AdamW are "
                             "supported");
      }
      torch::serialize::OutputArchive archive;
      optimizer->save(archive);
      std::ostringstream os;
      archive.save_to(os);
      sections.optimizer = std::move(os).str();
    } else {
      meta.optimizer.clear();
    }
    auto tensors = SerializeTensors(net);
    if (!tensors) return Status::Error(path + ": " + tensors.error());
    sections.tensors = std::move(tensors.value());
    sections.meta_json = MetaToJson(meta);
    return WriteCheckpointFile(path, sections);
  } catch (const std::exception& e) {
    return Status::Failure(path + ": cannot save checkpoint: " + e.what());
  }
}

namespace {

// Loads the network tensors and, when `optimizer` is given and the file has its state, the
// optimiser state of a checkpoint already read and checked. Errors name `path`.
Status LoadSections(const std::string& path, const CheckpointSections& sections,
                    const CheckpointMeta& meta, VeletasNet& net,
                    torch::optim::Optimizer* optimizer) {
  try {
    if (Status s = LoadTensors(path, sections.tensors, net); !s) return s;
    if (optimizer != nullptr && !meta.optimizer.empty()) {
      const std::string kind = OptimizerKind(optimizer);
      if (kind != meta.optimizer) {
        return Status::Error(path + ": checkpoint holds " + meta.optimizer +
                             " optimiser state, the optimiser given is " +
                             (kind.empty() ? std::string("of another kind") : kind));
      }
      torch::serialize::InputArchive archive;
      std::istringstream is(sections.optimizer);
      const torch::Device device = net->parameters().empty() ? torch::Device(torch::kCPU)
                                                             : net->parameters().front().device();
      archive.load_from(is, device);
      optimizer->load(archive);
    }
  } catch (const std::exception& e) {
    return Status::Error(path + ": cannot load checkpoint: " + e.what());
  }
  return Ok();
}

}  // namespace

util::Result<CheckpointMeta> LoadCheckpointInto(const std::string& path, const ModelSpec& spec,
                                                VeletasNet& net,
                                                torch::optim::Optimizer* optimizer) {
  auto file = ReadCheckpoint(path);
  if (!file) return file.error_value();
  return LoadCheckpointInto(file.value(), spec, net, optimizer);
}

util::Result<CheckpointMeta> LoadCheckpointInto(const CheckpointFile& file, const ModelSpec& spec,
                                                VeletasNet& net,
                                                torch::optim::Optimizer* optimizer) {
  using R = util::Result<CheckpointMeta>;
  if (Status fits = CheckFits(file, spec); !fits) return fits.error_value();
  if (!net->arch().SameArchitecture(spec.arch)) {
    return R::Error(file.path +
                    ": the network to load into was not built with the expected "
                    "architecture");
  }
  if (Status s = LoadSections(file.path, file.sections, file.meta, net, optimizer); !s) {
    return s.error_value();
  }
  return file.meta;
}

util::Result<LoadedModel> LoadCheckpoint(const std::string& path, const ModelSpec* spec) {
  auto file = ReadCheckpoint(path);
  if (!file) return file.error_value();
  return LoadCheckpoint(file.value(),
                        spec != nullptr ? ModelRequirement(*spec) : ModelRequirement());
}

util::Result<LoadedModel> LoadCheckpoint(const CheckpointFile& file, const ModelRequirement& need) {
  using R = util::Result<LoadedModel>;
  if (Status fits = CheckFits(file, need); !fits) return fits.error_value();
  try {
    LoadedModel loaded;
    loaded.net = MakeNet(file.meta.arch);
    if (Status s = LoadSections(file.path, file.sections, file.meta, loaded.net, nullptr); !s) {
      return s.error_value();
    }
    loaded.meta = file.meta;
    loaded.net->eval();
    return loaded;
  } catch (const std::exception& e) {
    return R::Error(file.path + ": cannot load checkpoint: " + e.what());
  }
}

}  // namespace veletas::model
