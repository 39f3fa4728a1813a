#include "training/replay_window.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <vector>

#include "data/excluded_games.h"
#include "rules/notation.h"
#include "util/json.h"
#include "util/names.h"

namespace veletas::training {
namespace fs = std::filesystem;

int64_t WindowSize(const TrainingConfig& c, int64_t total) {
  if (total <= c.window_min) return std::min(total, c.window_max);
  const double n = static_cast<double>(total) / static_cast<double>(c.window_min);
  const double a = c.window_exponent;
  const double w =
      static_cast<double>(c.window_min) * (1.0 + c.window_growth * (std::pow(n, a) - 1.0) / a);
  return std::min<int64_t>({c.window_max, total, static_cast<int64_t>(std::floor(w))});
}

std::string DataStateToJson(const DataState& s) {
  nlohmann::json j;
  j["total_samples"] = s.total_samples;
  j["batches_drawn"] = s.batches_drawn;
  j["samples_consumed"] = s.samples_consumed;
  j["reuse_credit"] = s.reuse_credit;
  nlohmann::json files = nlohmann::json::array();
  for (const IngestedFile& f : s.files) files.push_back({f.path, f.samples});
  j["files"] = std::move(files);
  return j.dump();
}

util::Result<DataState> DataStateFromJson(const std::string& text, const std::string& source) {
  using R = util::Result<DataState>;
  const util::Result<nlohmann::json> parsed =
      util::ParseJson(text, source + ": training data state");
  if (!parsed) return parsed.error_value();
  util::JsonFields f(parsed.value(), "");
  DataState s;
  s.total_samples = f.Integer<int64_t>("total_samples");
  s.batches_drawn = f.Integer<int64_t>("batches_drawn");
  s.samples_consumed = f.Integer<int64_t>("samples_consumed");
  s.reuse_credit = f.Number("reuse_credit");
  const nlohmann::json* files = f.Array("files");
  for (size_t i = 0; files != nullptr && i < files->size() && f.ok(); ++i) {
    // Each file is [path, samples].
    const nlohmann::json& e = (*files)[i];
    const std::string name = "files[" + std::to_string(i) + "]";
    if (!e.is_array() || e.size() != 2 || !e[0].is_string()) {
      f.Fail(name + ": expected [path, samples], got " + util::JsonExcerpt(e));
      break;
    }
    s.files.push_back({e[0].get<std::string>(), f.IntegerOf<int64_t>(e[1], name + "[1]")});
  }
  if (!f.ok()) return R::Error(source + ": training data state: " + f.error());
  int64_t sum = 0;
  for (const IngestedFile& file : s.files) {
    if (file.samples < 0 || __builtin_add_overflow(sum, file.samples, &sum)) {
      return R::Error(source + ": training data state: a negative or too large count");
    }
  }
  if (sum != s.total_samples || s.batches_drawn < 0 || s.samples_consumed < 0) {
    return R::Error(source + ": training data state is inconsistent (file counts sum to " +
                    std::to_string(sum) + ", total says " + std::to_string(s.total_samples) + ")");
  }
  return s;
}

bool NaturalLess(const std::string& a, const std::string& b) {
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    const bool da = std::isdigit(static_cast<unsigned char>(a[i])) != 0;
    const bool db = std::isdigit(static_cast<unsigned char>(b[j])) != 0;
    if (da && db) {
      size_t ie = i, je = j;
      while (ie < a.size() && std::isdigit(static_cast<unsigned char>(a[ie]))) ++ie;
      while (je < b.size() && std::isdigit(static_cast<unsigned char>(b[je]))) ++je;
      // Compare the numbers without leading zeros: by length, then digit by digit.
      size_t is = i, js = j;
      while (is + 1 < ie && a[is] == '0') ++is;
      while (js + 1 < je && b[js] == '0') ++js;
      if (ie - is != je - js) return ie - is < je - js;
      const int c = a.compare(is, ie - is, b, js, je - js);
      if (c != 0) return c < 0;
      if (ie - i != je - j) return ie - i < je - j;  // "07" after "7"
      i = ie;
      j = je;
    } else {
      if (a[i] != b[j]) return a[i] < b[j];
      ++i;
      ++j;
    }
  }
  return a.size() - i < b.size() - j;
}

