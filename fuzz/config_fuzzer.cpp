// Config files (config/config.h): any text as YAML. Property: the effective config of an
// accepted file (config.resolved.yaml) is itself accepted and resolves to the same text.
#include "config/config.h"
#include "fuzz/fuzz_util.h"

using namespace veletas;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const util::Result<config::Config> config =
      config::LoadConfigFromString(std::string(fuzz::Text(data, size)), "fuzz.yaml");
  if (config) {
    const util::Result<config::Config> again =
        config::LoadConfigFromString(config.value().resolved_yaml, "resolved.yaml");
    fuzz::Require(again.ok(), "the resolved config is refused");
    fuzz::Require(again.value().resolved_yaml == config.value().resolved_yaml,
                  "the resolved config resolves differently");
  }
  return 0;
}
