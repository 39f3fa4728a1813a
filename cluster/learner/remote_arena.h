// Arena matches played by the workers (arena::RemoteGames for the gate and the ladder): the
// games asked for are handed to the workers as tasks of cluster.arena_games_per_task games
// (cluster/transport/task.h), each task to one worker in a key of that worker's own
// (cluster/transport/task_handout.h); each game that comes back on the arena stream is checked
// (cluster/transport/entry.h) and handed to the match (arena/arena_journal.h checks it against
// the match and journals it, flushed) before its entry is acknowledged.
//
// The learner alone decides who holds what, and its record is the workers' task keys (which
// the workers may only read), so no worker can take a task unseen. Every kRoundSeconds it
// reads each registered worker's heartbeat and task key and:
// - adopts this match's tasks that it finds handed out but does not know (a restarted
//   learner), withdraws tasks of other matches, and writes again a key that is gone (deleted
//   by hand, a Redis that lost its data);
// - renews the lease of each task its holder's heartbeat names; takes back (deletes the key)
//   a task whose holder has not named it for cluster.task_timeout_seconds (0: at the next
//   round), or that was held past cluster.task_max_seconds or 4 times the median time of the
//   last 64 completed tasks (once 3 are known; never before the lease), whatever the
//   heartbeat says; its missing games are handed out again at once;
// - hands the games that no task covers to idle workers: alive (heartbeat key), naming no
//   task in their heartbeat, holding none; one task each, those with the fewest tasks of
//   this match taken back first (a worker that lets tasks go stale gets new ones only when no
//   other worker is idle).
// A game is accepted only from a worker that holds (or held) a task naming that game; any
// other result is rejected ("not held") and counted against its sender. A task is done (its
// key deleted) once all its games are accepted; a task taken back can still be completed by
// its former holder.
#pragma once

#include <chrono>
#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "arena/arena_journal.h"
#include "cluster/learner/ingest_session.h"
#include "cluster/transport/task.h"
#include "cluster/transport/task_handout.h"
#include "config/cluster_settings.h"
#include "util/clock.h"
#include "util/result.h"

namespace veletas::cluster {

// A held task's limit in seconds, after which the learner takes it back whatever its holder's
// heartbeat says: config.task_max_seconds, or, once kMinTaskTimes tasks have completed
// (`completed`: how long each was held), kSlowTaskFactor times their median when that is
// shorter, but never below config.task_timeout_seconds.
inline constexpr double kSlowTaskFactor = 4;
inline constexpr size_t kMinTaskTimes = 3;
double HeldTaskLimit(const std::deque<double>& completed, const config::ClusterConfig& config);

// The task a worker's heartbeat (JSON) names, "" when it names none (or is not JSON, or is
// longer than kMaxHeartbeatBytes).
inline constexpr size_t kMaxHeartbeatBytes = 64 * 1024;
std::string HeartbeatTask(const std::string& heartbeat);

// The workers to hand the next tasks to, best first: of `idle`, those with the fewest tasks
// taken back (`taken_back`, worker -> count; absent: 0), ties in the order of `idle`.
std::vector<std::string> HandOutOrder(const std::vector<std::string>& idle,
                                      const std::map<std::string, int>& taken_back);

class RemoteArena final : public arena::RemoteGames {
 public:
  // Publishes a player's network and returns its id (Learner::Publish).
  using PublishFn =
      std::function<util::Result<std::string>(const std::string& checkpoint, long long generation)>;
  RemoteArena(IngestSession& session, PublishFn publish);

  util::Status Play(const arena::RemoteMatch& match, const std::vector<int>& indices,
                    const std::function<util::Status(const arena::ArenaGame&)>& accept) override;

  // How often the workers' task keys and heartbeats are read (leases, hand-outs).
  static constexpr double kRoundSeconds = 1;

 private:
  // A task handed out and not yet done or taken back.
  struct Hand {
    std::string worker;
    util::SteadyClock::time_point since;  // handed out (or first seen, when adopted)
    util::SteadyClock::time_point named;  // its holder's heartbeat last named it
  };
  util::Result<ArenaTask> TaskOf(const arena::RemoteMatch& match);
  // One round of the hand-out (the header's comment). `missing`: the games still wanted.
  util::Status Round(const ArenaTask& base, const std::set<int>& missing);
  // Step of Round: compares the workers' keys with handed_ (adopts, withdraws, writes again).
  util::Status Reconcile(const ArenaTask& base, const std::set<int>& missing,
                         const std::map<std::string, WorkerTaskState>& states);
  // Step of Round: takes back the tasks whose lease or limit ran out.
  util::Status Leases(const std::map<std::string, WorkerTaskState>& states);
  // Step of Round: hands the games no task covers to the idle workers.
  util::Status HandOut(const ArenaTask& base, const std::set<int>& missing,
                       const std::map<std::string, WorkerTaskState>& states);
  // Deletes task `id`'s key and forgets the hand-out (its holder becomes its former holder);
  // `why` non-empty: counted (`reassigned`, `taken-back:<worker>`) and logged.
  util::Status TakeBack(const std::string& id, const std::string& why);
  // OK when `sender` holds or held task `id` of this match and it names game `index`, or
  // when the game is `taken` already and nobody holds the task any more (a late copy); else
  // bad input saying why not ("not held: ...").
  util::Status Held(const std::string& sender, const std::string& id, int index, bool taken) const;
  // Marks task `id` done once none of its games is missing.
  void CompleteIfDone(const std::string& id, const std::set<int>& missing);
  Verdict Judge(const StreamEntry& entry, const ArenaTask& base, std::set<int>& missing,
                const std::function<util::Status(const arena::ArenaGame&)>& accept,
                util::Status& failure);

  IngestSession& session_;
  PublishFn publish_;
  std::string id_prefix_;  // this learner's task ids: "<start in ms>-<n>"
  long long next_id_ = 0;
  std::string match_;  // the match that tasks_, handed_, former_ and taken_back_ are of
  // The current match's tasks by id (every task handed out).
  std::map<std::string, ArenaTask> tasks_;
  // Task id -> its hand-out, while it is held.
  std::map<std::string, Hand> handed_;
  // Task id -> the worker that held it until the learner took it back or it was done.
  std::map<std::string, std::string> former_;
  // Worker -> tasks of the current match taken back from it.
  std::map<std::string, int> taken_back_;
  // How long the last completed tasks (of every match) were held, oldest first.
  std::deque<double> task_seconds_;
  std::string trouble_;  // why the last round failed (Redis full or gone), "" after one passed
};

}  // namespace veletas::cluster
