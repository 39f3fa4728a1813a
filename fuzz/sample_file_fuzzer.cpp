// Sample files (data/sample_file.h): any bytes as a sample file. Property: a file that reads
// back is encoded as one that reads back the same (samples, games).
#include "data/sample_file.h"
#include "fuzz/fuzz_util.h"

using namespace veletas;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const util::Result<data::SampleFile> file =
      data::DecodeSampleFile(fuzz::Text(data, size), "fuzz.vzs");
  if (file) {
    const util::Result<std::string> bytes = data::EncodeSampleFile(file.value());
    fuzz::Require(bytes.ok(), "a file read cannot be encoded");
    const util::Result<data::SampleFile> again = data::DecodeSampleFile(bytes.value(), "again.vzs");
    fuzz::Require(again.ok(), "an encoded file does not read back");
    fuzz::Require(again.value().samples.size() == file.value().samples.size() &&
                      again.value().games.size() == file.value().games.size(),
                  "an encoded file reads back differently");
  }
  return 0;
}
