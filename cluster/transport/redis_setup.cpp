#include "cluster/transport/redis_setup.h"

#include <algorithm>
#include <filesystem>
#include <random>
#include <sstream>
#include <vector>

#include "cluster/transport/redis_commands.h"
#include "cluster/transport/worker_registry.h"
#include "util/atomic_file.h"
#include "util/names.h"
#include "util/private_file.h"
#include "util/sha256.h"

namespace veletas::cluster {
namespace {

namespace fs = std::filesystem;

constexpr int64_t kMiB = int64_t{1} << 20;

// 32 random bytes (the system's random device) as 64 hex digits.
std::string RandomPassword() {
  std::random_device device;
  std::string out;
  const char* hex = "0123456789abcdef";
  for (int i = 0; i < 16; ++i) {
    const uint32_t v = device();
    for (int k = 0; k < 4; ++k) out += hex[(v >> (4 * k)) & 15];
  }
  return out;
}

// "user USER on #HASH" and the rest of the user's rules.
std::string UserLine(const std::string& user, const std::string& password,
                     const std::string& rules) {
  return "user " + user + " on #" + util::Sha256Hex(password) + " " + rules + "\n";
}

util::Status WriteAuth(const std::string& path, const std::string& user,
                       const std::string& password) {
  return util::WriteFileAtomicMode(path, user + " " + password + "\n", 0600);
}

}  // namespace

int64_t MaxBulk(int64_t max_entry_bytes) { return std::max(max_entry_bytes, kMiB) + 64 * 1024; }
int64_t OutputHardLimit(int64_t bulk) { return kOutputHardEntries * bulk; }
int64_t OutputSoftLimit(int64_t bulk) { return 2 * bulk; }
int64_t MaxClientMemory(int64_t maxmemory) { return maxmemory / 8; }

namespace {

// The lines of DIR/users.acl after checking that it is the setup of `run`.
util::Result<std::vector<std::string>> ReadAcl(const std::string& dir, const std::string& run) {
  using R = util::Result<std::vector<std::string>>;
  if (util::Status s = util::ValidateName(run, "run", kMaxNameLength); !s.ok()) {
    return s.error_value();
  }
  auto text = util::ReadFile(AclFile(dir), 16 * kMiB);
  if (!text) return R::Error(text.error() + " (run `veletas cluster setup` first)");
  std::vector<std::string> lines;
  std::istringstream in(text.value());
  bool learner = false;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("user " + LearnerUser(run) + " ", 0) == 0) learner = true;
    if (!line.empty()) lines.push_back(line);
  }
  if (!learner) return R::Error(AclFile(dir) + ": not the setup of run \"" + run + "\"");
  return lines;
}

util::Status WriteAcl(const std::string& dir, const std::vector<std::string>& lines) {
  std::string text;
  for (const std::string& l : lines) text += l + "\n";
  return util::WriteFileAtomicMode(AclFile(dir), text, 0600);
}

}  // namespace

std::string AclFile(const std::string& dir) { return (fs::path(dir) / "users.acl").string(); }
std::string ConfFile(const std::string& dir) {
  return (fs::path(dir) / "redis-veletas.conf").string();
}
std::string AuthFile(const std::string& dir, const std::string& user_file) {
  return (fs::path(dir) / (user_file + ".auth")).string();
}
std::string LearnerUser(const std::string& run) { return "vz-learner-" + run; }

