// The engine protocol (docs/ENGINE_PROTOCOL.md): a line-based text protocol in the spirit of
// GTP for GUIs and game-site bots. This class holds the game and answers one command line
// at a time; `veletas engine` (app/cmd_engine.cpp) connects it to stdin/stdout.
#pragma once

#include <functional>
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

#include "play/game_state.h"
#include "play/turn_search.h"
#include "rules/position.h"
#include "util/result.h"

namespace veletas::play {

struct EngineSetup {
  std::string name = "veletas-zero";
  std::string version;
  // What searches, e.g. "puct, model g12.ckpt (generation 12)"; shown by `version`.
  std::string description;
  // The game at start-up.
  rules::RuleSet rules = rules::RuleSet::kStandard;
  int size = 7;
  // True when the engine plays only `rules` and `size` (a network trained for them).
  bool fixed_game = false;
  // The searcher (not owned; outlives the engine). Its config gives the search settings.
  TurnSearcher* searcher = nullptr;
  // Default budget of genmove and analyse: visits (simulations per sub-decision for a
  // network, playouts per turn for UCT); time_ms > 0 takes precedence.
  int visits = 200;
  int time_ms = 0;
  // Candidates listed by analyse.
  int candidates = 5;
  // setoption threads N: applies N threads; null when the engine has no thread setting.
  std::function<util::Status(int threads)> set_threads;
};

// Not thread-safe: one thread feeds it lines.
class EngineProtocol {
 public:
  // Precondition: setup.searcher != nullptr; supported size.
  explicit EngineProtocol(EngineSetup setup);

  // Handles one input line and returns the complete response: "=[id] result\n\n" or
  // "?[id] message\n\n" (a multi-line result has no empty line inside). Blank lines and
  // comments ('#' to the end of the line) give "" (no response).
  std::string Handle(std::string_view line);
  // True once `quit` was handled.
  bool Finished() const { return finished_; }

  const GameState& Game() const { return game_; }
  // The names of every command, in the order list_commands gives them.
  static const std::vector<std::string>& CommandNames();

 private:
  struct Reply {
    bool ok;
    std::string text;
  };
  using Args = std::vector<std::string>;
  // One command of the protocol: its name and what runs it.
  struct Command {
    const char* name;
    bool takes_args;  // false: any argument is an error ("NAME takes no arguments")
    Reply (*run)(EngineProtocol& engine, const Args& args);
  };
  // Every command, in the order list_commands gives them (CommandNames is made from it).
  static const std::vector<Command>& Commands();
  // Runs `command` from Commands(), or answers that it is unknown.
  Reply Dispatch(const std::string& command, const Args& args);
  Reply NewGame(rules::RuleSet rules, int size);
  Reply CmdNewGame(const Args& args);
  Reply CmdPlay(const Args& args);
  Reply CmdGenmove(const Args& args);
  Reply CmdAnalyse(const Args& args);
  Reply CmdShowboard(const Args& args);
  Reply CmdSetOption(const Args& args);
  Reply CmdLoadRecord(const Args& args);
  // Parses "[visits N | time MS]" starting at args[first].
  Reply ParseBudget(const Args& args, size_t first, SearchBudget& budget) const;
  // An error when `args` names a colour that is not to move (GTP-style "play black ..."),
  // removing the colour from args otherwise.
  Reply CheckColour(Args& args) const;

  EngineSetup setup_;
  GameState game_;
  bool finished_ = false;
};

// The longest command line the engine reads (a 10x10 record for loadrecord is a few KB).
inline constexpr size_t kMaxEngineLine = 1 << 20;

// Answers the command lines of `in` on `out` (flushed after each response) until `quit` or
// the end of the input. A line longer than kMaxEngineLine is answered with an error and
// skipped without being stored whole.
void ServeEngine(EngineProtocol& engine, std::istream& in, std::ostream& out);

}  // namespace veletas::play
