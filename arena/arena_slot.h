// The arena's games in flight and the threads of its UCT players (internal to arena*.cpp).
#pragma once

#include <condition_variable>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "arena/arena.h"
#include "rules/notation.h"
#include "search/mcts.h"
#include "search/player.h"

namespace veletas::arena {

// One game in flight.
struct Arena::Slot {
  enum class State { kIdle, kSync, kSearch };
  int index = 0;
  bool a_first = true;
  rules::Position pos;
  rules::Position turn_start;  // where the neural turn in progress began
  rules::Turn partial;         // its actions so far
  std::string record;
  int turns = 0;
  std::unique_ptr<search::Player> sync[2];  // random / UCT sides
  std::unique_ptr<search::Mcts> mcts[2];    // neural sides
  search::Evaluator* evaluator[2] = {nullptr, nullptr};
  State state = State::kIdle;
  int side = 0;  // side to move (0 = A, 1 = B) while kSync / kSearch
  rules::Turn sync_turn;
  int sync_simulations = 0;  // TurnChoice::simulations of sync_turn

  // The side (0 = A, 1 = B) of the player to move.
  int SideToMove() const { return (pos.ToMovePlayer() == 0) == a_first ? 0 : 1; }
  void AddTurn(const rules::Position& before, const rules::Turn& turn) {
    if (!record.empty()) record += ' ';
    record += rules::TurnToString(before, turn);
    ++turns;
  }
};

// Worker threads choosing the turns of UCT players.
class Arena::UctThreads {
 public:
  explicit UctThreads(int n);
  ~UctThreads();
  // Queues `slot`, whose side to move is a UCT player, for its turn (slot->sync_turn).
  void Submit(Slot* slot);
  // Moves the finished slots into `out`; with `wait`, first waits for at least one.
  // Rethrows an exception a player threw.
  void TakeDone(std::vector<Slot*>& out, bool wait);

 private:
  void Loop();

  std::mutex mutex_;
  std::condition_variable work_cv_;
  std::condition_variable done_cv_;
  std::deque<Slot*> queue_;
  std::vector<Slot*> done_;
  std::exception_ptr error_;
  bool stop_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace veletas::arena
