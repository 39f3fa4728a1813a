#include "selfplay/selfplay_engine.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <filesystem>
#include <iterator>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <thread>
#include <vector>

#include "data/game_journal.h"
#include "data/sample_dir.h"
#include "data/sample_dir_writer.h"
#include "data/sample_file.h"
#include "search/batching_evaluator.h"
#include "search/mcts.h"
#include "search/search_driver.h"
#include "selfplay/selfplay_game.h"
#include "util/atomic_file.h"
#include "util/clock.h"
#include "util/names.h"
#include "util/run_dir.h"
#include "util/settings_check.h"

namespace veletas::selfplay {
namespace {

// One game slot of a worker: the game and its search tree (kept across games).
struct Slot {
  explicit Slot(const SelfplayConfig& config) : game(config) {}
  SelfplayGame game;
  std::unique_ptr<search::Mcts> mcts;
  bool active = false;  // holds a game
  Budget budget;        // of the search in progress
};

class Engine {
 public:
  Engine(const SelfplayConfig& config, const search::SearchConfig& search,
         const search::BatchingConfig& batching, search::Evaluator& backend, const SelfplayJob& job,
         const SelfplayHooks& hooks, std::vector<uint64_t> indices, int64_t total, int64_t resumed,
         std::vector<data::JournalGame> recovered)
      : config_(config),
        job_(job),
        hooks_(hooks),
        full_search_(search),
        cheap_search_(search),
        evaluator_(backend, batching),
        indices_(std::move(indices)),
        total_(static_cast<size_t>(total)),
        recovered_(std::move(recovered)) {
    cheap_search_.root_noise = false;
    stats_.games_target = total;
    stats_.games_resumed = resumed + static_cast<int64_t>(recovered_.size());
    stats_.max_batch = batching.max_batch;
    if (!job.out_dir.empty()) {
      writer_ = std::make_unique<data::SampleDirWriter>(data::SampleDirOptions{
          job.out_dir, job.prefix, job.games, config.games_per_file, job.rules, job.size});
    }
  }

  util::Result<SelfplayStats> Run() {
    start_ = util::SteadyClock::now();
    // Files whose every game was in the journal (killed before the file was written).
    if (writer_) {
      if (util::Status s = writer_->Restore(std::move(recovered_)); !s.ok()) return s.error_value();
    }
    std::vector<std::thread> threads;
    workers_left_ = config_.threads;
    for (int t = 0; t < config_.threads; ++t) threads.emplace_back([this] { Worker(); });
    {
      std::unique_lock<std::mutex> lock(mutex_);
      const auto interval = std::chrono::duration<double>(std::max(0.01, hooks_.progress_seconds));
      while (workers_left_ > 0) {
        done_cv_.wait_for(lock, interval, [&] { return workers_left_ == 0; });
        if (workers_left_ > 0 && hooks_.progress) {
          lock.unlock();
          // The workers must be joined whatever the hook does: its exception ends the run.
          try {
            hooks_.progress(Snapshot());
          } catch (const std::exception& e) {
            Fail(util::Error{std::string("self-play progress: ") + e.what(),
                             util::ErrorKind::kFailure});
          }
          lock.lock();
        }
      }
    }
    for (std::thread& t : threads) t.join();
    if (failed_) return error_;
    return Snapshot();
  }

 private:
  bool Stopping() const { return failed_ || (hooks_.stop != nullptr && hooks_.stop->load()); }

  void Fail(const util::Error& error) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!failed_) error_ = error;
    failed_ = true;
  }

