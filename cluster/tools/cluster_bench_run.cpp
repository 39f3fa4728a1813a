#include "cluster/tools/cluster_bench_run.h"

#include <unistd.h>

#include <fmt/format.h>
#include <filesystem>
#include <utility>

#include "cluster/tools/cluster_bench.h"
#include "cluster/tools/run_config.h"
#include "model/base/checkpoint_file.h"
#include "rules/notation.h"

namespace veletas::cluster {
namespace {

namespace fs = std::filesystem;

// The worker comparison: self-play in this process against one worker, printed with the
// ingest figures `f`.
util::Status CompareWorker(const config::Config& c, const ClusterBenchRun& run,
                           const std::string& work, const IngestFigures& f, std::ostream& out,
                           std::ostream& log) {
  const std::string checkpoint = run.model.value_or(work + "/fresh.ckpt");
  if (!run.model) {
    if (util::Status s = run.networks->CreateInitial(checkpoint, 1); !s.ok()) return s;
  }
  auto network = run.networks->LoadForSelfplay(checkpoint);
  if (!network) return network.error_value();
  WorkerBench bench = WorkerBenchOf(c, run.redis, work, run.seconds);
  bench.make_loader = run.make_loader;
  bench.evaluator = network.value().get();
  auto bytes = model::ReadCheckpointWithoutOptimizer(checkpoint);
  if (!bytes) return util::Status::Failure("publishing to redis: " + bytes.error());
  bench.network_bytes = std::move(bytes.value());
  SelfplaySpeed local, worker;
  if (util::Status s = MeasureWorker(bench, local, worker, log); !s.ok()) return s;
  PrintWorkerFigures(f, local, worker, out);
  return util::Ok();
}

}  // namespace

util::Status RunClusterBench(const config::Config& c, const ClusterBenchRun& run, std::ostream& out,
                             std::ostream& log) {
  const std::string work = run.work.value_or(
      (fs::temp_directory_path() / ("veletas_bench_cluster_" + std::to_string(::getpid())))
          .string());
  fs::remove_all(work);
  fs::create_directories(work);
  auto f = MeasureIngest(RunSettingsOf(c), run.redis, work + "/ingest", run.games, log);
  if (!f) return f.error_value();
  out << fmt::format("{}, {}\n", rules::GameName(c.game.rules, c.game.size), c.source);
  PrintIngestFigures(f.value(), out);
  if (run.seconds > 0) {
    if (util::Status s = CompareWorker(c, run, work, f.value(), out, log); !s.ok()) return s;
  }
  fs::remove_all(work);
  return util::Ok();
}

}  // namespace veletas::cluster
