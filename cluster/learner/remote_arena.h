// Arena matches played by the workers (arena::RemoteGames for the gate and the ladder): the
// games asked for are posted as tasks of cluster.arena_games_per_task games
// (cluster/transport/task.h); each game that comes back on the arena stream is checked
// (cluster/transport/entry.h) and handed to the match (arena/arena_journal.h checks it against the
// match and journals it, flushed) before its entry is acknowledged. A game index that no live task
// covers any more is posted again; a game played twice (a reassigned task) is taken once.
//
// Tasks are bound to their holder: the consumer that read the task (XREADGROUP, consumer
// name = the worker) holds it until the learner acknowledges it, which it alone does (the
// workers' ACL has no XACK, XCLAIM or XAUTOCLAIM): once all the task's games are accepted, or
// when its lease ends. A game is accepted only from a worker that holds (or held) a task
// naming that game; any other result is rejected ("not held") and counted against its
// sender. A task's lease is renewed while its holder's heartbeat names it; a task whose
// holder has not named it for cluster.task_timeout_seconds (0: at the next check) is taken
// back and its missing games are posted again at once. So is a task held past
// cluster.task_max_seconds, or past 4 times the median time of the last 64 completed tasks
// (once 3 are known; never before the lease), whatever the heartbeat says: a heartbeat
// naming a task it does not play cannot stall a match. A task taken back can still be
// completed by its former holder.
#pragma once

#include <chrono>
#include <deque>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "arena/arena_journal.h"
#include "cluster/learner/ingest_session.h"
#include "cluster/transport/task.h"
#include "config/cluster_settings.h"
#include "util/result.h"

namespace veletas::cluster {

// A held task's limit in seconds, after which the learner takes it back whatever its holder's
// heartbeat says: config.task_max_seconds, or, once kMinTaskTimes tasks have completed
// (`completed`: how long each was held), kSlowTaskFactor times their median when that is
// shorter, but never below config.task_timeout_seconds.
inline constexpr double kSlowTaskFactor = 4;
inline constexpr size_t kMinTaskTimes = 3;
double HeldTaskLimit(const std::deque<double>& completed, const config::ClusterConfig& config);

class RemoteArena final : public arena::RemoteGames {
 public:
  // Publishes a player's network and returns its id (Learner::Publish).
  using PublishFn =
      std::function<util::Result<std::string>(const std::string& checkpoint, long long generation)>;
  RemoteArena(IngestSession& session, PublishFn publish)
      : session_(session), publish_(std::move(publish)) {}

  util::Status Play(const arena::RemoteMatch& match, const std::vector<int>& indices,
                    const std::function<util::Status(const arena::ArenaGame&)>& accept) override;

 private:
  util::Result<ArenaTask> TaskOf(const arena::RemoteMatch& match);
  // The game indices of `base`'s match that tasks still waiting or in play cover.
  util::Result<std::set<int>> Covered(const ArenaTask& base);
  // Posts `games` as tasks and remembers them (tasks_).
  util::Status Post(const ArenaTask& base, const std::vector<int>& games);
  // Renews the lease of every pending task of this match whose holder's heartbeat names it;
  // takes back (XACK) those whose lease ran out and adds their games to `freed`.
  util::Status Leases(std::set<int>& freed);
  struct TaskHolder {
    std::string name;    // the consumer; "" when nobody holds the task
    double seconds = 0;  // since Redis last delivered the task to it (its idle time)
  };
  // Who holds task `id`; an error when Redis is gone.
  util::Result<TaskHolder> Holder(const std::string& id);
  // How long task `id` has been held, given Redis's `idle` seconds for it: the longer of that
  // and the time since this arena first saw it held (a holder re-reading its task resets
  // Redis's idle time, not this).
  double HeldSeconds(const std::string& id, double idle);
  // OK when `sender` holds or held task `id` of this match and it names game `index`, or
  // when the game is `taken` already and nobody holds the task any more (a late copy); else
  // bad input saying why not ("not held: ..."). The outer error: Redis is gone.
  util::Result<util::Status> Held(const std::string& sender, const std::string& id, int index,
                                  bool taken);
  // Acknowledges task `id` once none of its games is missing.
  void AckIfComplete(const std::string& id, const std::set<int>& missing);
  // Acknowledges every task of this match still pending (the match is done).
  void AckAll();
  // Deletes the tasks of `base`'s match that no worker has taken yet (the match is done).
  void DropUntaken(const ArenaTask& base);
  Verdict Judge(const StreamEntry& entry, const ArenaTask& base, std::set<int>& missing,
                const std::function<util::Status(const arena::ArenaGame&)>& accept,
                util::Status& failure);

  IngestSession& session_;
  PublishFn publish_;
  std::string match_;  // the match that tasks_, former_ and lease_ are of
  // The current match's tasks by stream id.
  std::map<std::string, ArenaTask> tasks_;
  // Task id -> the worker that held it until the learner took it back or completed it.
  std::map<std::string, std::string> former_;
  // Task id -> when its holder's heartbeat last named it (or when it was first seen held).
  std::map<std::string, std::chrono::steady_clock::time_point> lease_;
  // Task id -> when it was delivered to its holder, as first seen (HeldSeconds).
  std::map<std::string, std::chrono::steady_clock::time_point> held_since_;
  // How long the last completed tasks (of every match) were held, oldest first.
  std::deque<double> task_seconds_;
};

}  // namespace veletas::cluster
