#include "arena/match_record.h"

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "arena/json_util.h"
#include "rules/notation.h"
#include "util/atomic_file.h"
#include "util/json.h"
#include "util/names.h"

namespace veletas::arena {

namespace fs = std::filesystem;
using nlohmann::json;

int MatchRecord::AWins() const {
  return static_cast<int>(
      std::count_if(games.begin(), games.end(), [](const MatchGame& g) { return g.a_won; }));
}

util::Status ValidateMatchName(const std::string& name) {
  return util::ValidateName(name, "match name");
}

std::string MatchesDir(const std::string& run_dir) {
  return (fs::path(run_dir) / "matches").string();
}

std::string MatchFilePath(const std::string& run_dir, const std::string& name) {
  return (fs::path(run_dir) / "matches" / (name + ".json")).string();
}

json MatchRecordToJson(const MatchRecord& m) {
  json j;
  j["format"] = "veletas-match";
  j["version"] = kMatchFormatVersion;
  j["name"] = m.name;
  j["rules"] = rules::RuleSetName(m.rules);
  j["size"] = m.size;
  if (!m.started.empty()) j["started"] = m.started;
  if (!m.finished.empty()) j["finished"] = m.finished;
  j["players"] = {{"a", {{"name", m.a.name}, {"spec", m.a.spec}}},
                  {"b", {{"name", m.b.name}, {"spec", m.b.spec}}}};
  j["games"] = m.games.size();
  j["a_wins"] = m.AWins();
  j["b_wins"] = m.BWins();
  AddEloFields(j, m.Elo());
  if (m.gate) j["gate"] = GateEvidenceToJson(*m.gate);
  json results = json::array();
  for (const MatchGame& g : m.games) {
    json r;
    r["a_seat"] = g.a_first ? "first" : "second";
    if (g.a_colour) r["a_colour"] = rules::ColorName(*g.a_colour);
    r["winner"] = g.a_won ? "a" : "b";
    r["turns"] = g.turns;
    if (!g.record.empty()) r["record"] = g.record;
    if (!g.worker.empty()) r["worker"] = g.worker;
    results.push_back(std::move(r));
  }
  j["results"] = std::move(results);
  return j;
}

namespace {

MatchPlayer ReadPlayer(util::JsonFields& parent, const std::string& key) {
  MatchPlayer p;
  const json* obj = parent.Object(key);
  if (obj == nullptr) return p;
  util::JsonFields f(*obj, parent.Name(key));
  p.name = f.String("name");
  p.spec = f.String("spec");
  if (f.ok() && p.name.empty()) f.Fail(f.Name("name") + ": empty");
  if (f.ok() && p.spec.empty()) f.Fail(f.Name("spec") + ": empty");
  if (!f.ok()) parent.Fail(f.error());
  return p;
}

// The record's header: format, version, name, rules, size, times.
void ReadHeader(util::JsonFields& f, MatchRecord& m) {
  const std::string format = f.String("format");
  if (f.ok() && format != "veletas-match") {
    f.Fail("format: expected \"veletas-match\", got \"" + format + "\"");
  }
  const long long version = f.Int("version", 1, 1 << 30);
  if (f.ok() && version != kMatchFormatVersion) {
    f.Fail("version: " + std::to_string(version) + " is not supported (this build reads " +
           std::to_string(kMatchFormatVersion) + ")");
  }
  m.name = f.String("name");
  if (f.ok()) {
    if (util::Status e = ValidateMatchName(m.name); !e.ok()) f.Fail("name: " + e.error());
  }
  const std::string rules_name = f.String("rules");
  if (f.ok()) {
    if (auto rs = rules::ParseRuleSet(rules_name)) {
      m.rules = *rs;
    } else {
      f.Fail("rules: expected \"standard\" or \"classic\", got \"" + rules_name + "\"");
    }
  }
  m.size = static_cast<int>(f.Int("size", 7, 10));
  if (f.ok() && m.size == 8) f.Fail("size: 8 is not a board size (expected 7, 9 or 10)");
  if (f.Has("started")) m.started = f.String("started");
  if (f.Has("finished")) m.finished = f.String("finished");
}

// One entry of "results" (its errors go to `r`).
MatchGame ReadGame(util::JsonFields& r) {
  MatchGame g;
  const std::string seat = r.String("a_seat");
  if (r.ok() && seat != "first" && seat != "second") {
    r.Fail(r.Name("a_seat") + ": expected \"first\" or \"second\", got \"" + seat + "\"");
  }
  g.a_first = seat == "first";
  if (r.Has("a_colour")) {
    const std::string colour = r.String("a_colour");
    if (colour == "black") {
      g.a_colour = rules::Color::kBlack;
    } else if (colour == "white") {
      g.a_colour = rules::Color::kWhite;
    } else if (r.ok()) {
      r.Fail(r.Name("a_colour") + ": expected \"black\" or \"white\", got \"" + colour + "\"");
    }
  }
  const std::string winner = r.String("winner");
  if (r.ok() && winner != "a" && winner != "b") {
    r.Fail(r.Name("winner") + ": expected \"a\" or \"b\", got \"" + winner + "\"");
  }
  g.a_won = winner == "a";
  g.turns = static_cast<int>(r.Int("turns", 0, 1 << 20));
  if (r.Has("record")) g.record = r.String("record");
  if (r.Has("worker")) g.worker = r.String("worker");
  return g;
}

// The games listed in "results", which must be `games` with `a_wins` won by A.
void ReadResults(util::JsonFields& f, MatchRecord& m, long long games, long long a_wins) {
  const json* results = f.Array("results");
  if (results == nullptr) return;
  if (f.ok() && static_cast<long long>(results->size()) != games) {
    f.Fail("results: " + std::to_string(results->size()) + " games listed, but games is " +
           std::to_string(games));
  }
  for (size_t i = 0; i < results->size() && f.ok(); ++i) {
    util::JsonFields r((*results)[i], "results[" + std::to_string(i) + "]");
    MatchGame g = ReadGame(r);
    if (!r.ok()) f.Fail(r.error());
    m.games.push_back(std::move(g));
  }
  if (f.ok() && m.AWins() != a_wins) {
    f.Fail("a_wins: " + std::to_string(a_wins) + ", but A won " + std::to_string(m.AWins()) +
           " of the listed results");
  }
}

}  // namespace

util::Result<MatchRecord> MatchRecordFromJson(const json& j, const std::string& source) {
  using R = util::Result<MatchRecord>;
  MatchRecord m;
  util::JsonFields f(j, "");
  ReadHeader(f, m);
  if (const json* players = f.Object("players")) {
    util::JsonFields pf(*players, "players");
    m.a = ReadPlayer(pf, "a");
    m.b = ReadPlayer(pf, "b");
    if (pf.ok() && m.a.name == m.b.name) {
      pf.Fail("players: a and b are both \"" + m.a.name + "\"");
    }
    if (!pf.ok()) f.Fail(pf.error());
  }
  const long long games = f.Int("games", 0, 1 << 30);
  const long long a_wins = f.Int("a_wins", 0, 1 << 30);
  const long long b_wins = f.Int("b_wins", 0, 1 << 30);
  if (f.ok() && a_wins + b_wins != games) {
    f.Fail("a_wins + b_wins (" + std::to_string(a_wins + b_wins) + ") != games (" +
           std::to_string(games) + ")");
  }
  if (f.Has("gate")) {
    if (const json* gate = f.Object("gate")) {
      auto evidence = GateEvidenceFromJson(*gate);
      if (evidence) {
        m.gate = evidence.value();
      } else {
        f.Fail(evidence.error());
      }
    }
  }
  ReadResults(f, m, games, a_wins);
  if (!f.ok()) return R::Error(source + ": " + f.error());
  return m;
}

util::Status WriteMatchRecord(const std::string& run_dir, const MatchRecord& match) {
  const std::string path = MatchFilePath(run_dir, match.name);
  if (util::Status e = ValidateMatchName(match.name); !e.ok()) {
    return util::Prefixed(e.error_value(), path + ": ");
  }
  if (util::Status dir = util::CreateDirectories(MatchesDir(run_dir)); !dir.ok()) return dir;
  return util::WriteFileAtomic(path, MatchRecordToJson(match).dump(1) + "\n");
}

util::Result<MatchRecord> ReadMatchRecord(const std::string& path) {
  using R = util::Result<MatchRecord>;
  const auto read = util::ReadFile(path);
  if (!read) return read.error_value();
  const std::string& text = read.value();
  if (text.empty()) return R::Error(path + ": empty file");
  // The error names the line and column, e.g. "syntax error while parsing object ...".
  const util::Result<json> j = util::ParseJson(text, path);
  if (!j) return j.error_value();
  return MatchRecordFromJson(j.value(), path);
}

RunMatches LoadRunMatches(const std::string& run_dir) {
  RunMatches out;
  const std::string dir = MatchesDir(run_dir);
  std::error_code ec;
  out.dir_exists = fs::is_directory(dir, ec);
  if (!out.dir_exists) return out;
  std::vector<std::string> files;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const fs::path& p = it->path();
    const std::string file = p.filename().string();
    // WriteFileAtomic's temporaries are "<name>.json.tmp.<pid>": not matches.
    if (p.extension() != ".json" || file[0] == '.') continue;
    files.push_back(p.string());
  }
  if (ec) out.skipped.push_back(dir + ": cannot list: " + ec.message());
  std::sort(files.begin(), files.end());
  for (const std::string& file : files) {
    auto match = ReadMatchRecord(file);
    if (!match) {
      out.skipped.push_back(match.error());
      continue;
    }
    const std::string stem = fs::path(file).stem().string();
    if (match.value().name != stem) {
      out.skipped.push_back(file + ": name \"" + match.value().name +
                            "\" does not match the file name");
      continue;
    }
    out.matches.push_back(std::move(match.value()));
  }
  return out;
}

std::vector<PairResult> PairResults(const std::vector<MatchRecord>& matches) {
  std::vector<PairResult> out;
  out.reserve(matches.size());
  for (const MatchRecord& m : matches) out.push_back({m.a.name, m.b.name, m.AWins(), m.BWins()});
  return out;
}

}  // namespace veletas::arena
