#include "cluster/tools/redis_log.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <set>
#include <string_view>
#include <utility>

#include "cluster/transport/blame.h"
#include "cluster/transport/redis_commands.h"

namespace veletas::cluster {
namespace {

constexpr std::string_view kEvicting = "Evicting client: ";
constexpr std::string_view kClient = "Client ";
constexpr std::string_view kOutputLimit =
    " scheduled to be closed ASAP for overcoming of output buffer limits.";

// A connection Redis closed, from its log line.
struct Closure {
  std::string pid;        // of the Redis process (connection ids restart with it)
  std::string_view info;  // the connection's CLIENT LIST fields
  bool output_limit = false;
};

// The next line of `in` into `line`, without its '\n'; false at the end. A line longer than
// kMaxRedisLogLine comes back empty (skipped) and is read to its end without being kept.
bool ReadBoundedLine(std::streambuf& in, std::string& line) {
  line.clear();
  bool any = false, too_long = false;
  for (int c = in.sbumpc(); c != std::char_traits<char>::eof(); c = in.sbumpc()) {
    any = true;
    if (c == '\n') break;
    if (line.size() >= kMaxRedisLogLine) too_long = true;
    if (!too_long) line.push_back(static_cast<char>(c));
  }
  if (too_long) line.clear();
  return any;
}

// The closure a Redis log line reports, nullopt for any other line. Only the message that
// starts the line counts ("PID:ROLE DAY MONTH YEAR TIME LEVEL MESSAGE"): Redis quotes what
// clients sent inside some messages, never at their start.
std::optional<Closure> ParseClosure(std::string_view line) {
  size_t at = 0;
  for (int field = 0; field < 6; ++field) {  // the header's six words
    at = line.find(' ', at);
    if (at == std::string_view::npos) return std::nullopt;
    ++at;
  }
  const std::string_view pid_role = line.substr(0, line.find(' '));
  const size_t colon = pid_role.find(':');
  if (colon == std::string_view::npos || colon == 0 ||
      pid_role.substr(0, colon).find_first_not_of("0123456789") != std::string_view::npos) {
    return std::nullopt;
  }
  const std::string_view message = line.substr(at);
  Closure c;
  c.pid = std::string(pid_role.substr(0, colon));
  if (message.substr(0, kEvicting.size()) == kEvicting) {
    c.info = message.substr(kEvicting.size());
  } else if (message.substr(0, kClient.size()) == kClient && message.size() > kOutputLimit.size() &&
             message.substr(message.size() - kOutputLimit.size()) == kOutputLimit) {
    c.info = message.substr(kClient.size(), message.size() - kClient.size() - kOutputLimit.size());
    c.output_limit = true;
  } else {
    return std::nullopt;
  }
  if (c.info.substr(0, 3) != "id=") return std::nullopt;
  return c;
}

}  // namespace

RedisClosures ReadRedisClosures(const RunKeys& keys, std::istream& in) {
  RedisClosures out;
  std::set<std::pair<std::string, long long>> seen;  // (pid, connection id)
  std::string line;
  while (in.rdbuf() && ReadBoundedLine(*in.rdbuf(), line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    const std::optional<Closure> c = ParseClosure(line);
    if (!c) continue;
    const ClientInfo client = ParseClientInfo(std::string(c->info));
    if (!seen.insert({c->pid, client.id}).second) continue;
    if (client.user.empty()) {
      ++out.unattributed;
      continue;
    }
    const std::string worker = WorkerOfUser(keys, client.user);
    if (worker.empty()) continue;
    if (c->output_limit || client.omem > kMaxWorkerReplyBytes) {
      ++out.unread_by_worker[worker];
    } else {
      ++out.evicted_small;
    }
  }
  return out;
}

util::Result<RedisClosures> ReadRedisLogFile(const RunKeys& keys, const std::string& path) {
  using R = util::Result<RedisClosures>;
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    return R::Error(path + ": a directory; expected Redis's log file");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return R::Error(path + ": cannot open Redis's log (" + std::strerror(errno) + ")");
  return ReadRedisClosures(keys, in);
}

}  // namespace veletas::cluster