util::Status WriteRedisSetup(const RedisSetupOptions& o) {
  if (util::Status s = util::ValidateName(o.run, "run", kMaxNameLength); !s.ok()) return s;
  if (o.max_entry_bytes < 1024) {
    return util::Status::Error("--max-entry-bytes " + std::to_string(o.max_entry_bytes) +
                               ": expected at least 1024");
  }
  const int64_t bulk = MaxBulk(o.max_entry_bytes);
  if (o.maxmemory < 16 * bulk) {
    return util::Status::Error("--maxmemory " + std::to_string(o.maxmemory) +
                               ": expected at least 16 entries' worth (" +
                               std::to_string(16 * bulk) + " bytes)");
  }
  if (util::Status s = util::CreateDirectories(o.dir); !s.ok()) return s;
  if (fs::exists(AclFile(o.dir))) {
    return util::Status::Error(AclFile(o.dir) +
                               ": exists; a setup is written once (add and remove workers "
                               "with `veletas cluster add-worker` / `remove-worker`)");
  }
  const std::string admin = RandomPassword();
  const std::string learner = RandomPassword();
  // The default user is off (nobody logs in as it: every connection must AUTH as a named
  // user) but keeps all rights: Redis 7.0 checks the transactions of its append-only file
  // (MULTI/EXEC, and what XREADGROUP, XAUTOCLAIM and scripts propagate) against the default
  // user's rights as it replays them, and with "-@all" drops them, losing published networks
  // and pending entries at every restart (redis/redis#14541, fixed after 7.0).
  std::string acl = "user default off resetpass ~* &* +@all\n";
  acl += UserLine(kAdminUser, admin, "~* &* +@all");
  acl += UserLine(LearnerUser(o.run), learner, LearnerRules(o.run));
  const std::string abs = fs::absolute(o.dir).lexically_normal().string();
  std::ostringstream conf;
  conf << "# Veletas Zero: Redis for run " << o.run
       << " (written by `veletas cluster setup`; docs/CLUSTER.md)\n"
       << "appendonly yes\nappendfsync everysec\n"
       << "maxmemory " << o.maxmemory << "\nmaxmemory-policy noeviction\n"
       << "proto-max-bulk-len " << bulk << "\nclient-query-buffer-limit " << 2 * bulk << "\n"
       << "client-output-buffer-limit normal " << OutputHardLimit(bulk) << " "
       << OutputSoftLimit(bulk) << " " << kOutputSoftSeconds << "\n"
       << "maxmemory-clients " << MaxClientMemory(o.maxmemory) << "\n"
       << "acllog-max-len " << kAclLogLength << "\n"
       << "aclfile " << (fs::path(abs) / "users.acl").string() << "\n";
  if (util::Status s = WriteAuth(AuthFile(o.dir, "admin"), kAdminUser, admin); !s.ok()) return s;
  if (util::Status s = WriteAuth(AuthFile(o.dir, "learner"), LearnerUser(o.run), learner);
      !s.ok()) {
    return s;
  }
  if (util::Status s = util::WriteFileAtomic(ConfFile(o.dir), conf.str()); !s.ok()) return s;
  return util::WriteFileAtomicMode(AclFile(o.dir), acl, 0600);
}

std::string LearnerRules(const std::string& run) {
  std::string rules = "~" + RunKeys(run).prefix + "* resetchannels +@all -@dangerous";
  for (const std::string& right : LearnerRights()) rules += " " + right;
  return rules;
}

std::vector<std::string> LearnerRights() {
  return {"+info", "+config|get", "+acl|log", "+client|list", "+client|kill", "+client|no-evict"};
}

std::string WorkerAclLine(const std::string& run, const std::string& name,
                          const std::string& sha256_hex) {
  const RunKeys k(run);
  return "user " + k.WorkerUser(name) + " on #" + sha256_hex +
         " resetkeys resetchannels -@all +ping +auth +hello +xadd %W~" + k.WorkerSelfplay(name) +
         " %W~" + k.WorkerArena(name) + " (+get +hmget +llen +lrange %R~" + k.Config() + " %R~" +
         k.Current() + " %R~" + k.Model("*") + " %R~" + k.Queued() + " %R~" +
         k.Stored(k.WorkerSelfplay(name)) + " %R~" + k.Stored(k.WorkerArena(name)) + " %R~" +
         k.Task(name) + ") (+set +del %RW~" + k.Worker(name) + ") (+xlen %R~" +
         k.WorkerSelfplay(name) + ")";
}

