#include "cluster/learner.h"
#include "util/names.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <random>

#include "cluster/entry.h"
#include "cluster/networks.h"
#include "cluster/remote_arena.h"
#include "cluster/streams.h"
#include "cluster/validate.h"
#include "cluster/worker_registry.h"
#include "cluster/worker_share.h"
#include "data/excluded_games.h"
#include "util/atomic_file.h"
#include "util/clock.h"
#include "util/host.h"
#include "util/json.h"

namespace veletas::cluster {
namespace {

namespace fs = std::filesystem;

constexpr long long kLockMs = 30'000;
constexpr double kLockRefreshSeconds = 5;
// How often a collection counts the live workers (for their shares).
constexpr double kProducersSeconds = 2;

// Refreshes the lock (and its status) only while it holds this learner's token.
// (and takes it again when it expired, e.g. while Redis was down), and puts the run's config
// back if a Redis restarted without its data lost it.
constexpr char kRefreshScript[] =
    "local v = redis.call('get', KEYS[1]) "
    "if (not v) or string.find(v, ARGV[1], 1, true) then "
    "  redis.call('set', KEYS[1], ARGV[2], 'PX', ARGV[3]) "
    "  redis.call('set', KEYS[2], ARGV[4], 'NX') return 1 end "
    "return 0";

// The verdict on one self-play entry before storing it; `game` receives the game to store.
Verdict JudgeSelfplay(const StreamEntry& entry, const CollectRequest& req, int64_t max_bytes,
                      data::IndexedGame& game, std::string& network, std::string& precision,
                      std::vector<selfplay::RootSummary>& summaries) {
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
  if (util::Status s = ValidateSelfplayGame(e.game, req.dir.rules, req.dir.size, &canonical);
      !s.ok()) {
    return {K::kRejected, s.error()};
  }
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

}  // namespace

Learner::Learner(LearnerOptions options)
    : options_(std::move(options)), keys_(options_.run), redis_(options_.redis) {}

Learner::~Learner() {
  stop_ = true;
  if (lock_thread_.joinable()) lock_thread_.join();
  // Let a successor start at once.
  redis_.Command({"EVAL",
                  "local v = redis.call('get', KEYS[1]) if v and string.find(v, ARGV[1], 1, "
                  "true) then return redis.call('del', KEYS[1]) end return 0",
                  "1", keys_.Learner(), token_});
}

util::Result<std::unique_ptr<Learner>> Learner::Start(LearnerOptions options) {
  if (util::Status s = util::ValidateName(options.run, "cluster run name", cluster::kMaxNameLength);
      !s.ok()) {
    return s.error_value();
  }
  // No stream field longer than an entry may be is ever copied out of a reply.
  options.redis.max_string_bytes =
      static_cast<size_t>(std::max<int64_t>(options.cluster.max_entry_bytes, 1 << 20)) + 1;
  std::unique_ptr<Learner> l(new Learner(std::move(options)));
  if (util::Status s = l->redis_.Connect(); !s.ok()) return s.error_value();
  if (util::Status s = l->TakeLock(); !s.ok()) return s.error_value();
  if (util::Status s = EnsureGroup(l->redis_, l->keys_.Tasks(), kWorkerGroup); !s.ok()) {
    return s.error_value();
  }
  auto set = l->redis_.Call({"SET", l->keys_.Config(), l->options_.config_text});
  if (!set) return set.error_value();
  auto epoch = l->redis_.Call({"SET", l->keys_.Epoch(), std::to_string(std::time(nullptr)), "NX"});
  if (!epoch) return epoch.error_value();
  l->session_ =
      std::make_unique<IngestSession>(l->redis_, l->keys_, l->options_.cluster, l->options_.log);
  Learner* self = l.get();
  SpotCheckerOptions spot;
  spot.fraction = l->options_.cluster.spot_check_fraction;
  spot.tolerance.policy_tv = l->options_.cluster.spot_check_policy_tv;
  spot.tolerance.value = l->options_.cluster.spot_check_value;
  spot.search = l->options_.search;
  if (l->options_.load_network) {
    spot.load = [self](const std::string& id, const std::string& precision) {
      return self->CheckNetwork(id, precision);
    };
  }
  l->checker_ = std::make_unique<SpotChecker>(std::move(spot), std::random_device()());
  auto quarantined = l->redis_.Call({"HGETALL", l->keys_.Quarantined()});
  if (!quarantined) return quarantined.error_value();
  const auto& q = quarantined.value().elements;
  for (size_t i = 0; i + 1 < q.size(); i += 2) l->quarantined_[q[i].str] = q[i + 1].str;
  l->session_->OnDataLost([self] { return self->Republish(); });
  l->arena_ = std::make_unique<RemoteArena>(
      *l->session_, [self](const std::string& checkpoint, long long generation) {
        return self->Publish(checkpoint, generation, false);
      });
  l->lock_thread_ = std::thread([self] { self->KeepLock(); });
  return l;
}

util::Status Learner::TakeLock() {
  std::random_device device;
  token_ = std::to_string(device()) + "-" + std::to_string(device());
  std::error_code ec;
  const std::string dir = fs::weakly_canonical(options_.run_dir, ec).string();
  nlohmann::json j = {{"token", token_}, {"host", util::HostName()},    {"pid", ::getpid()},
                      {"run_dir", dir},  {"since", std::time(nullptr)}, {"status", "starting"}};
  const std::string value = j.dump();
  const std::string px = std::to_string(kLockMs);
  auto taken = redis_.Call({"SET", keys_.Learner(), value, "NX", "PX", px});
  if (!taken) return taken.error_value();
  if (!taken.value().IsNil()) return util::Ok();
  auto holder = redis_.Call({"GET", keys_.Learner()});
  if (!holder) return holder.error_value();
  const auto parsed = util::ParseJson(holder.value().str, "the learner lock");
  const nlohmann::json h = parsed ? parsed.value() : nlohmann::json();
  const std::string host = util::JsonValueOr<std::string>(h, "host", "?");
  const std::string holder_dir = util::JsonValueOr<std::string>(h, "run_dir", "?");
  // The same run directory on the same host: an earlier session of this run, dead since this
  // process holds the run directory's lock.
  if (host == util::HostName() && holder_dir == dir) {
    auto set = redis_.Call({"SET", keys_.Learner(), value, "PX", px});
    if (!set) return set.error_value();
    return util::Ok();
  }
  return util::Status::Error("run \"" + options_.run + "\" in redis " +
                             options_.redis.endpoint.ToString() +
                             " is served by another learner (" + host + ", pid " +
                             std::to_string(util::JsonValueOr<long long>(h, "pid", 0)) + ", " +
                             holder_dir + "); stop it, or give this run another cluster.run name");
}

void Learner::KeepLock() {
  RedisClient redis(options_.redis);
  auto last = util::SteadyClock::now();
  while (!stop_) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    if (util::SecondsSince(last) < kLockRefreshSeconds) {
      continue;
    }
    last = util::SteadyClock::now();
    std::error_code ec;
    nlohmann::json j = {{"token", token_},
                        {"host", util::HostName()},
                        {"pid", ::getpid()},
                        {"run_dir", fs::weakly_canonical(options_.run_dir, ec).string()},
                        {"updated", std::time(nullptr)}};
    {
      std::lock_guard<std::mutex> lock(status_mutex_);
      j["status"] = status_;
    }
    redis.Command({"EVAL", kRefreshScript, "2", keys_.Learner(), keys_.Config(), token_, j.dump(),
                   std::to_string(kLockMs), options_.config_text});
    // The workers' backpressure: the games queued in all their streams.
    if (auto queued = QueuedSelfplay(redis, keys_)) {
      // Entries held back over their worker's share do not pause the others.
      const long long n = std::max<long long>(0, queued.value() - held_back_.load());
      redis.Command({"SET", keys_.Queued(), std::to_string(n), "PX", std::to_string(kLockMs)});
    }
  }
}

void Learner::SetStatus(const std::string& status) {
  std::lock_guard<std::mutex> lock(status_mutex_);
  status_ = status;
}

arena::RemoteGames& Learner::Arena() { return *arena_; }

template <class F>
auto Learner::Retrying(F f) -> decltype(f()) {
  bool logged = false;
  for (;;) {
    auto r = f();
    if (r || redis_.Connected() || r.kind() == util::ErrorKind::kBadInput) return r;
    if (!logged && options_.log) options_.log("  cluster: " + r.error() + "; waiting for Redis");
    logged = true;
    std::this_thread::sleep_for(std::chrono::seconds(1));
  }
}

util::Result<std::string> Learner::Publish(const std::string& checkpoint, long long generation,
                                           bool current) {
  auto known = published_.find(checkpoint);
  if (known != published_.end() && !current) return known->second.id;
  auto bytes = options_.network_bytes(checkpoint);
  if (!bytes) return bytes.error_value();
  auto id =
      Retrying([&] { return PublishNetwork(redis_, keys_, bytes.value(), generation, current); });
  if (id) published_[checkpoint] = {id.value(), generation};
  if (id && current) current_ = checkpoint;
  return id;
}

util::Status Learner::Republish() {
  for (const auto& [checkpoint, p] : published_) {
    auto bytes = options_.network_bytes(checkpoint);
    if (!bytes) return bytes.error_value();
    auto id = PublishNetwork(redis_, keys_, bytes.value(), p.generation, checkpoint == current_);
    if (!id) return id.error_value();
  }
  auto set = redis_.Call({"SET", keys_.Config(), options_.config_text});
  if (!set) return set.error_value();
  for (const auto& [worker, why] : quarantined_) {
    auto q = redis_.Call({"HSET", keys_.Quarantined(), worker, why});
    if (!q) return q.error_value();
  }
  return util::Ok();
}

util::Status Learner::Quarantine(const std::string& worker, const std::string& why) {
  int64_t excluded = 0;
  for (const auto& [dir, ids] : checker_->TakeUnverified(worker)) {
    if (util::Status s = data::AddExcludedGames(dir, ids); !s.ok()) return s;
    excluded += static_cast<int64_t>(ids.size());
  }
  if (why.empty()) return util::Ok();  // quarantined already: only its newest games
  quarantined_[worker] = why;
  auto set = Retrying([&] { return redis_.Call({"HSET", keys_.Quarantined(), worker, why}); });
  if (!set) return set.error_value();
  if (options_.log) {
    options_.log("  cluster: worker " + worker + " quarantined (" + why + "); its " +
                 std::to_string(excluded) +
                 " games since its last passed check leave the training window and its further "
                 "games are refused");
  }
  return util::Ok();
}

util::Result<std::unique_ptr<search::Evaluator>> Learner::CheckNetwork(
    const std::string& id, const std::string& precision) {
  for (const auto& [checkpoint, p] : published_) {
    if (p.id == id) return options_.load_network(checkpoint, precision);
  }
  return std::unique_ptr<search::Evaluator>();
}

util::Result<std::set<std::string>> Learner::Networks() {
  auto keys = Retrying([&] { return redis_.Call({"HKEYS", keys_.Models()}); });
  if (!keys) return keys.error_value();
  std::set<std::string> out;
  for (const RedisValue& k : keys.value().elements) out.insert(k.str);
  return out;
}

util::Status Learner::AddEarlierGames(const std::vector<std::string>& dirs) {
  for (const std::string& dir : dirs) {
    if (!earlier_dirs_.insert(dir).second) continue;
    auto ids = ReadGameIds(dir, /*complete=*/true);
    if (!ids) return ids.error_value();
    earlier_.insert(ids.value().begin(), ids.value().end());
  }
  return util::Ok();
}

namespace {

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
  CollectReport& report;  // games_by_worker and samples under report_mutex
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
// check; `checked` says whether a check passed. Errors: a network that could not be loaded.
util::Result<Verdict> SpotCheckEntry(Collecting& c, const std::string& worker,
                                     const std::string& network, const std::string& precision,
                                     const data::IndexedGame& game,
                                     const std::vector<selfplay::RootSummary>& summaries,
                                     bool& checked) {
  using K = Verdict::Kind;
  checked = false;
  if (auto q = c.quarantined.find(worker); q != c.quarantined.end()) {
    return Verdict{K::kRejected, "quarantined: " + q->second.substr(0, 160)};
  }
  std::string why;
  auto outcome = c.checker.Check(network, precision, game.samples, summaries, why);
  if (!outcome) return outcome.error_value();
  if (outcome.value() == SpotChecker::Outcome::kFailed) return Verdict{K::kRejected, why};
  checked = outcome.value() == SpotChecker::Outcome::kPassed;
  return Verdict{K::kAccepted, ""};
}

// After the batch's games are stored, in the order of the entries: a passed check vouches
// for its worker's earlier games, a stored game waits for its worker's next check, and a
// failed check quarantines its worker (its unvouched games leave the training window).
util::Status SettleSpotChecks(Collecting& c, const std::vector<StreamEntry>& entries,
                              const std::vector<Verdict>& verdicts,
                              const std::vector<data::GameId>& ids,
                              const std::vector<bool>& checked) {
  for (size_t i = 0; i < entries.size(); ++i) {
    const std::string& worker = SenderOf(entries[i]);
    const Verdict& v = verdicts[i];
    if (v.kind == Verdict::Kind::kRejected && v.message.rfind("spot check:", 0) == 0) {
      if (!c.quarantined.count(worker)) {
        if (util::Status s = c.quarantine(worker, v.message); !s.ok()) return s;
      }
    } else if (v.kind == Verdict::Kind::kAccepted) {
      if (c.quarantined.count(worker)) {  // later in the batch than its failed check
        c.checker.Stored(worker, c.req.dir.dir, ids[i]);
        if (util::Status s = c.quarantine(worker, ""); !s.ok()) return s;
      } else if (checked[i]) {
        c.checker.Passed(worker);
      } else {
        c.checker.Stored(worker, c.req.dir.dir, ids[i]);
      }
    }
  }
  return util::Ok();
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
  std::vector<bool> checked(entries.size());
  for (size_t i = 0; i < entries.size(); ++i) {
    data::IndexedGame game;
    std::string network, precision;
    std::vector<selfplay::RootSummary> summaries;
    const std::string& w = SenderOf(entries[i]);
    verdicts.push_back(
        JudgeSelfplay(entries[i], c.req, max_entry_bytes, game, network, precision, summaries));
    if (verdicts.back().kind == Verdict::Kind::kAccepted) {
      bool passed = false;
      auto spot = SpotCheckEntry(c, w, network, precision, game, summaries, passed);
      if (!spot) return spot.error_value();
      verdicts.back() = spot.value();
      checked[i] = passed;
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
      case GameStore::Outcome::kDuplicate:
        v.kind = Verdict::Kind::kDuplicate;
        c.reread |= c.share.Untake(SenderOf(entries[where[k]]));
        break;
      case GameStore::Outcome::kFull:
        v.kind = Verdict::Kind::kKeep;  // stays pending for the next iteration
        c.reread |= c.share.Untake(SenderOf(entries[where[k]]));
        break;
    }
  }
  if (util::Status s = SettleSpotChecks(c, entries, verdicts, ids, checked); !s.ok()) {
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