  SelfplayStats Snapshot() {
    SelfplayStats s;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      s = stats_;
    }
    const search::BatchingEvaluator::Stats e = evaluator_.GetStats();
    s.evaluations = e.evaluations;
    s.cache_hits = e.cache_hits;
    s.batches = e.batches;
    s.network_positions = e.backend_positions;
    s.searches = searches_.load(std::memory_order_relaxed);
    s.seconds = util::SecondsSince(start_);
    if (writer_) s.files_written = writer_->FilesWritten();
    return s;
  }

  // Claims the next game index for `s` and sets the game up; false when none is left.
  bool StartNextGame(Slot& s) {
    if (Stopping() || (hooks_.drain != nullptr && hooks_.drain->load())) return false;
    const size_t i = next_.fetch_add(1);
    if (i >= total_) return false;
    const uint64_t index = indices_.empty() ? i : indices_[i];
    const uint64_t seed = GameSeed(config_.seed, job_.generation, index);
    s.game.Start(job_.rules, job_.size, index, seed);
    s.mcts->Clear();
    s.mcts->Seed(~seed);
    s.mcts->SetPosition(s.game.Pos());
    s.active = true;
    return true;
  }

  // Brings `s` to its next search (playing forced actions, finishing ended games and
  // starting new ones on the way) and starts it. False when the slot has nothing left.
  bool Prepare(Slot& s) {
    for (;;) {
      if (!s.active && !StartNextGame(s)) return false;
      if (s.game.Over()) {
        Output(s.game.Finish());
        s.active = false;
        continue;
      }
      const rules::Position& pos = s.game.Pos();
      const rules::ActionSet legal = pos.LegalActions();
      if (legal.Count() == 1) {
        const rules::Action a = legal.pass ? pos.PassAction() : *legal.squares.begin();
        s.game.Apply(a, /*forced=*/true);
        s.mcts->Advance(a);
        continue;
      }
      s.budget = s.game.DrawBudget();
      s.mcts->SetConfig(s.budget.full ? full_search_ : cheap_search_);
      s.mcts->StartSearch(s.budget.full ? config_.full_simulations : config_.cheap_simulations);
      return true;
    }
  }

  // The search of `s` has finished: record, resign or play.
  void Decide(Slot& s) {
    const search::SearchResult r = s.mcts->Result();
    searches_.fetch_add(1, std::memory_order_relaxed);
    s.game.CountDecision(s.budget.full);
    // Chosen first, so that a setup sample can take the played action's value. (Only setup
    // decisions draw from the game's random stream here, and they never resign.)
    const rules::Action a = s.game.ChooseAction(r);
    // A resignation ends the game before this decision is played or recorded: the record
    // stops at the turn start where its player resigned, so a sample there would be of no
    // position of the record (a learner refuses such a game: cluster/learner/validate.h).
    if (s.game.CheckResign(r.value)) return;  // Over() now; Prepare finishes it
    if (s.budget.record) s.game.RecordSample(r, a);
    s.game.Apply(a);
    s.mcts->Advance(a);
  }

  void Worker() {
    try {
      WorkerLoop();
    } catch (const std::exception& e) {
      Fail(util::Error{std::string("self-play worker: ") + e.what(), util::ErrorKind::kFailure});
    } catch (...) {
      Fail(util::Error{"self-play worker: unknown exception", util::ErrorKind::kFailure});
    }
    std::lock_guard<std::mutex> lock(mutex_);
    --workers_left_;
    done_cv_.notify_all();
  }

  void WorkerLoop() {
    std::vector<std::unique_ptr<Slot>> slots;
    std::vector<Slot*> live;
    for (int i = 0; i < config_.games_in_flight; ++i) {
      slots.push_back(std::make_unique<Slot>(config_));
      slots.back()->mcts = std::make_unique<search::Mcts>(full_search_, 0);
      if (Prepare(*slots.back())) live.push_back(slots.back().get());
    }
    std::vector<search::Mcts*> searches;
    search::BatchBuffers buffers;
    std::vector<Slot*> still;
    while (!live.empty() && !Stopping()) {
      if (hooks_.pause != nullptr && hooks_.pause->load()) {
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
        continue;
      }
      searches.clear();
      for (Slot* s : live) searches.push_back(s->mcts.get());
      search::StepSearchesBatched(searches, evaluator_, config_.leaves_per_search, buffers);
      still.clear();
      for (Slot* s : live) {
        bool alive = true;
        if (s->mcts->Finished()) {
          Decide(*s);
          alive = Prepare(*s);
        }
        if (alive) still.push_back(s);
      }
      live.swap(still);
    }
  }

  // Counts a finished game, and journals it or writes its file once complete (or hands it
  // to hooks.on_game when there is no output directory).
  void Output(FinishedGame game) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stats_.AddGame(game);
    }
    util::Status status = util::Ok();
    if (writer_) {
      std::vector<data::IndexedGame> one;
      one.push_back({game.index, std::move(game.samples), std::move(game.record)});
      status = writer_->Add(std::move(one));
    } else if (hooks_.on_game) {
      status = hooks_.on_game(std::move(game));
    }
    if (!status.ok()) Fail(status.error_value());
  }

  const SelfplayConfig& config_;
  const SelfplayJob& job_;
  const SelfplayHooks& hooks_;
  search::SearchConfig full_search_;
  search::SearchConfig cheap_search_;
  search::BatchingEvaluator evaluator_;
  const std::vector<uint64_t> indices_;  // game indices to play; empty: 0 .. total_ - 1
  const size_t total_;                   // games to play
  std::atomic<size_t> next_{0};
  std::atomic<bool> failed_{false};
  std::atomic<int64_t> searches_{0};
  util::SteadyClock::time_point start_;

  std::mutex mutex_;
  std::condition_variable done_cv_;
  int workers_left_ = 0;
  util::Error error_;
  SelfplayStats stats_;
  std::vector<data::JournalGame> recovered_;       // games taken back from journals
  std::unique_ptr<data::SampleDirWriter> writer_;  // null without an output directory
};

}  // namespace