util::Result<std::vector<std::string>> MissingLearnerRights(RedisClient& redis) {
  // A harmless use of each right: refused (NOPERM) only when the user lacks it.
  const std::vector<std::pair<std::string, std::vector<std::string_view>>> probes = {
      {"+info", {"INFO", "server"}},
      {"+config|get", {"CONFIG", "GET", "maxmemory"}},
      {"+acl|log", {"ACL", "LOG", "1"}},
      {"+client|list", {"CLIENT", "LIST", "ID", "1"}},
      {"+client|kill", {"CLIENT", "KILL", "ID", "9223372036854775807"}},
      {"+client|no-evict", {"CLIENT", "NO-EVICT", "on"}},
  };
  std::vector<std::string> missing;
  for (const auto& [right, probe] : probes) {
    auto reply = redis.Command(probe);
    if (!reply) return reply.error_value();
    if (reply.value().IsError() && reply.value().str.rfind("NOPERM", 0) == 0) {
      missing.push_back(right);
    }
  }
  return missing;
}

util::Result<std::string> AddWorkerUser(const std::string& dir, const std::string& run,
                                        const std::string& name) {
  using R = util::Result<std::string>;
  if (util::Status s = util::ValidateName(name, "worker name", kMaxNameLength); !s.ok()) {
    return s.error_value();
  }
  if (name == "admin" || name == "learner") {
    return R::Error("worker name \"" + name + "\" is taken by the setup's own credentials");
  }
  auto lines = ReadAcl(dir, run);
  if (!lines) return lines.error_value();
  const std::string user = RunKeys(run).WorkerUser(name);
  for (const std::string& l : lines.value()) {
    if (l.rfind("user " + user + " ", 0) == 0) {
      return R::Error("worker \"" + name + "\" exists in " + AclFile(dir) +
                      " (remove it first to give it a new password)");
    }
  }
  const std::string password = RandomPassword();
  lines.value().push_back(WorkerAclLine(run, name, util::Sha256Hex(password)));
  const std::string auth = AuthFile(dir, name);
  if (util::Status s = WriteAuth(auth, user, password); !s.ok()) return s.error_value();
  if (util::Status s = WriteAcl(dir, lines.value()); !s.ok()) return s.error_value();
  return auth;
}

util::Status RemoveWorkerUser(const std::string& dir, const std::string& run,
                              const std::string& name) {
  if (util::Status s = util::ValidateName(name, "worker name", kMaxNameLength); !s.ok()) return s;
  auto lines = ReadAcl(dir, run);
  if (!lines) return lines.error_value();
  const std::string prefix = "user " + RunKeys(run).WorkerUser(name) + " ";
  std::vector<std::string>& l = lines.value();
  const auto end = std::remove_if(l.begin(), l.end(),
                                  [&](const std::string& x) { return x.rfind(prefix, 0) == 0; });
  if (end == l.end()) {
    return util::Status::Error("worker \"" + name + "\" is not in " + AclFile(dir));
  }
  l.erase(end, l.end());
  if (util::Status s = WriteAcl(dir, l); !s.ok()) return s;
  std::error_code ec;
  fs::remove(AuthFile(dir, name), ec);
  return util::Ok();
}

std::vector<std::string> AclWords(const std::string& line) {
  std::vector<std::string> words;
  std::string word;
  int depth = 0;
  for (char c : line) {
    if (c == '(') ++depth;
    if (c == ')') --depth;
    if (c == ' ' && depth == 0) {
      if (!word.empty()) words.push_back(word);
      word.clear();
    } else {
      word += c;
    }
  }
  if (!word.empty()) words.push_back(word);
  return words;
}

namespace {

// Gives the running server user `line` of users.acl ("user NAME RULES..." as ACL SETUSER
// NAME reset RULES...: the user's connections stay).
util::Status ApplyUserLine(RedisClient& admin, const std::string& line) {
  const std::vector<std::string> words = AclWords(line);
  if (words.size() < 2) return util::Status::Error("users.acl: not a user line: " + line);
  std::vector<std::string> rules{"reset"};
  rules.insert(rules.end(), words.begin() + 2, words.end());
  return AclSetUser(admin, words[1], rules);
}

}  // namespace

