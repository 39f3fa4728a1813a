#include "model/checkpoint.h"

#include <cstring>
#include <map>
#include <sstream>

#include "model/features.h"

namespace veletas::model {
namespace {

// Network tensors section: u32 count, then per tensor: u32 name length, name, u8 dtype
// (0 float32, 1 int64), u32 rank, i64 dims..., u64 byte count, bytes (row-major).
enum : uint8_t { kFloat32 = 0, kInt64 = 1 };

template <class T>
void Put(std::string& out, T value) {
  char bytes[sizeof(T)];
  std::memcpy(bytes, &value, sizeof(T));
  out.append(bytes, sizeof(T));
}

// Bounds-checked reader over a section.
class Reader {
 public:
  explicit Reader(const std::string& data) : data_(data) {}
  template <class T>
  bool Read(T& value) {
    if (data_.size() - at_ < sizeof(T)) return false;
    std::memcpy(&value, data_.data() + at_, sizeof(T));
    at_ += sizeof(T);
    return true;
  }
  bool Bytes(size_t n, const char*& p) {
    if (data_.size() - at_ < n) return false;
    p = data_.data() + at_;
    at_ += n;
    return true;
  }
  bool AtEnd() const { return at_ == data_.size(); }

 private:
  const std::string& data_;
  size_t at_ = 0;
};

struct StoredTensor {
  uint8_t dtype = 0;
  std::vector<int64_t> shape;
  const char* data = nullptr;
  uint64_t bytes = 0;
};

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
  Reader r(blob);
  uint32_t count = 0;
  if (!r.Read(count)) return Status::Error(path + ": corrupt checkpoint: no tensor table");
  std::map<std::string, StoredTensor> stored;
  for (uint32_t i = 0; i < count; ++i) {
    uint32_t name_len = 0, rank = 0;
    const char* name = nullptr;
    StoredTensor t;
    if (!r.Read(name_len) || !r.Bytes(name_len, name) || !r.Read(t.dtype) || !r.Read(rank) ||
        rank > 8) {
      return Status::Error(path + ": corrupt checkpoint: bad tensor entry " + std::to_string(i));
    }
    uint64_t numel = 1;
    for (uint32_t k = 0; k < rank; ++k) {
      int64_t d = 0;
      if (!r.Read(d) || d < 0) return Status::Error(path + ": corrupt checkpoint: bad shape");
      t.shape.push_back(d);
      numel *= static_cast<uint64_t>(d);
    }
    const uint64_t elem = t.dtype == kFloat32 ? 4 : t.dtype == kInt64 ? 8 : 0;
    if (elem == 0 || !r.Read(t.bytes) || t.bytes != numel * elem || !r.Bytes(t.bytes, t.data)) {
      return Status::Error(path + ": corrupt checkpoint: bad tensor data for " +
                           std::string(name, name_len));
    }
    stored[std::string(name, name_len)] = t;
  }
  if (!r.AtEnd()) return Status::Error(path + ": corrupt checkpoint: trailing tensor bytes");
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
    std::memcpy(cpu.data_ptr(), s.data, s.bytes);
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
