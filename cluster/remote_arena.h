// Arena matches played by the workers (arena::RemoteGames for the gate and the ladder): the
// games asked for are posted as tasks of cluster.arena_games_per_task games (cluster/task.h);
// each game that comes back on the arena stream is checked (cluster/entry.h) and handed to
// the match (arena/arena_journal.h checks it against the match and journals it, flushed)
// before its entry is acknowledged. A game index that no live task covers any more (its
// worker acknowledged the task but its games were rejected) is posted again; a game played
// twice (a reclaimed task) is taken once.
#pragma once

#include <functional>
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
  util::Status Post(const ArenaTask& base, const std::vector<int>& games);
  // Deletes the tasks of `base`'s match that no worker has taken yet (the match is done).
  void DropUntaken(const ArenaTask& base);
  Verdict Judge(const StreamEntry& entry, const ArenaTask& base, std::set<int>& missing,
                const std::function<util::Status(const arena::ArenaGame&)>& accept,
                util::Status& failure);

  IngestSession& session_;
  PublishFn publish_;
};

}  // namespace veletas::cluster
