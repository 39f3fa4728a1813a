// Checkpoints (model/base/checkpoint_file.h), without Torch: the first byte picks the container
// (header, length, checksum, sections), the metadata JSON or the network tensor table, and
// the rest is read as that. A container that reads back gets its metadata and tensor table
// read too.
#include "fuzz/fuzz_util.h"
#include "model/base/checkpoint_file.h"

using namespace veletas;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  const std::string_view rest = fuzz::Text(data + 1, size - 1);
  switch (data[0] % 3) {
    case 0: {
      const auto sections = model::DecodeCheckpointFile(rest, "fuzz.ckpt");
      if (sections) {
        (void)model::MetaFromJson(sections.value().meta_json, "fuzz.ckpt");
        (void)model::ParseTensorTable(sections.value().tensors, "fuzz.ckpt");
      }
      break;
    }
    case 1:
      (void)model::MetaFromJson(std::string(rest), "fuzz.ckpt");
      break;
    default: {
      const auto table = model::ParseTensorTable(rest, "fuzz.ckpt");
      if (table) {
        for (const auto& [name, t] : table.value()) {
          fuzz::Require(t.data.data() >= rest.data() &&
                            t.data.data() + t.data.size() <= rest.data() + rest.size(),
                        "a tensor's data is outside the section");
        }
      }
    }
  }
  return 0;
}
