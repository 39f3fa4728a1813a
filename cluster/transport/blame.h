// What Redis itself can attribute to a worker: the refusals of its ACL LOG and the connections
// of CLIENT LIST, classified by the user of the connection (the one it logged in as), never
// by a name the connection merely claims. A refused command names the user it ran under; a
// failed login (`AUTH name x`, which needs no credentials) names only the name tried, so it is
// attributed to a worker only when it was tried on a connection already logged in as that
// worker, and otherwise counted apart, by the name tried, blaming nobody. Used by the learner
// (which counts the log into the run's stats and empties it, and cuts the connections of a
// worker past its share) and by `veletas cluster status`.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "cluster/transport/keys.h"
#include "cluster/transport/redis_commands.h"

namespace veletas::cluster {

// The connections a worker's user may hold at once: a worker uses one, a restarting one two
// for a while. The learner closes every connection of a user holding more.
inline constexpr int kMaxWorkerConnections = 8;

// The run's stats fields (RunKeys::Stats) the learner counts these into.
inline constexpr char kRefusedByField[] = "refused-by:";  // + worker: commands and logins refused
inline constexpr char kFailedLoginsField[] = "failed-logins";       // logins of no worker's session
inline constexpr char kLoginsAsField[] = "failed-logins-as:";       // + worker: of those, its name
inline constexpr char kConnectionsCutField[] = "connections-cut:";  // + worker: times cut off

// ACL LOG entries sorted by who can be blamed.
struct Refusals {
  // Worker -> commands, keys or channels its user was refused, and logins that failed on a
  // connection logged in as it.
  std::map<std::string, long long> by_worker;
  std::map<std::string, std::string> newest;  // worker -> its newest refusal ("key vz:...")
  // Failed logins on connections of no worker of the run (not logged in, or another user).
  long long failed_logins = 0;
  // Of those, by the worker whose user name was tried (anyone can try any name).
  std::map<std::string, long long> logins_as;
};

// Sorts `log` (newest first, as ACL LOG gives it) for the run of `keys`: entries of users of
// other runs and of the learner or admin are left out, except failed logins.
Refusals SortRefusals(const RunKeys& keys, const std::vector<AclLogEntry>& log);

// The worker whose Redis user is `user` ("vz:<run>:<name>"), "" when it is not one.
std::string WorkerOfUser(const RunKeys& keys, const std::string& user);

// Workers -> how many connections their users hold now, from CLIENT LIST.
std::map<std::string, int> ConnectionsByWorker(const RunKeys& keys,
                                               const std::vector<ClientInfo>& clients);

}  // namespace veletas::cluster
