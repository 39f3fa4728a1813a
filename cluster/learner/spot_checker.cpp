#include "cluster/learner/spot_checker.h"

#include <algorithm>
#include <filesystem>
#include <sstream>

#include "util/atomic_file.h"
#include "util/clock.h"

namespace veletas::cluster {

SpotChecker::SpotChecker(SpotCheckerOptions options, uint64_t seed)
    : options_(std::move(options)), rng_(seed) {}

util::Result<search::Evaluator*> SpotChecker::EvaluatorOf(
    const std::string& network, std::optional<model::InferencePrecision> precision) {
  if (network != network_ || precision != precision_) {
    auto loaded = options_.load(network, precision);
    if (!loaded) return loaded.error_value();
    evaluator_ = std::move(loaded.value());
    network_ = network;
    precision_ = precision;
  }
  return evaluator_.get();
}

bool SpotChecker::ResignationStands(const rules::Position& end, search::Evaluator& evaluator,
                                    std::string& why) {
  ++totals_.resignations;
  auto r = selfplay::CheckResignation(end, options_.search, options_.resign, evaluator);
  if (!r) {
    why = r.error().substr(0, 200);
    return false;
  }
  totals_.evaluations += r.value().evaluations;
  totals_.max_resign_value = std::max(totals_.max_resign_value, double{r.value().value});
  return true;
}

util::Result<SpotChecker::Outcome> SpotChecker::Check(
    const std::string& network, std::optional<model::InferencePrecision> precision,
    const std::vector<data::Sample>& samples, const std::vector<selfplay::RootSummary>& summaries,
    const rules::Position* resigned, std::string& why) {
  if (!Enabled()) return Outcome::kUnchecked;
  std::vector<size_t> chosen;
  for (size_t i = 0; i < samples.size(); ++i) {
    if (rng_.Uniform() < options_.fraction) chosen.push_back(i);
  }
  if (chosen.empty() && resigned == nullptr) return Outcome::kUnchecked;
  const auto start = util::SteadyClock::now();
  auto evaluator = EvaluatorOf(network, precision);
  if (!evaluator) return evaluator.error_value();
  if (evaluator.value() == nullptr) {
    totals_.unreproducible += static_cast<int64_t>(chosen.size()) + (resigned != nullptr);
    return Outcome::kUnreproducible;
  }
  Outcome outcome = Outcome::kPassed;
  if (resigned != nullptr && !ResignationStands(*resigned, *evaluator.value(), why)) {
    outcome = Outcome::kFailed;
    chosen.clear();
  }
  for (size_t i : chosen) {
    if (i >= summaries.size()) {
      why = "spot check: sample " + std::to_string(i) + " has no root summary";
      outcome = Outcome::kFailed;
      break;
    }
    ++totals_.positions;
    auto r = selfplay::SpotCheck(samples[i], summaries[i], options_.search, *evaluator.value(),
                                 options_.tolerance);
    if (!r) {
      why = r.error().substr(0, 200) + " (sample " + std::to_string(i) + ")";
      outcome = Outcome::kFailed;
      break;
    }
    totals_.evaluations += r.value().evaluations;
    totals_.max_policy_tv = std::max(totals_.max_policy_tv, r.value().policy_tv);
    totals_.max_value_error = std::max(totals_.max_value_error, r.value().value_error);
  }
  if (outcome == Outcome::kFailed) ++totals_.failed;
  totals_.seconds += util::SecondsSince(start);
  return outcome;
}

void SpotChecker::Stored(const std::string& worker, const std::string& dir,
                         const data::GameId& id) {
  if (!Enabled()) return;  // no check will vouch for it
  unverified_[worker].emplace_back(dir, id);
  unverified_changed_ = true;
}

std::map<std::string, std::vector<data::GameId>> SpotChecker::TakeUnverified(
    const std::string& worker) {
  std::map<std::string, std::vector<data::GameId>> out;
  if (auto it = unverified_.find(worker); it != unverified_.end()) {
    for (const auto& [dir, id] : it->second) out[dir].push_back(id);
    unverified_.erase(it);
    unverified_changed_ = true;
  }
  return out;
}

util::Status SpotChecker::LoadUnverified() {
  const std::string& path = options_.unverified_file;
  if (path.empty() || !std::filesystem::exists(path)) return util::Ok();
  auto text = util::ReadFile(path);
  if (!text) return text.error_value();
  std::istringstream in(text.value());
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    const size_t a = line.find('\t');
    const size_t b = a == std::string::npos ? a : line.find('\t', a + 1);
    const auto id = b == std::string::npos
                        ? std::nullopt
                        : data::GameId::FromHex(std::string_view(line).substr(b + 1));
    if (a == 0 || b == std::string::npos || b == a + 1 || !id) {
      return util::Status::Error(path + ":" + std::to_string(n) +
                                 ": expected worker<TAB>directory<TAB>game id (32 hex digits)");
    }
    unverified_[line.substr(0, a)].emplace_back(line.substr(a + 1, b - a - 1), *id);
  }
  unverified_changed_ = false;
  return util::Ok();
}

util::Status SpotChecker::SaveUnverified() {
  if (options_.unverified_file.empty() || !unverified_changed_) return util::Ok();
  std::string text;
  for (const auto& [worker, games] : unverified_) {
    for (const auto& [dir, id] : games) text += worker + "\t" + dir + "\t" + id.Hex() + "\n";
  }
  if (util::Status s = util::WriteFileAtomic(options_.unverified_file, text); !s.ok()) return s;
  unverified_changed_ = false;
  return util::Ok();
}

}  // namespace veletas::cluster
