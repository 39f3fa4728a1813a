// The files of a run's Redis (`veletas cluster setup`, `cluster add-worker`, `cluster
// remove-worker`; docs/CLUSTER.md): a redis.conf fragment (append-only file, maxmemory with
// noeviction, request sizes bounded by the entry limit, the ACL file), the ACL file (a
// default user nobody can log in as, an admin user, the learner's user, one user per worker
// whose rights are only its own streams) with passwords stored as SHA-256 hashes, and one
// credentials file per user (mode 0600, "USER PASSWORD" as cluster::LoadRedisAuth reads it).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cluster/transport/entry.h"
#include "cluster/transport/keys.h"
#include "cluster/transport/redis_client.h"
#include "util/result.h"

namespace veletas::cluster {

// The user that maintains the ACL (ACL LOAD, DELUSER) and the worker registry.
inline constexpr char kAdminUser[] = "vz-admin";

struct RedisSetupOptions {
  std::string run;                                  // util::ValidateName, kMaxNameLength
  std::string dir;                                  // the setup's directory (created if missing)
  int64_t maxmemory = int64_t{1} << 30;             // bytes Redis may hold (noeviction)
  int64_t max_entry_bytes = kDefaultMaxEntryBytes;  // the learner's cluster.max_entry_bytes
};

// The limits `veletas cluster setup` writes into redis-veletas.conf (docs/CLUSTER.md lists
// them with their default values):
// proto-max-bulk-len: the largest bulk string, an entry of `max_entry_bytes` (or a 1 MiB
// network chunk) and 64 KiB; client-query-buffer-limit is twice that.
int64_t MaxBulk(int64_t max_entry_bytes);
// client-output-buffer-limit normal HARD SOFT kOutputSoftSeconds: a connection whose unread
// replies pass HARD bytes, or stay above SOFT for kOutputSoftSeconds, is closed. HARD holds
// the learner's largest read (kOutputHardEntries entries of the largest size, its default
// cluster.ingest_batch); SOFT two entries (a worker reads at most one 1 MiB chunk at a time).
inline constexpr int64_t kOutputHardEntries = 64;
inline constexpr int kOutputSoftSeconds = 10;
int64_t OutputHardLimit(int64_t bulk);
int64_t OutputSoftLimit(int64_t bulk);
// maxmemory-clients: all connections' buffers together; past it Redis closes the connections
// that use the most (never the learner's, which is marked CLIENT NO-EVICT).
int64_t MaxClientMemory(int64_t maxmemory);
// acllog-max-len: the refusals Redis keeps between two reads of the learner (it empties the
// log each time it counts it, cluster/learner/learner.h).
inline constexpr int kAclLogLength = 1024;

// The files of a setup in `dir`.
std::string AclFile(const std::string& dir);                                 // users.acl
std::string ConfFile(const std::string& dir);                                // redis-veletas.conf
std::string AuthFile(const std::string& dir, const std::string& user_file);  // <name>.auth
// The learner's ACL user of `run`.
std::string LearnerUser(const std::string& run);

// Writes DIR/redis-veletas.conf, DIR/users.acl, DIR/admin.auth and DIR/learner.auth with
// fresh random passwords. Refused (bad input) when DIR/users.acl exists (a setup is written
// once; workers are added and removed after), or when the run name, maxmemory (at least 16
// entries) or max_entry_bytes (at least 1 KiB) is wrong.
util::Status WriteRedisSetup(const RedisSetupOptions& options);

// The users.acl line of worker `name` of `run` with password hash `sha256_hex`: it may XADD
// to its own two result streams, SET/DEL its heartbeat, XLEN its self-play stream, read the
// config, current network, network blobs, the queue count, how far its streams are stored
// and the task handed to it (RunKeys::Task, its own); nothing else (no stream group
// command at all, and no CLIENT SETNAME: a long connection name would push the user out of
// the 1,024 bytes of Redis's log line when it closes the connection, cluster/tools/redis_log.h).
std::string WorkerAclLine(const std::string& run, const std::string& name,
                          const std::string& sha256_hex);

// The learner's rules (what follows "user vz-learner-RUN on #HASH"): every key of the run,
// no dangerous command but LearnerRights.
std::string LearnerRules(const std::string& run);
// The dangerous commands the learner's user may run: INFO, CONFIG GET, ACL LOG (the
// refusals, cluster/learner/redis_guard.h), CLIENT LIST / KILL (connections per worker),
// CLIENT NO-EVICT (its own connections).
std::vector<std::string> LearnerRights();
// Of LearnerRights, those Redis refuses (NOPERM) to the user `redis` is logged in as (a
// users.acl written before they were added): each tried with a harmless command. The error:
// Redis could not be asked.
util::Result<std::vector<std::string>> MissingLearnerRights(RedisClient& redis);

// Rewrites DIR/users.acl (atomically) giving the learner's and every worker's user of `run`
// its current rules (LearnerRules, WorkerAclLine), passwords kept; other users unchanged.
// Returns the lines changed (none when the file is current).
util::Result<std::vector<std::string>> UpgradeAclFile(const std::string& dir,
                                                      const std::string& run);
// UpgradeAclFile, then gives the running server each changed user (ACL SETUSER as `admin`;
// the users' connections stay). Returns how many users changed.
util::Result<int> UpgradeUsers(RedisClient& admin, const std::string& dir, const std::string& run);

// Adds worker `name` to DIR/users.acl (rewritten atomically) with a fresh password and
// writes DIR/<name>.auth (0600). Returns the credentials file's path. Refused (bad input)
// when the name is invalid or taken, or DIR holds no setup of `run`.
util::Result<std::string> AddWorkerUser(const std::string& dir, const std::string& run,
                                        const std::string& name);

// Removes worker `name` from DIR/users.acl and deletes DIR/<name>.auth. Bad input when
// the worker is not in the file.
util::Status RemoveWorkerUser(const std::string& dir, const std::string& run,
                              const std::string& name);

// The words of a users.acl line; a selector "(...)" is one word.
std::vector<std::string> AclWords(const std::string& line);

// Applies a change of DIR's users.acl to the running server, as `admin`, without touching the
// other users' connections (Redis 7.0's ACL LOAD would close them all): adding worker `name`
// (`add`: ACL SETUSER with its line of the file, then registered, its streams made) or
// removing it (ACL DELUSER, which closes its connections; then unregistered, its streams and
// queued games dropped). The file and the server then agree, also after a restart.
util::Status ApplyWorkerChange(RedisClient& admin, const std::string& dir, const std::string& run,
                               const std::string& name, bool add);

// What `cluster add-worker` / `cluster remove-worker` did.
struct WorkerChange {
  std::string endpoint;   // the server changed (host:port)
  std::string auth_file;  // added: the worker's credentials file (its --redis-auth FILE)
  int upgraded = 0;       // users given their current rules first (UpgradeUsers)
};

// `cluster add-worker` (`add`) or `cluster remove-worker`: reaches the running server at `url`
// as the setup's admin (DIR/admin.auth) first, so that the file and the server stay in step,
// upgrades every user of the run to its current rules (UpgradeUsers), then edits
// DIR/users.acl (AddWorkerUser or RemoveWorkerUser) and applies the change
// (ApplyWorkerChange). An empty `name`: the upgrade alone (`cluster upgrade-acl`). Errors:
// those of MakeRedisOptions, the connection, the edit and the change; when the server cannot
// be reached, DIR is left as it was.
util::Result<WorkerChange> ChangeWorker(const std::string& url, const std::string& dir,
                                        const std::string& run, const std::string& name, bool add);

}  // namespace veletas::cluster
