#include "model/base/checkpoint_file.h"

#include <cstring>
#include <nlohmann/json.hpp>
#include <utility>

#include "model/base/features.h"
#include "rules/notation.h"
#include "util/atomic_file.h"
#include "util/byte_io.h"
#include "util/checksum.h"
#include "util/json.h"

namespace veletas::model {
namespace {

constexpr char kMagic[8] = {'V', 'E', 'L', 'Z', 'C', 'K', 'P', 'T'};
constexpr uint32_t kHeaderSize = 32;

template <class T>
void Put(std::string& out, T value) {
  char bytes[sizeof(T)];
  std::memcpy(bytes, &value, sizeof(T));
  out.append(bytes, sizeof(T));
}

template <class T>
T Get(const char* p) {
  T value;
  std::memcpy(&value, p, sizeof(T));
  return value;
}

std::string ArchText(const NetConfig& a) {
  return std::to_string(a.blocks) + " blocks x " + std::to_string(a.channels) +
         " channels (heads " + std::to_string(a.head_channels) + ", value " +
         std::to_string(a.value_hidden) + ")";
}

}  // namespace

Status MetaFits(const CheckpointMeta& meta, const ModelRequirement& need) {
  if (need.rules && meta.rules != *need.rules) {
    return Status::Error(std::string("rules mismatch: checkpoint is for ") +
                         rules::RuleSetName(meta.rules) + " rules, expected " +
                         rules::RuleSetName(*need.rules));
  }
  if (need.size && meta.size != *need.size) {
    return Status::Error("board size mismatch: checkpoint is for " + std::to_string(meta.size) +
                         "x" + std::to_string(meta.size) + ", expected " +
                         std::to_string(*need.size) + "x" + std::to_string(*need.size));
  }
  if (need.arch && !meta.arch.SameArchitecture(*need.arch)) {
    return Status::Error("architecture mismatch: checkpoint has " + ArchText(meta.arch) +
                         ", expected " + ArchText(*need.arch));
  }
  if (meta.feature_version != kFeatureVersion || meta.input_planes != kNumPlanes) {
    return Status::Error("input features mismatch: checkpoint uses feature version " +
                         std::to_string(meta.feature_version) + " with " +
                         std::to_string(meta.input_planes) + " planes, this build uses version " +
                         std::to_string(kFeatureVersion) + " with " + std::to_string(kNumPlanes));
  }
  return Ok();
}

std::string MetaToJson(const CheckpointMeta& meta) {
  nlohmann::json j;
  j["format_version"] = meta.format_version;
  j["rules"] = rules::RuleSetName(meta.rules);
  j["size"] = meta.size;
  j["blocks"] = meta.arch.blocks;
  j["channels"] = meta.arch.channels;
  j["head_channels"] = meta.arch.head_channels;
  j["value_hidden"] = meta.arch.value_hidden;
  j["feature_version"] = meta.feature_version;
  j["input_planes"] = meta.input_planes;
  j["generation"] = meta.generation;
  j["training_steps"] = meta.training_steps;
  j["optimizer"] = meta.optimizer;
  j["extra"] = meta.extra;
  return j.dump(1);
}

util::Result<CheckpointMeta> MetaFromJson(const std::string& text, const std::string& source) {
  using R = util::Result<CheckpointMeta>;
  const util::Result<nlohmann::json> parsed = util::ParseJson(text, source + ": metadata");
  if (!parsed) return parsed.error_value();
  util::JsonFields f(parsed.value(), "");
  CheckpointMeta m;
  m.format_version = f.Integer<uint32_t>("format_version");
  const std::string rule_set = f.String("rules");
  m.size = f.Integer<int>("size");
  m.arch.blocks = f.Integer<int>("blocks");
  m.arch.channels = f.Integer<int>("channels");
  m.arch.head_channels = f.Integer<int>("head_channels");
  m.arch.value_hidden = f.Integer<int>("value_hidden");
  m.feature_version = f.Integer<int>("feature_version");
  m.input_planes = f.Integer<int>("input_planes");
  m.generation = f.Integer<int64_t>("generation");
  m.training_steps = f.Integer<int64_t>("training_steps");
  m.optimizer = f.String("optimizer");
  if (const nlohmann::json* extra = f.Object("extra"); extra != nullptr) {
    util::JsonFields e(*extra, "extra");
    for (const auto& [key, value] : extra->items()) m.extra[key] = e.String(key);
    if (!e.ok()) f.Fail(e.error());
  }
  if (!f.ok()) return R::Error(source + ": metadata: " + f.error());
  const auto rs = rules::ParseRuleSet(rule_set);
  if (!rs) return R::Error(source + ": metadata: unknown rule set");
  m.rules = *rs;
  if (!rules::IsSupportedSize(m.size)) return R::Error(source + ": metadata: bad board size");
  if (m.arch.blocks < 1 || m.arch.blocks > 40 || m.arch.channels < 1 || m.arch.channels > 512 ||
      m.arch.head_channels < 1 || m.arch.head_channels > 256 || m.arch.value_hidden < 1 ||
      m.arch.value_hidden > 1024) {
    return R::Error(source + ": metadata: bad architecture " + ArchText(m.arch));
  }
  return m;
}

Status WriteCheckpointFile(const std::string& path, const CheckpointSections& sections) {
  return util::WriteFileAtomic(path, EncodeCheckpointFile(sections));
}

std::string EncodeCheckpointFile(const CheckpointSections& sections) {
  std::string payload;
  payload.reserve(24 + sections.meta_json.size() + sections.tensors.size() +
                  sections.optimizer.size());
  for (const std::string* s : {&sections.meta_json, &sections.tensors, &sections.optimizer}) {
    Put<uint64_t>(payload, s->size());
    payload += *s;
  }
  std::string file;
  file.reserve(kHeaderSize + payload.size());
  file.append(kMagic, sizeof(kMagic));
  Put<uint32_t>(file, kCheckpointFormatVersion);
  Put<uint32_t>(file, kHeaderSize);
  Put<uint64_t>(file, payload.size());
  Put<uint64_t>(file, util::Checksum64(payload));
  file += payload;
  return file;
}

namespace {

// The container `file` (the file `path`) verified: its sections and payload checksum.
util::Result<std::pair<CheckpointSections, uint64_t>> DecodeContainer(std::string_view file,
                                                                      const std::string& path) {
  using R = util::Result<std::pair<CheckpointSections, uint64_t>>;
  if (file.size() < kHeaderSize) {
    return R::Error(path + ": truncated checkpoint: " + std::to_string(file.size()) +
                    " bytes, shorter than the " + std::to_string(kHeaderSize) + "-byte header");
  }
  if (std::memcmp(file.data(), kMagic, sizeof(kMagic)) != 0) {
    return R::Error(path + ": not a Veletas checkpoint (bad magic)");
  }
  const uint32_t version = Get<uint32_t>(file.data() + 8);
  const uint32_t header_size = Get<uint32_t>(file.data() + 12);
  const uint64_t length = Get<uint64_t>(file.data() + 16);
  const uint64_t checksum = Get<uint64_t>(file.data() + 24);
  if (version != kCheckpointFormatVersion || header_size != kHeaderSize) {
    return R::Error(path + ": checkpoint format version " + std::to_string(version) +
                    (version < kCheckpointFormatVersion ? " (written by an earlier build)" : "") +
                    " with a " + std::to_string(header_size) + "-byte header; this build reads " +
                    "version " + std::to_string(kCheckpointFormatVersion) + " only");
  }
  const uint64_t available = file.size() - kHeaderSize;
  if (available < length) {
    return R::Error(path + ": truncated checkpoint: header announces " + std::to_string(length) +
                    " payload bytes, only " + std::to_string(available) + " present");
  }
  if (available > length) {
    return R::Error(path + ": corrupt checkpoint: " + std::to_string(available - length) +
                    " unexpected bytes after the payload");
  }
  const char* p = file.data() + kHeaderSize;
  if (util::Checksum64({p, length}) != checksum) {
    return R::Error(path + ": corrupt checkpoint: checksum mismatch");
  }
  CheckpointSections sections;
  uint64_t at = 0;
  for (std::string* s : {&sections.meta_json, &sections.tensors, &sections.optimizer}) {
    if (length - at < 8) return R::Error(path + ": corrupt checkpoint: missing section");
    const uint64_t n = Get<uint64_t>(p + at);
    at += 8;
    if (length - at < n) return R::Error(path + ": corrupt checkpoint: section overruns payload");
    s->assign(p + at, n);
    at += n;
  }
  if (at != length) return R::Error(path + ": corrupt checkpoint: bytes after the sections");
  return std::make_pair(std::move(sections), checksum);
}

// The container of `path` read once and verified.
util::Result<std::pair<CheckpointSections, uint64_t>> ReadContainer(const std::string& path) {
  const util::Result<std::string> read = util::ReadFile(path);
  if (!read) return read.error_value();
  return DecodeContainer(read.value(), path);
}

}  // namespace

util::Result<CheckpointSections> ReadCheckpointFile(const std::string& path) {
  auto read = ReadContainer(path);
  if (!read) return read.error_value();
  return std::move(read.value().first);
}

util::Result<CheckpointSections> DecodeCheckpointFile(std::string_view file,
                                                      const std::string& path) {
  auto decoded = DecodeContainer(file, path);
  if (!decoded) return decoded.error_value();
  return std::move(decoded.value().first);
}

util::Result<CheckpointFile> ReadCheckpoint(const std::string& path) {
  auto read = ReadContainer(path);
  if (!read) return read.error_value();
  auto meta = MetaFromJson(read.value().first.meta_json, path);
  if (!meta) return meta.error_value();
  return CheckpointFile{path, std::move(read.value().first), std::move(meta.value()),
                        read.value().second};
}

Status CheckFits(const CheckpointFile& file, const ModelRequirement& need) {
  const Status fits = MetaFits(file.meta, need);
  if (fits.ok()) return fits;
  return util::Prefixed(
      fits.error_value(),
      file.path + (need.source.empty() ? "" : " does not fit " + need.source) + ": ");
}

util::Result<std::map<std::string, StoredTensor>> ParseTensorTable(std::string_view section,
                                                                   const std::string& path) {
  using R = util::Result<std::map<std::string, StoredTensor>>;
  util::Reader r(section);
  const uint64_t count = r.U32();
  if (!r.ok()) return R::Error(path + ": corrupt checkpoint: no tensor table");
  std::map<std::string, StoredTensor> stored;
  for (uint64_t i = 0; i < count; ++i) {
    const std::string_view name = r.Bytes(r.U32());
    StoredTensor t;
    t.dtype = static_cast<uint8_t>(r.U8());
    const uint64_t rank = r.U32();
    if (!r.ok() || rank > 8) {
      return R::Error(path + ": corrupt checkpoint: bad tensor entry " + std::to_string(i));
    }
    // The byte count is checked against the dims without overflow: each dim at most what
    // is left of the section.
    uint64_t numel = 1;
    for (uint64_t k = 0; k < rank; ++k) {
      const auto d = static_cast<int64_t>(r.U64());
      if (!r.ok() || d < 0 || static_cast<uint64_t>(d) > section.size()) {
        return R::Error(path + ": corrupt checkpoint: bad shape of tensor " + std::to_string(i));
      }
      t.shape.push_back(d);
      const uint64_t cap = section.size() + 1, du = static_cast<uint64_t>(d);
      numel = du == 0 || numel == 0 ? 0 : numel > cap / du ? cap : numel * du;
    }
    const uint64_t elem = t.dtype == kFloat32 ? 4 : t.dtype == kInt64 ? 8 : 0;
    const uint64_t bytes = r.U64();
    if (elem == 0 || !r.ok() || numel > section.size() || bytes != numel * elem) {
      return R::Error(path + ": corrupt checkpoint: bad tensor data for " + std::string(name));
    }
    t.data = r.Bytes(bytes);
    if (!r.ok()) {
      return R::Error(path + ": corrupt checkpoint: bad tensor data for " + std::string(name));
    }
    stored[std::string(name)] = std::move(t);
  }
  if (r.remaining() != 0) return R::Error(path + ": corrupt checkpoint: trailing tensor bytes");
  return stored;
}

util::Result<CheckpointMeta> ReadCheckpointMeta(const std::string& path) {
  auto file = ReadCheckpoint(path);
  if (!file) return file.error_value();
  return std::move(file.value().meta);
}

namespace {

// The checkpoint file `path` re-encoded with its metadata changed by `change`, its tensors as
// they are and no optimiser state.
util::Result<std::string> Reencode(const std::string& path,
                                   CheckpointMeta (*change)(CheckpointMeta meta)) {
  auto sections = ReadCheckpointFile(path);
  if (!sections) return sections.error_value();
  auto meta = MetaFromJson(sections.value().meta_json, path);
  if (!meta) return meta.error_value();
  CheckpointSections out;
  out.meta_json = MetaToJson(change(std::move(meta.value())));
  out.tensors = std::move(sections.value().tensors);
  return EncodeCheckpointFile(out);
}

CheckpointMeta WithoutOptimizer(CheckpointMeta meta) {
  meta.optimizer.clear();
  return meta;
}

}  // namespace

util::Result<std::string> ReadCheckpointWithoutOptimizer(const std::string& path) {
  return Reencode(path, WithoutOptimizer);
}

CheckpointMeta ShippedMeta(CheckpointMeta meta) {
  meta.optimizer.clear();
  meta.extra.clear();
  return meta;
}

util::Result<std::string> ReadShippedCheckpoint(const std::string& path) {
  return Reencode(path, ShippedMeta);
}

util::Result<size_t> WriteShippedCheckpoint(const std::string& checkpoint, const std::string& out) {
  auto bytes = ReadShippedCheckpoint(checkpoint);
  if (!bytes) return bytes.error_value();
  if (util::Status s = util::WriteFileAtomic(out, bytes.value()); !s.ok()) return s.error_value();
  return bytes.value().size();
}

}  // namespace veletas::model
