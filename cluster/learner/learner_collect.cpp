// Learner::CollectSelfplay: an iteration's self-play games judged, spot-checked
// (cluster/learner/spot_checker.h), stored and acknowledged (cluster/learner/learner.h).
#include <chrono>
#include <optional>
#include <set>
#include <thread>

#include "cluster/learner/learner.h"
#include "cluster/learner/validate.h"
#include "cluster/learner/worker_share.h"
#include "cluster/transport/entry.h"
#include "cluster/transport/streams.h"
#include "cluster/transport/worker_registry.h"
#include "model/base/net_config.h"
#include "util/atomic_file.h"
#include "util/clock.h"

namespace veletas::cluster {
namespace {

// How often a collection counts the live workers (for their shares).
constexpr double kProducersSeconds = 2;

// The verdict on one self-play entry before storing it; `game` receives the game to store and
// `resigned`, for a game ended by resignation, its last position (from the same replay).
Verdict JudgeSelfplay(const StreamEntry& entry, const CollectRequest& req, int64_t max_bytes,
                      data::IndexedGame& game, std::string& network,
                      std::optional<model::InferencePrecision>& precision,
                      std::vector<selfplay::RootSummary>& summaries,
                      std::optional<rules::Position>& resigned) {
  using K = Verdict::Kind;
  if (entry.oversized > 0) {
    return {K::kRejected, "oversized: a field of " + std::to_string(entry.oversized) + " bytes"};
  }
  const std::string* bytes = entry.Field("e");
  if (bytes == nullptr) return {K::kRejected, "malformed: no entry field"};
  auto decoded = DecodeEntry(*bytes, max_bytes);
  if (!decoded) return {K::kRejected, decoded.error()};
  Entry& e = decoded.value();
  if (e.kind != EntryKind::kSelfplay) {
    return {K::kRejected, "malformed: an arena entry on the self-play stream"};
  }
  if (e.worker != SenderOf(entry)) {
    return {K::kRejected, "forged: the entry names worker \"" + e.worker.substr(0, 64) + "\""};
  }
  if (e.game_id.IsNone() || e.game.games.size() != 1 || e.game.games.front().id != e.game_id) {
    return {K::kRejected, "malformed: the game id is missing or differs from the game's"};
  }
  if (!req.known.count(e.network)) {
    return {K::kRejected, "unknown network: " + e.network.substr(0, 64)};
  }
  if (!req.accepted.count(e.network)) return {K::kStale, "network " + e.network.substr(0, 12)};
  std::string canonical;
  rules::Position end;
  if (util::Status s = ValidateSelfplayGame(e.game, req.dir.rules, req.dir.size, &canonical, &end);
      !s.ok()) {
    return {K::kRejected, s.error()};
  }
  if (e.game.games.front().resigned) resigned = end;
  game.samples = std::move(e.game.samples);
  summaries = std::move(e.summaries);
  precision = e.precision;
  game.record = std::move(e.game.games.front());
  // Stored in canonical form, under the id of its content (not the one its worker chose):
  // padding is not kept, and one game under many ids is stored once.
  game.record.record = std::move(canonical);
  game.record.id = SelfplayGameId(req.dir.rules, req.dir.size, game.record.record);
  network = e.network;
  return {K::kAccepted, ""};
}

// What one CollectSelfplay call shares between its threads (the local self-play's and the
// ingest loop's).
struct Collecting {
  Collecting(const CollectRequest& r, GameStore& s, CollectReport& out, double max_share,
             std::function<void(const std::string&)> log_line, SpotChecker& spot_checker,
             const std::map<std::string, std::string>& quarantined_workers)
      : req(r),
        store(s),
        report(out),
        share(max_share, r.dir.games),
        log(std::move(log_line)),
        checker(spot_checker),
        quarantined(quarantined_workers) {}
  const CollectRequest& req;
  GameStore& store;
  CollectReport& report;  // games_by_worker, duplicates_by_worker, samples under report_mutex
  WorkerShare share;      // the workers' games (not the local ones), the ingest loop's
  std::function<void(const std::string&)> log;
  SpotChecker& checker;
  const std::map<std::string, std::string>& quarantined;  // worker -> why
  // Quarantines a worker that failed a spot check (Learner::Quarantine).
  std::function<util::Status(const std::string& worker, const std::string& why)> quarantine;
  // A game counted toward a share was not stored while entries are held back: they may fit
  // now, the pending entries are read again.
  bool reread = false;
  std::mutex report_mutex;
  std::atomic<bool> local_stop{false};
  std::atomic<int64_t> local_games{0};
  util::Status local_status = util::Ok();
  const util::SteadyClock::time_point start = util::SteadyClock::now();
};

// Starts the request's local self-play (req.local) on a thread of its own, each game into
// the store, until the store is full or c.local_stop.
std::thread StartLocalSelfplay(Collecting& c) {
  return std::thread([&c] {
    c.local_status = c.req.local(
        [&c](selfplay::FinishedGame&& g) -> util::Status {
          data::IndexedGame game;
          game.samples = std::move(g.samples);
          game.record = std::move(g.record);
          game.record.id = RandomGameId();
          const int64_t samples = static_cast<int64_t>(game.samples.size());
          std::vector<data::IndexedGame> one;
          one.push_back(std::move(game));
          auto added = c.store.Add(std::move(one));
          if (!added) return added.error_value();
          if (added.value().front() == GameStore::Outcome::kStored) {
            ++c.local_games;
            std::lock_guard<std::mutex> lock(c.report_mutex);
            ++c.report.games_by_worker["local"];
            c.report.samples += samples;
          }
          if (c.store.Full()) c.local_stop = true;
          return util::Ok();
        },
        c.local_stop);
  });
}

// The verdict on an accepted entry of a quarantined worker, or one that fails its spot
// check (also its resignation at `resigned`, if any); `outcome` is the check's (kUnchecked for
// a quarantined worker). Errors: a network that could not be loaded.
util::Result<Verdict> SpotCheckEntry(Collecting& c, const std::string& worker,
                                     const std::string& network,
                                     std::optional<model::InferencePrecision> precision,
                                     const data::IndexedGame& game,
                                     const std::vector<selfplay::RootSummary>& summaries,
                                     const std::optional<rules::Position>& resigned,
                                     SpotChecker::Outcome& outcome) {
  using K = Verdict::Kind;
  outcome = SpotChecker::Outcome::kUnchecked;
  if (auto q = c.quarantined.find(worker); q != c.quarantined.end()) {
    return Verdict{K::kRejected, "quarantined: " + q->second.substr(0, 160)};
  }
  std::string why;
  auto checked = c.checker.Check(network, precision, game.samples, summaries,
                                 resigned ? &*resigned : nullptr, why);
  if (!checked) return checked.error_value();
  outcome = checked.value();
  if (outcome == SpotChecker::Outcome::kFailed) return Verdict{K::kRejected, why};
  if (outcome == SpotChecker::Outcome::kUnreproducible) {
    // A declared precision the learner cannot run would escape every check: a few such games
    // are taken (unverified until the worker passes a check), then its games are refused.
    const int64_t n = c.checker.Unreproducible(worker);
    if (n > kMaxUnreproducibleGames) {
      return Verdict{K::kRejected,
                     "unverifiable: the learner cannot run the declared precision " +
                         std::string(precision ? model::InferencePrecisionName(*precision) : "?") +
                         " to spot-check this worker's games (" + std::to_string(n) +
                         " so far, limit " + std::to_string(kMaxUnreproducibleGames) +
                         "); run the worker at a precision the learner's CPU has"};
    }
  }
  return Verdict{K::kAccepted, ""};
}

// After the batch's games are stored, in the order of the entries: a passed check vouches
// for its worker's earlier games, a stored game waits for its worker's next check, and a
// failed check quarantines its worker (its unvouched games leave the training window, also
// those the batch stored after the failure).
util::Status SettleSpotChecks(Collecting& c, const std::vector<StreamEntry>& entries,
                              const std::vector<Verdict>& verdicts,
                              const std::vector<data::GameId>& ids,
                              const std::vector<SpotChecker::Outcome>& outcomes) {
  using O = SpotChecker::Outcome;
  std::set<std::string> failed;  // quarantined by this batch
  for (size_t i = 0; i < entries.size(); ++i) {
    const std::string& worker = SenderOf(entries[i]);
    if (outcomes[i] == O::kFailed) {
      if (!c.quarantined.count(worker)) {
        if (util::Status s = c.quarantine(worker, verdicts[i].message); !s.ok()) return s;
        failed.insert(worker);
      }
    } else if (verdicts[i].kind == Verdict::Kind::kAccepted) {
      if (outcomes[i] == O::kPassed && !failed.count(worker)) {
        c.checker.Passed(worker);
      } else {
        c.checker.Stored(worker, c.req.dir.dir, ids[i]);
      }
    }
  }
  for (const std::string& worker : failed) {
    if (util::Status s = c.quarantine(worker, ""); !s.ok()) return s;
  }
  return c.checker.SaveUnverified();
}

// Judges `entries`, spot-checks a share of them, stores the accepted games and sets each
// entry's verdict (a duplicate, or kept pending when the store is full).
util::Result<std::vector<Verdict>> StoreEntries(Collecting& c,
                                                const std::vector<StreamEntry>& entries,
                                                int64_t max_entry_bytes) {
  std::vector<Verdict> verdicts;
  std::vector<data::IndexedGame> games;
  std::vector<size_t> where;  // entry of each game
  std::vector<data::GameId> ids(entries.size());
  std::vector<SpotChecker::Outcome> outcomes(entries.size(), SpotChecker::Outcome::kUnchecked);
  for (size_t i = 0; i < entries.size(); ++i) {
    data::IndexedGame game;
    std::string network;
    std::optional<model::InferencePrecision> precision;
    std::vector<selfplay::RootSummary> summaries;
    std::optional<rules::Position> resigned;  // where the game's resigning player was to move
    const std::string& w = SenderOf(entries[i]);
    verdicts.push_back(JudgeSelfplay(entries[i], c.req, max_entry_bytes, game, network, precision,
                                     summaries, resigned));
    if (verdicts.back().kind == Verdict::Kind::kAccepted) {
      auto spot = SpotCheckEntry(c, w, network, precision, game, summaries, resigned, outcomes[i]);
      if (!spot) return spot.error_value();
      verdicts.back() = spot.value();
    }
    if (verdicts.back().kind == Verdict::Kind::kAccepted && !c.share.Take(w)) {
      // Over its worker's share: pending for the next generation.
      verdicts.back().kind = Verdict::Kind::kKeep;
      if (c.share.HeldByWorker().at(w) == 1 && c.log) {
        c.log("  cluster: worker " + w + " has filled its share of this generation (" +
              std::to_string(c.share.Cap()) + " games); its further games wait for the next");
      }
    }
    if (verdicts.back().kind == Verdict::Kind::kAccepted) {
      ids[i] = game.record.id;
      games.push_back(std::move(game));
      where.push_back(i);
    }
  }
  std::vector<int64_t> samples;
  for (const data::IndexedGame& g : games)
    samples.push_back(static_cast<int64_t>(g.samples.size()));
  auto added = c.store.Add(std::move(games));
  if (!added) return added.error_value();
  for (size_t k = 0; k < where.size(); ++k) {
    Verdict& v = verdicts[where[k]];
    switch (added.value()[k]) {
      case GameStore::Outcome::kStored: {
        std::lock_guard<std::mutex> lock(c.report_mutex);
        ++c.report.games_by_worker[SenderOf(entries[where[k]])];
        c.report.samples += samples[k];
        break;
      }
      case GameStore::Outcome::kDuplicate: {
        v.kind = Verdict::Kind::kDuplicate;
        c.reread |= c.share.Untake(SenderOf(entries[where[k]]));
        std::lock_guard<std::mutex> lock(c.report_mutex);
        ++c.report.duplicates_by_worker[SenderOf(entries[where[k]])];
        break;
      }
      case GameStore::Outcome::kFull:
        v.kind = Verdict::Kind::kKeep;  // stays pending for the next iteration
        c.reread |= c.share.Untake(SenderOf(entries[where[k]]));
        break;
    }
  }
  if (util::Status s = SettleSpotChecks(c, entries, verdicts, ids, outcomes); !s.ok()) {
    return s.error_value();
  }
  return verdicts;
}

// Calls req.progress at most once a second (`at`: the last call).
void ReportCollectProgress(Collecting& c, util::SteadyClock::time_point& at) {
  if (!c.req.progress || util::SecondsSince(at) < 1) return;
  at = util::SteadyClock::now();
  CollectProgress p;
  p.games = c.store.Count();
  p.target = c.req.dir.games;
  p.local_games = c.local_games;
  p.seconds = util::SecondsSince(c.start);
  {
    std::lock_guard<std::mutex> lock(c.report_mutex);
    p.workers = static_cast<int>(c.report.games_by_worker.size());
  }
  c.req.progress(p);
}

// The call's totals: its games and the ingest counters from `before` to `after`.
void FillCollectTotals(Collecting& c, const IngestCounters& before, const IngestCounters& after) {
  CollectProgress& t = c.report.totals;
  t.games = c.store.Count();
  t.target = c.req.dir.games;
  t.local_games = c.local_games;
  t.workers = static_cast<int>(c.report.games_by_worker.size());
  t.seconds = util::SecondsSince(c.start);
  t.counters.accepted = after.accepted - before.accepted;
  t.counters.duplicates = after.duplicates - before.duplicates;
  t.counters.stale = after.stale - before.stale;
  t.counters.rejected = after.rejected - before.rejected;
  for (const auto& [reason, n] : after.rejected_by_reason) {
    const auto it = before.rejected_by_reason.find(reason);
    const int64_t d = n - (it == before.rejected_by_reason.end() ? 0 : it->second);
    if (d > 0) t.counters.rejected_by_reason[reason] = d;
  }
}

}  // namespace

util::Result<CollectReport> Learner::CollectSelfplay(const CollectRequest& req) {
  CollectReport report;
  auto opened = GameStore::Open(req.dir, &earlier_, report.notes);
  if (!opened) return opened.error_value();
  GameStore& store = *opened.value();
  report.resumed = store.Count();
  Collecting c(req, store, report, options_.cluster.max_worker_share, options_.log, *checker_,
               quarantined_);
  c.quarantine = [this](const std::string& worker, const std::string& why) {
    return Quarantine(worker, why);
  };
  std::thread local;
  if (req.local && !store.Full()) local = StartLocalSelfplay(c);
  session_->Restart();
  const IngestCounters before = session_->Totals();
  util::Status status = util::Ok();
  auto progress_at = util::SteadyClock::now();
  auto producers_at = progress_at - std::chrono::hours(1);
  const EntryKind kind = EntryKind::kSelfplay;
  while (!store.Full() && status.ok()) {
    if (util::SecondsSince(producers_at) >= kProducersSeconds) {
      producers_at = util::SteadyClock::now();
      // A worker that stopped lifts the others' share: what they held back is read again.
      if (auto live = LiveWorkers(redis_, keys_);
          live && c.share.SetProducers(live.value() + (req.local ? 1 : 0))) {
        session_->Restart();
        c.share.ClearHeld();
      }
    }
    auto entries = session_->Next(kind);
    if (!entries) {
      status = entries.error_value();
      break;
    }
    auto verdicts = StoreEntries(c, entries.value(), options_.cluster.max_entry_bytes);
    if (!verdicts) {
      status = verdicts.error_value();
      break;
    }
    status = session_->Settle(kind, entries.value(), verdicts.value());
    if (c.reread) {
      session_->Restart();
      c.share.ClearHeld();
      c.reread = false;
    }
    held_back_ = c.share.Held();
    ReportCollectProgress(c, progress_at);
  }
  held_back_ = 0;
  report.held_by_worker = c.share.HeldByWorker();
  c.local_stop = true;
  if (local.joinable()) local.join();
  if (!status.ok()) return status.error_value();
  session_->Trim(kind);
  if (!c.local_status.ok()) return c.local_status.error_value();
  // The iteration is complete: its ids, for the later iterations and a restarted learner.
  std::string text;
  const std::vector<data::GameId> ids = store.Ids();
  for (const data::GameId& id : ids) text += id.Hex() + "\n";
  if (util::Status s = util::WriteFileAtomic(GameIdsPath(req.dir.dir), text); !s.ok()) {
    return s.error_value();
  }
  earlier_.insert(ids.begin(), ids.end());
  earlier_dirs_.insert(req.dir.dir);
  FillCollectTotals(c, before, session_->Totals());
  return report;
}

}  // namespace veletas::cluster
