// Section `pipeline` (config::PipelineConfig): the keys, ranges and help are the struct's
// table (config/pipeline_settings.cpp).
#include "config/config.h"

namespace veletas::config {

void ParsePipelineSection(ConfigSection& s, PipelineConfig& out) { ReadSection(s, out); }

}  // namespace veletas::config
