// The engine protocol (docs/ENGINE_PROTOCOL.md): a line-based text protocol in the spirit of
// GTP for GUIs and game-site bots. This class holds the game and answers one command line
// at a time; `veletas engine` (app/cmd_engine.cpp) connects it to stdin/stdout.
#pragma once

#include <functional>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "play/game_state.h"
#include "play/time_manager.h"
#include "play/turn_search.h"
#include "rules/position.h"
#include "util/clock.h"
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
  // How genmove spends a clock (wtime/btime ...); setoption reserve sets reserve_ms.
  TimeManagerSettings time_manager;
  // The clock of streaming analysis's intervals (seconds; a fake one in tests). The
  // searcher's time budgets use its own clock (TurnSearcher::SetClock).
  std::function<double()> now = util::SteadySeconds;
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

  // Streaming analysis (`analyse interval MS`): Handle answers "=[id]\n" and the stream
  // runs until the next command (which Handle answers after ending the stream with its
  // final update line and the empty line) or until its own visits/time limit.
  bool Streaming() const { return stream_.has_value(); }
  // Searches one chunk of the stream and returns what is due: "" or one update line
  // ("info ...\n"); the stream's final update line and the empty line when its limit is
  // reached (then Streaming() is false). Precondition: Streaming().
  std::string StreamStep();
  // Ends the stream: its final update line and the empty line ("" when not streaming).
  std::string StopStream();

  const GameState& Game() const { return game_; }
  // How genmove spends a clock (the setup's, with setoption reserve applied).
  const TimeManagerSettings& TimeManager() const { return setup_.time_manager; }
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
  // What genmove and analyse were asked for: a budget, and for analyse a stream.
  struct Request {
    SearchBudget budget;
    bool clock = false;  // the budget's time was allotted from wtime/btime ...
    GameClock game_clock;
    int interval_ms = 0;  // > 0: stream updates at this interval (analyse only)
  };
  // Parses the budget words of genmove/analyse (docs/ENGINE_PROTOCOL.md, "Budgets"):
  // visits N | time MS | movetime MS | wtime/btime/winc/binc MS, movestogo N; and for
  // analyse (`stream`) interval MS. Errors say what was expected.
  Reply ParseRequest(const Args& args, bool stream, Request& request) const;
  // The state of a streaming analysis.
  struct Stream {
    std::string id;
    rules::Position pos;
    double interval_s = 0;
    int max_visits = 0;      // 0: no limit
    double max_seconds = 0;  // 0: no limit
    double start = 0, next_update = 0;
    int simulations = 0;
    TurnAnalysis last;  // the latest chunk's candidates
  };
  // One update line of the stream: "info simulations S time_ms T move ... winrate W lcb L
  // visits V pv ... move ...".
  std::string StreamLine() const;
  // An error when `args` names a colour that is not to move (GTP-style "play black ..."),
  // removing the colour from args otherwise.
  Reply CheckColour(Args& args) const;

  EngineSetup setup_;
  GameState game_;
  bool finished_ = false;
  std::optional<Stream> stream_;
  std::string id_;  // the id of the command being handled
};

// The longest command line the engine reads (a 10x10 record for loadrecord is a few KB).
inline constexpr size_t kMaxEngineLine = 1 << 20;

// Answers the command lines of `in` on `out` (flushed after each response) until `quit` or
// the end of the input. A line longer than kMaxEngineLine is answered with an error and
// skipped without being stored whole. A streaming analysis runs on a second thread while
// the next line is awaited; that line (or the end of the input) ends it. (Native builds
// only: play/engine_server.cpp.)
void ServeEngine(EngineProtocol& engine, std::istream& in, std::ostream& out);

}  // namespace veletas::play
