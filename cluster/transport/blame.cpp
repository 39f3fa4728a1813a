#include "cluster/transport/blame.h"

namespace veletas::cluster {

std::string WorkerOfUser(const RunKeys& keys, const std::string& user) {
  if (user.rfind(keys.prefix, 0) != 0 || user.size() == keys.prefix.size()) return "";
  return user.substr(keys.prefix.size());
}

Refusals SortRefusals(const RunKeys& keys, const std::vector<AclLogEntry>& log) {
  Refusals out;
  for (const AclLogEntry& e : log) {
    const bool login = e.reason == "auth";
    // A refused command ran under its connection's user; a failed login is the connection's
    // only when the connection had logged in as a worker before.
    const std::string worker = WorkerOfUser(keys, login ? e.client_user : e.username);
    if (!worker.empty()) {
      out.by_worker[worker] += e.count;
      if (!out.newest.count(worker)) {
        out.newest[worker] = e.reason + " " + (login ? "as " + e.username : e.object);
      }
      continue;
    }
    if (!login) continue;
    out.failed_logins += e.count;
    if (const std::string as = WorkerOfUser(keys, e.username); !as.empty()) {
      out.logins_as[as] += e.count;
    }
  }
  return out;
}

std::map<std::string, int> ConnectionsByWorker(const RunKeys& keys,
                                               const std::vector<ClientInfo>& clients) {
  std::map<std::string, int> out;
  for (const ClientInfo& c : clients) {
    if (const std::string w = WorkerOfUser(keys, c.user); !w.empty()) ++out[w];
  }
  return out;
}

}  // namespace veletas::cluster