util::Result<std::vector<std::string>> ListSampleFiles(const std::vector<std::string>& data) {
  using R = util::Result<std::vector<std::string>>;
  if (data.empty()) return R::Error("no sample data given (expected directories or files)");
  std::vector<std::string> result;
  std::set<std::string> seen;
  // Files are identified by their paths in the checkpoints' JSON metadata: each must be
  // valid UTF-8 to be stored there.
  util::Status bad_path = util::Ok();
  auto add = [&](const fs::path& p) {
    std::error_code ec;
    fs::path c = fs::weakly_canonical(fs::absolute(p, ec), ec);
    const std::string s = (ec ? fs::absolute(p) : c).string();
    if (util::Status utf8 = util::CheckUtf8Path(s, "sample file"); !utf8.ok()) {
      if (bad_path.ok()) bad_path = utf8;
      return;
    }
    if (seen.insert(s).second) result.push_back(s);
  };
  for (const std::string& entry : data) {
    std::error_code ec;
    const fs::file_status st = fs::status(entry, ec);
    if (ec || !fs::exists(st)) {
      return R::Error(entry + ": sample data directory or file does not exist");
    }
    if (fs::is_regular_file(st)) {
      add(entry);
      continue;
    }
    if (!fs::is_directory(st)) return R::Error(entry + ": not a directory or file");
    std::vector<std::string> relative;
    fs::recursive_directory_iterator it(entry, fs::directory_options::skip_permission_denied, ec);
    if (ec) return R::Error(entry + ": cannot read directory: " + ec.message());
    for (const fs::recursive_directory_iterator end; it != end; it.increment(ec)) {
      if (ec) return R::Error(entry + ": cannot read directory: " + ec.message());
      const fs::path& p = it->path();
      if (p.extension() == ".vzs" && it->is_regular_file(ec)) {
        relative.push_back(fs::relative(p, entry, ec).generic_string());
      }
    }
    std::sort(relative.begin(), relative.end(), NaturalLess);
    for (const std::string& r : relative) add(fs::path(entry) / r);
  }
  if (!bad_path.ok()) return bad_path.error_value();
  return result;
}

namespace {

// OK when the sample file `f` (at `path`) is of the game `rs` on `size`, else a bad-input
// error naming both games.
util::Status CheckGame(const std::string& path, const data::SampleFile& f, rules::RuleSet rs,
                       int size) {
  if (f.rules == rs && f.size == size) return util::Ok();
  return util::Status::Error(path + ": sample file is for " + rules::RuleSetName(f.rules) + " " +
                             std::to_string(f.size) + "x" + std::to_string(f.size) +
                             ", the model is for " + rules::RuleSetName(rs) + " " +
                             std::to_string(size) + "x" + std::to_string(size));
}

// Drops the "nobody" aux targets of the samples of resigned games in `f` (its games' sample
// counts cover its samples in order; a file whose counts do not is left as it is).
void DropUnclaimedAuxOfResigned(data::SampleFile& f) {
  size_t total = 0;
  for (const data::GameRecord& g : f.games) total += g.samples;
  if (total != f.samples.size()) return;
  size_t first = 0;  // the game's first sample
  for (const data::GameRecord& g : f.games) {
    for (size_t i = first; g.resigned && i < first + g.samples; ++i) {
      std::erase_if(f.samples[i].aux,
                    [](const data::AuxTarget& t) { return t.owner == data::Owner::kNobody; });
    }
    first += g.samples;
  }
}

}  // namespace