util::Result<std::vector<std::string>> UpgradeAclFile(const std::string& dir,
                                                      const std::string& run) {
  auto lines = ReadAcl(dir, run);
  if (!lines) return lines.error_value();
  const RunKeys keys(run);
  std::vector<std::string> changed;
  for (std::string& line : lines.value()) {
    const std::vector<std::string> words = AclWords(line);
    // "user NAME on #HASH ...": the rules are rewritten, the password hash kept.
    if (words.size() < 4 || words[0] != "user" || words[2] != "on" || words[3].size() != 65 ||
        words[3][0] != '#') {
      continue;
    }
    const std::string& user = words[1];
    std::string current;
    if (user == LearnerUser(run)) {
      current = "user " + user + " on " + words[3] + " " + LearnerRules(run);
    } else if (user.rfind(keys.prefix, 0) == 0 &&
               util::ValidateName(user.substr(keys.prefix.size()), "worker", kMaxNameLength).ok()) {
      current = WorkerAclLine(run, user.substr(keys.prefix.size()), words[3].substr(1));
    }
    if (current.empty() || current == line) continue;
    line = current;
    changed.push_back(current);
  }
  if (!changed.empty()) {
    if (util::Status s = WriteAcl(dir, lines.value()); !s.ok()) return s.error_value();
  }
  return changed;
}

util::Result<int> UpgradeUsers(RedisClient& admin, const std::string& dir, const std::string& run) {
  auto changed = UpgradeAclFile(dir, run);
  if (!changed) return changed.error_value();
  for (const std::string& line : changed.value()) {
    if (util::Status s = ApplyUserLine(admin, line); !s.ok()) return s.error_value();
  }
  return static_cast<int>(changed.value().size());
}

util::Status ApplyWorkerChange(RedisClient& admin, const std::string& dir, const std::string& run,
                               const std::string& name, bool add) {
  const RunKeys keys(run);
  const std::string user = keys.WorkerUser(name);
  if (!add) {
    if (util::Status s = AclDeleteUser(admin, user); !s.ok()) return s;
    return UnregisterWorker(admin, keys, name);
  }
  auto lines = ReadAcl(dir, run);
  if (!lines) return lines.error_value();
  for (const std::string& line : lines.value()) {
    if (line.rfind("user " + user + " ", 0) != 0) continue;
    if (util::Status s = ApplyUserLine(admin, line); !s.ok()) return s;
    return RegisterWorker(admin, keys, name);
  }
  return util::Status::Error("worker \"" + name + "\" is not in " + AclFile(dir));
}

util::Result<WorkerChange> ChangeWorker(const std::string& url, const std::string& dir,
                                        const std::string& run, const std::string& name, bool add) {
  auto options = MakeRedisOptions(url, AuthFile(dir, "admin"), "veletas-admin");
  if (!options) return options.error_value();
  RedisClient admin(options.value());
  if (util::Status s = admin.Connect(); !s.ok()) return s.error_value();
  WorkerChange change;
  change.endpoint = options.value().endpoint.ToString();
  // A setup written by an earlier version gets the current rules first (passwords kept).
  auto upgraded = UpgradeUsers(admin, dir, run);
  if (!upgraded) return upgraded.error_value();
  change.upgraded = upgraded.value();
  if (name.empty()) return change;  // `cluster upgrade-acl`
  if (add) {
    auto auth = AddWorkerUser(dir, run, name);
    if (!auth) return auth.error_value();
    change.auth_file = auth.value();
  } else if (util::Status s = RemoveWorkerUser(dir, run, name); !s.ok()) {
    return s.error_value();
  }
  if (util::Status s = ApplyWorkerChange(admin, dir, run, name, add); !s.ok()) {
    return s.error_value();
  }
  return change;
}

}  // namespace veletas::cluster
