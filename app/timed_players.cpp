#include "app/timed_players.h"

#include <functional>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <vector>

#include "model/network_pool.h"
#include "play/turn_player.h"
#include "search/uct_player.h"

namespace veletas::app {
namespace {

// The evaluators of one network (checkpoint and precision) that no game holds.
class EvaluatorStock {
 public:
  using Opener = std::function<util::Result<model::LoadedEvaluator>()>;
  explicit EvaluatorStock(Opener open) : open_(std::move(open)) {}

  // A free evaluator, else a newly opened one.
  util::Result<std::unique_ptr<model::NetworkEvaluator>> Take() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (!free_.empty()) {
        std::unique_ptr<model::NetworkEvaluator> e = std::move(free_.back());
        free_.pop_back();
        return e;
      }
    }
    auto opened = open_();
    if (!opened) return opened.error_value();
    return std::move(opened.value().evaluator);
  }

  void Give(std::unique_ptr<model::NetworkEvaluator> e) {
    std::lock_guard<std::mutex> lock(mutex_);
    free_.push_back(std::move(e));
  }

 private:
  Opener open_;
  std::mutex mutex_;
  std::vector<std::unique_ptr<model::NetworkEvaluator>> free_;
};

// A neural timed player holding its evaluator, which goes back to the stock with it.
class LeasedPlayer final : public search::Player {
 public:
  LeasedPlayer(std::shared_ptr<EvaluatorStock> stock,
               std::unique_ptr<model::NetworkEvaluator> evaluator)
      : stock_(std::move(stock)), evaluator_(std::move(evaluator)) {}
  ~LeasedPlayer() override {
    inner_.reset();  // the searcher goes before its evaluator
    stock_->Give(std::move(evaluator_));
  }
  LeasedPlayer(const LeasedPlayer&) = delete;
  LeasedPlayer& operator=(const LeasedPlayer&) = delete;

  model::NetworkEvaluator& Evaluator() { return *evaluator_; }
  void SetInner(std::unique_ptr<search::Player> inner) { inner_ = std::move(inner); }

  std::string Name() const override { return inner_->Name(); }
  search::TurnChoice ChooseTurn(const rules::Position& pos) override {
    return inner_->ChooseTurn(pos);
  }
  void NewGame() override { inner_->NewGame(); }
  void Seed(uint64_t seed) override { inner_->Seed(seed); }

 private:
  std::shared_ptr<EvaluatorStock> stock_;
  std::unique_ptr<model::NetworkEvaluator> evaluator_;
  std::unique_ptr<search::Player> inner_;
};

// The factory of a timed UCT player.
arena::TimedPlayerFactory UctFactory(const arena::ArenaPlayer& player, int size) {
  const float c =
      static_cast<float>(player.spec.c_uct > 0 ? player.spec.c_uct : search::TunedUctC(size));
  const play::SearchBudget budget{.time_ms = player.spec.time_ms};
  const std::string name = player.spec.ToString();
  return [c, budget, name](uint64_t seed) {
    return play::MakeTurnSearchPlayer(play::TurnSearcher::Uct(c, seed), budget, name);
  };
}

// The stock of the timed network player `player`, with one evaluator opened (so that the
// match starts only when the network loads on one thread).
util::Result<std::shared_ptr<EvaluatorStock>> OpenStock(const arena::ArenaPlayer& player,
                                                        const config::Config& config) {
  model::NetConfig runtime = config.model;
  runtime.threads = 1;
  auto stock = std::make_shared<EvaluatorStock>(
      [rules = config.game.rules, size = config.game.size, runtime, spec = player.spec] {
        return model::OpenMatchNetwork(rules, size, runtime, spec.checkpoint, spec.precision);
      });
  auto first = stock->Take();
  if (!first) return first.error_value();
  stock->Give(std::move(first.value()));
  return stock;
}

}  // namespace

arena::TimedPlayerSource TimedPlayers(const config::Config& config) {
  return [config](const arena::ArenaPlayer& player) -> util::Result<arena::TimedPlayerFactory> {
    if (player.spec.kind == arena::PlayerKind::kUct) return UctFactory(player, config.game.size);
    if (player.spec.kind != arena::PlayerKind::kMcts) {
      return util::Error{"player " + player.spec.ToString() + " cannot have a time per turn"};
    }
    auto stock = OpenStock(player, config);
    if (!stock) return stock.error_value();
    const search::SearchConfig sc = search::ForPlay(player.search);
    const play::SearchBudget budget{.time_ms = player.spec.time_ms};
    const std::string name = player.spec.ToString();
    return arena::TimedPlayerFactory([stock = stock.value(), sc, budget,
                                      name](uint64_t seed) -> std::unique_ptr<search::Player> {
      auto evaluator = stock->Take();
      if (!evaluator) throw std::runtime_error(evaluator.error());
      auto leased = std::make_unique<LeasedPlayer>(stock, std::move(evaluator.value()));
      leased->SetInner(play::MakeTurnSearchPlayer(
          play::TurnSearcher::Neural(leased->Evaluator(), sc, seed), budget, name));
      return leased;
    });
  };
}

}  // namespace veletas::app
