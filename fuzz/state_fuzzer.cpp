// JSON state files: the first byte picks the pipeline state (RUN/state.json), a metrics file
// (metrics.jsonl), or the training data state or call plan a checkpoint's metadata carries,
// and the rest is read as that.
#include "fuzz/fuzz_util.h"
#include "pipeline/pipeline_state.h"
#include "training/call_plan.h"
#include "training/metrics.h"
#include "training/replay_window.h"

using namespace veletas;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  const std::string_view rest = fuzz::Text(data + 1, size - 1);
  switch (data[0] % 4) {
    case 0:
      (void)pipeline::PipelineStateFromText(rest, "state.json");
      break;
    case 1:
      (void)training::MetricsFromText(rest, "metrics.jsonl");
      break;
    case 2:
      (void)training::DataStateFromJson(std::string(rest), "fuzz.ckpt");
      break;
    default:
      (void)training::CallPlanFromJson(std::string(rest), "fuzz.ckpt");
  }
  return 0;
}