util::Result<IngestReport> IngestFiles(DataState& state, const std::vector<std::string>& listed,
                                       rules::RuleSet rs, int size, int64_t keep_samples) {
  std::set<std::string> known;
  for (const IngestedFile& f : state.files) known.insert(f.path);
  IngestReport report;
  std::vector<IngestedFile> added;
  std::deque<IngestedFile> kept;  // the files in report.loaded, oldest first
  int64_t kept_samples = 0;
  for (const std::string& path : listed) {
    if (known.count(path)) continue;
    auto file = data::ReadSampleFile(path);
    if (!file) {
      // A file of an earlier build is refused, not skipped as corrupt.
      if (auto version = data::CheckSampleFileVersion(path); !version) {
        return version.error_value();
      }
      report.skipped.push_back(file.error());
      continue;
    }
    if (util::Status fits = CheckGame(path, file.value(), rs, size); !fits.ok()) {
      return fits.error_value();
    }
    const auto n = static_cast<int64_t>(file.value().samples.size());
    added.push_back({path, n});
    report.new_samples += n;
    report.loaded.emplace(path, std::move(file.value()));
    kept.push_back({path, n});
    kept_samples += n;
    while (kept.size() > 1 && kept_samples - kept.front().samples >= keep_samples) {
      kept_samples -= kept.front().samples;
      report.loaded.erase(kept.front().path);
      kept.pop_front();
    }
    known.insert(path);
  }
  report.new_files = static_cast<int64_t>(added.size());
  state.files.insert(state.files.end(), added.begin(), added.end());
  state.total_samples += report.new_samples;
  return report;
}

util::Result<ReplayWindow> ReplayWindow::Load(const DataState& state, int64_t window,
                                              rules::RuleSet rs, int size,
                                              std::map<std::string, data::SampleFile> loaded,
                                              std::vector<std::string>& skipped,
                                              bool aux_ignore_resigned) {
  // The newest files that cover `window` samples, by their ingested counts.
  size_t first = state.files.size();
  int64_t covered = 0;
  while (first > 0 && covered < window) {
    --first;
    covered += state.files[first].samples;
  }
  ReplayWindow w;
  w.samples_.reserve(static_cast<size_t>(std::min(window, covered)));
  std::map<std::string, std::set<data::GameId>> excluded;  // by directory
  for (size_t i = first; i < state.files.size(); ++i) {
    const IngestedFile& f = state.files[i];
    data::SampleFile file;
    if (auto it = loaded.find(f.path); it != loaded.end()) {
      file = std::move(it->second);
    } else {
      auto read = data::ReadSampleFile(f.path);
      if (!read) {
        if (auto version = data::CheckSampleFileVersion(f.path); !version) {
          return version.error_value();
        }
        skipped.push_back(read.error() + " (ingested earlier; left out of the window)");
        continue;
      }
      file = std::move(read.value());
      if (util::Status fits = CheckGame(f.path, file, rs, size); !fits.ok()) {
        return fits.error_value();
      }
    }
    // Games left out after they were stored (a worker that failed a spot check).
    const std::string dir = std::filesystem::path(f.path).parent_path().string();
    if (!excluded.count(dir)) {
      auto ids = data::ReadExcludedGames(dir);
      if (!ids) return ids.error_value();
      excluded[dir] = std::move(ids.value());
    }
    const int64_t dropped = data::DropExcludedGames(file, excluded[dir]);
    w.excluded_samples_ += dropped;
    if (aux_ignore_resigned) DropUnclaimedAuxOfResigned(file);
    auto& samples = file.samples;
    // The oldest file may be only partly inside the window: keep its newest samples.
    size_t skip = 0;
    if (i == first && covered > window) {
      skip = static_cast<size_t>(
          std::min<int64_t>(covered - window, static_cast<int64_t>(samples.size())));
    }
    if (static_cast<int64_t>(samples.size()) + dropped != f.samples) {
      skipped.push_back(f.path + ": now holds " + std::to_string(samples.size()) + " samples, " +
                        std::to_string(f.samples) + " when ingested (file replaced?)");
    }
    w.samples_.insert(w.samples_.end(), std::make_move_iterator(samples.begin() + skip),
                      std::make_move_iterator(samples.end()));
    ++w.files_;
  }
  return w;
}

}  // namespace veletas::training
