// What the cluster reads from Redis (cluster/transport/task.h, cluster/transport/entry.h,
// cluster/learner/validate.h): garbage from a worker or a hostile hand. The first byte picks how
// the rest is read: an arena task (JSON, what a worker reads), a result entry as sent, or a result
// entry whose trailing checksum this target sets first (so that its fields are reached); an entry
// that decodes is validated as a learner does (a standard 7x7 run). Properties: a task that reads
// back is encoded as one that reads back the same; no entry crashes the validation.
#include "arena/arena_journal.h"
#include "cluster/learner/validate.h"
#include "cluster/transport/entry.h"
#include "cluster/transport/task.h"
#include "fuzz/fuzz_util.h"
#include "util/atomic_file.h"
#include "util/checksum.h"

using namespace veletas;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  std::string rest(fuzz::Text(data + 1, size - 1));
  if (data[0] % 3 == 0) {
    const auto task = cluster::DecodeTask(rest);
    if (task) {
      const auto again = cluster::DecodeTask(cluster::EncodeTask(task.value()));
      fuzz::Require(again.ok() && again.value().games == task.value().games &&
                        again.value().match == task.value().match,
                    "a task written does not read back the same");
    }
    return 0;
  }
  if (data[0] % 3 == 2 && rest.size() >= 8) {
    const uint64_t sum = util::Checksum64(std::string_view(rest).substr(0, rest.size() - 8));
    for (int i = 0; i < 8; ++i) rest[rest.size() - 8 + i] = static_cast<char>(sum >> (8 * i));
  }
  const auto entry = cluster::DecodeEntry(rest, cluster::kDefaultMaxEntryBytes);
  if (!entry) return 0;
  if (entry.value().kind == cluster::EntryKind::kSelfplay) {
    (void)cluster::ValidateSelfplayGame(entry.value().game, rules::RuleSet::kStandard, 7);
  } else {
    (void)arena::ValidateArenaGame(entry.value().arena, rules::RuleSet::kStandard, 7);
  }
  return 0;
}
