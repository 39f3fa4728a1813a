// Arena matches played by the workers (arena::RemoteGames for the gate and the ladder): the
// games asked for are posted as tasks of cluster.arena_games_per_task games (cluster/task.h);
// each game that comes back on the arena stream is checked (cluster/entry.h) and handed to
// the match (arena/arena_journal.h checks it against the match and journals it, flushed)
// before its entry is acknowledged. A game index that no live task covers any more is posted
// again; a game played twice (a reassigned task) is taken once.
//
// Tasks are bound to their holder: the consumer that read the task (XREADGROUP, consumer
// name = the worker) holds it until the learner acknowledges it, which it alone does (the
// workers' ACL has no XACK, XCLAIM or XAUTOCLAIM): once all the task's games are accepted, or
// when its lease ends. A game is accepted only from a worker that holds (or held) a task
// naming that game; any other result is rejected ("not held") and counted against its
// sender. A task's lease is renewed while its holder's heartbeat names it; a task whose
// holder has not named it for cluster.task_timeout_seconds (0: at the next check) is taken
// back and its missing games are posted again at once.
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "arena/arena_journal.h"
#include "cluster/ingest_session.h"
#include "cluster/task.h"
#include "util/result.h"

namespace veletas::cluster {

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
  // The consumer that holds task `id` ("" when none); an error when Redis is gone.
  util::Result<std::string> Holder(const std::string& id);
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
};

}  // namespace veletas::cluster
