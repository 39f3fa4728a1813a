#include "arena/arena_record.h"

#include <ctime>
#include <filesystem>

#include "util/atomic_file.h"

namespace veletas::arena {

std::string RecordsFileName(const std::string& match_name) {
  return "matches/" + match_name + ".records.txt";
}

std::string UtcTimestamp() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return text;
}

std::string MakeMatchName(const std::string& prefix, const std::string& a, const std::string& b) {
  std::string name = prefix + a + "-vs-" + b;
  for (char& c : name) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '_' || c == '-' || c == '.';
    if (!ok) c = '_';
  }
  if (name.empty() || name[0] == '.') name = "m" + name;
  return name;
}

MatchRecord MakeMatchRecord(const std::string& name, const Arena& arena,
                            const std::optional<GateEvidence>& gate, const std::string& started,
                            const std::string& finished) {
  MatchRecord m;
  m.name = name;
  m.rules = arena.Rules();
  m.size = arena.Size();
  m.a = {arena.A().name, arena.A().spec.ToString()};
  m.b = {arena.B().name, arena.B().spec.ToString()};
  m.gate = gate;
  m.started = started;
  m.finished = finished;
  const std::string records = RecordsFileName(name);
  for (size_t i = 0; i < arena.Games().size(); ++i) {
    const ArenaGame& g = arena.Games()[i];
    MatchGame mg;
    mg.a_first = g.a_first;
    mg.a_colour = g.a_colour;
    mg.a_won = g.a_won;
    mg.turns = g.turns;
    mg.record = records + ":" + std::to_string(i + 1);
    mg.worker = g.worker;
    m.games.push_back(mg);
  }
  return m;
}

util::Status SaveMatch(const std::string& run_dir, const MatchRecord& record,
                       const std::vector<ArenaGame>& games) {
  if (util::Status e = ValidateMatchName(record.name); !e.ok()) {
    return util::Prefixed(e.error_value(), MatchFilePath(run_dir, record.name) + ": ");
  }
  if (util::Status dir = util::CreateDirectories(MatchesDir(run_dir)); !dir.ok()) return dir;
  std::string text;
  for (const ArenaGame& g : games) text += g.record + "\n";
  const std::string path = (std::filesystem::path(run_dir) / RecordsFileName(record.name)).string();
  if (util::Status written = util::WriteFileAtomic(path, text); !written.ok()) return written;
  return WriteMatchRecord(run_dir, record);
}

}  // namespace veletas::arena
