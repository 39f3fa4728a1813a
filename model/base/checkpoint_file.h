// Checkpoint metadata and the checkpoint file container. Plain C++ (no Torch): any layer may
// read a checkpoint's metadata; the tensors themselves are read by model/torch/checkpoint.h.
//
// File layout (little-endian):
//   header, 32 bytes: magic "VELZCKPT" | u32 format version | u32 header size (32) |
//                     u64 payload length | u64 checksum of the payload (XXH3 64,
//                     util::Checksum64)
//   payload: three sections, each u64 length + bytes:
//     metadata (JSON text), network tensors, optimiser state (Torch archive; may be empty)
// The header's length and checksum are verified before any section is parsed, so a
// truncated or corrupt file is reported as such and never reaches Torch's parser.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "model/base/net_config.h"
#include "rules/position.h"
#include "util/result.h"

namespace veletas::model {

using util::Ok;
using util::Status;

// Version 2 (XXH3 checksum of the payload) is written and read. Version 1 (a hand-written
// checksum; earlier builds) is refused with an error naming the file and the versions.
inline constexpr uint32_t kCheckpointFormatVersion = 2;

struct CheckpointMeta {
  uint32_t format_version = kCheckpointFormatVersion;
  rules::RuleSet rules = rules::RuleSet::kStandard;
  int size = 7;
  NetConfig arch;           // architecture fields only (runtime fields are not stored)
  int feature_version = 0;  // model/base/features.h kFeatureVersion when written
  int input_planes = 0;     // model/base/features.h kNumPlanes when written
  int64_t generation = 0;
  int64_t training_steps = 0;
  std::string optimizer;                     // "" (no optimiser state), "sgd" or "adamw"
  std::map<std::string, std::string> extra;  // free-form, e.g. samples consumed
};

// The game and architecture of a network (what a checkpoint is created for).
struct ModelSpec {
  rules::RuleSet rules = rules::RuleSet::kStandard;
  int size = 7;
  NetConfig arch;  // architecture fields are compared
};

// What a loader requires of a checkpoint: each field that is set must be the checkpoint's
// (an unset one accepts whatever the checkpoint holds), and the checkpoint's input features
// must always be this build's. `source` names where the requirement comes from in errors
// (e.g. the config file, "the match"); may be empty.
struct ModelRequirement {
  ModelRequirement() = default;
  // Everything of `spec`: its rules, size and architecture.
  ModelRequirement(const ModelSpec& spec)  // NOLINT: implicit by design
      : rules(spec.rules), size(spec.size), arch(spec.arch) {}
  std::optional<rules::RuleSet> rules;
  std::optional<int> size;
  std::optional<NetConfig> arch;  // architecture fields are compared
  std::string source;
};

// OK when `meta` fits `need` and this build's features; otherwise a bad-input error saying
// what differs, e.g. "architecture mismatch: checkpoint has 6 blocks x 64 channels (heads
// 32, value 128), expected 4 blocks x 48 channels (heads 32, value 128)".
Status MetaFits(const CheckpointMeta& meta, const ModelRequirement& need);

// One tensor of the network tensors section: u32 count, then per tensor: u32 name length,
// name, u8 dtype (0 float32, 1 int64), u32 rank (at most 8), i64 dims..., u64 byte count
// (dims multiplied by the element size), bytes (row-major).
enum : uint8_t { kFloat32 = 0, kInt64 = 1 };
struct StoredTensor {
  uint8_t dtype = kFloat32;
  std::vector<int64_t> shape;
  std::string_view data;  // into the section's bytes
};

// The tensors of a network tensors section by name; errors (bad input) name `path`.
// Thread-safe.
util::Result<std::map<std::string, StoredTensor>> ParseTensorTable(std::string_view section,
                                                                   const std::string& path);

// The three payload sections.
struct CheckpointSections {
  std::string meta_json;
  std::string tensors;
  std::string optimizer;
};

// Metadata <-> JSON. Parsing errors name `source` (the file).
std::string MetaToJson(const CheckpointMeta& meta);
util::Result<CheckpointMeta> MetaFromJson(const std::string& json, const std::string& source);

// Writes the container to a temporary file next to `path` and renames it into place.
// Errors name the file.
Status WriteCheckpointFile(const std::string& path, const CheckpointSections& sections);

// The bytes WriteCheckpointFile writes.
std::string EncodeCheckpointFile(const CheckpointSections& sections);

// Reads and verifies the container (magic, version, length, checksum). Errors name the
// file and the problem ("truncated", "checksum mismatch", ...).
util::Result<CheckpointSections> ReadCheckpointFile(const std::string& path);
// The same for the bytes of a checkpoint file (`path` names it in errors). Thread-safe.
util::Result<CheckpointSections> DecodeCheckpointFile(std::string_view file,
                                                      const std::string& path);

// A checkpoint read once from its file and verified, with its metadata parsed: everything
// a loader needs, so that metadata and weights always come from the same bytes.
struct CheckpointFile {
  std::string path;
  CheckpointSections sections;
  CheckpointMeta meta;
  uint64_t checksum = 0;  // of the payload (from the verified header): identifies the content
};

// Reads `path` once, verifies the container and parses the metadata. Every error is bad
// input naming the file (missing, unreadable, truncated, corrupt). Thread-safe.
util::Result<CheckpointFile> ReadCheckpoint(const std::string& path);

// OK when `file` fits `need` (MetaFits); else a bad-input error "<path> does not
// fit <need.source>: <what differs>" ("<path>: <what differs>" without a source).
Status CheckFits(const CheckpointFile& file, const ModelRequirement& need);

// The metadata of ReadCheckpoint(path).
util::Result<CheckpointMeta> ReadCheckpointMeta(const std::string& path);

// The bytes of the checkpoint file `path` without its optimiser state: the network and its
// metadata, `extra` included (what a cluster learner publishes to workers). Errors name the
// file.
util::Result<std::string> ReadCheckpointWithoutOptimizer(const std::string& path);

// The metadata a shipped or exported network keeps (networks/, `veletas export`): `meta`
// without its optimiser and without `extra`, the run's training bookkeeping (the sample files
// read, with their paths on the machine that trained it, and the training call), which only
// resuming that run needs. What loading and playing need stays (game, architecture, features),
// and the provenance the card does not hold (generation, training steps).
CheckpointMeta ShippedMeta(CheckpointMeta meta);

// The bytes of the checkpoint file `path` as a shipped network holds it: its network tensors
// byte for byte, its metadata ShippedMeta. Errors name the file.
util::Result<std::string> ReadShippedCheckpoint(const std::string& path);

// Writes ReadShippedCheckpoint(`checkpoint`) to `out` (atomically): `veletas export
// --checkpoint`, and so networks/*/model.ckpt. Returns the bytes written. Errors name the file:
// as ReadShippedCheckpoint, a failed write.
util::Result<size_t> WriteShippedCheckpoint(const std::string& checkpoint, const std::string& out);

}  // namespace veletas::model
