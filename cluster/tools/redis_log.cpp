#include "cluster/tools/redis_log.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <set>
#include <string_view>
#include <utility>
#include <vector>

#include "cluster/transport/blame.h"

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

// The words of `text` split at single spaces.
std::vector<std::string_view> Words(std::string_view text) {
  std::vector<std::string_view> out;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t end = std::min(text.find(' ', start), text.size());
    out.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return out;
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

// The value of `key`=VALUE among `words`; nullopt when absent.
std::optional<std::string_view> Field(const std::vector<std::string_view>& words,
                                      std::string_view key) {
  for (std::string_view w : words) {
    if (w.size() > key.size() && w.substr(0, key.size()) == key && w[key.size()] == '=') {
      return w.substr(key.size() + 1);
    }
  }
  return std::nullopt;
}

}  // namespace

RedisClosures ReadRedisClosures(const RunKeys& keys, std::istream& in) {
  RedisClosures out;
  std::set<std::pair<std::string, std::string>> seen;  // (pid, connection id)
  std::string line;
  while (in.rdbuf() && ReadBoundedLine(*in.rdbuf(), line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    const std::optional<Closure> c = ParseClosure(line);
    if (!c) continue;
    const std::vector<std::string_view> words = Words(c->info);
    const std::string id(Field(words, "id").value_or(""));
    if (!seen.insert({c->pid, id}).second) continue;
    const std::optional<std::string_view> user = Field(words, "user");
    if (!user) {
      ++out.unattributed;
      continue;
    }
    const std::string worker = WorkerOfUser(keys, std::string(*user));
    if (worker.empty()) continue;
    const long long omem = std::atoll(std::string(Field(words, "omem").value_or("0")).c_str());
    if (c->output_limit || omem > kMaxWorkerReplyBytes) {
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