util::Result<SelfplayStats> RunSelfplay(const SelfplayConfig& config,
                                        const search::SearchConfig& search,
                                        const search::BatchingConfig& batching,
                                        search::Evaluator& backend, const SelfplayJob& job,
                                        const SelfplayHooks& hooks) {
  util::SettingsCheck settings;
  settings.Nested("selfplay", config.Validate())
      .Nested("search", search.Validate())
      .Nested("evaluator", batching.Validate());
  if (util::Status valid = settings.Result(); !valid) return valid.error_value();
  std::vector<uint64_t> indices;
  std::vector<data::JournalGame> recovered;
  int64_t total = job.games;
  int64_t resumed = 0;
  util::DirectoryLock lock;
  if (!job.out_dir.empty()) {
    // The prefix becomes part of file names: checked before anything is created.
    if (util::Status s = util::ValidateName(job.prefix, "sample file prefix"); !s.ok()) {
      return s.error_value();
    }
    // Like a pipeline's run: one process per output directory.
    const auto removed = util::LockAndClean(job.out_dir, lock, job.out_dir, /*recursive=*/false);
    if (!removed) return removed.error_value();
    for (const std::string& path : removed.value()) {
      if (hooks.log) hooks.log(path + ": removed (incomplete file of an earlier run)");
    }
    util::Result<data::ResumePlan> plan = data::PlanResume(
        job.out_dir, job.prefix, job.games, config.games_per_file, job.rules, job.size);
    if (!plan) return plan.error_value();
    if (hooks.log) {
      for (const std::string& note : plan.value().notes) hooks.log(note);
      if (plan.value().files_done > 0) {
        hooks.log(job.out_dir + ": " + std::to_string(plan.value().files_done) +
                  " complete sample files with " + std::to_string(plan.value().games_done) +
                  " games found; playing the remaining " +
                  std::to_string(plan.value().indices.size()));
      }
    }
    indices = std::move(plan.value().indices);
    recovered = std::move(plan.value().recovered);
    total = static_cast<int64_t>(indices.size());
    resumed = plan.value().games_done;
  }
  Engine engine(config, search, batching, backend, job, hooks, std::move(indices), total, resumed,
                std::move(recovered));
  return engine.Run();
}

util::Result<std::vector<FinishedGame>> PlayGamesInMemory(const SelfplayConfig& config,
                                                          const search::SearchConfig& search,
                                                          const search::BatchingConfig& batching,
                                                          search::Evaluator& backend,
                                                          SelfplayJob job) {
  job.out_dir.clear();
  std::vector<FinishedGame> games;
  std::mutex mutex;
  SelfplayHooks hooks;
  hooks.on_game = [&](FinishedGame&& g) {
    std::lock_guard<std::mutex> lock(mutex);
    games.push_back(std::move(g));
    return util::Ok();
  };
  auto stats = RunSelfplay(config, search, batching, backend, job, hooks);
  if (!stats) return stats.error_value();
  return games;
}

}  // namespace veletas::selfplay
