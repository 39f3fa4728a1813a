// `veletas play`: a game against the engine in the terminal (or through a pipe). The board
// is shown after every turn; moves are typed in notation; commands: hint, undo, save FILE,
// record, board, help, quit.
#include <cstdio>
#include <iostream>
#include <string>

#include "app/cli.h"
#include "app/command.h"
#include "app/search_backend.h"
#include "play/game_state.h"
#include "rules/notation.h"
#include "util/atomic_file.h"
#include "util/random.h"

namespace veletas::app {
namespace {

constexpr int kHintCandidates = 5;
constexpr int kRandomHintPlayouts = 1000;

std::string Trim(const std::string& s) {
  const size_t a = s.find_first_not_of(" \t\r\n");
  if (a == std::string::npos) return "";
  const size_t b = s.find_last_not_of(" \t\r\n");
  return s.substr(a, b - a + 1);
}

std::string Percent(float rate) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%.1f%%", 100.0 * static_cast<double>(rate));
  return buf;
}

const char* PlayerWord(int player) { return player == 0 ? "first" : "second"; }

void PrintHelp(const rules::Position& pos) {
  const int n = pos.Size();
  const rules::SizeRules sr = rules::RulesForSize(n);
  std::cout << "Type a move in notation, or a command:\n"
            << "  hint        the engine's top moves for you, with win rates and visits\n"
            << "  undo        take back your last move (and the engine's reply)\n"
            << "  save FILE   write the game record to FILE\n"
            << "  record      print the game record\n"
            << "  board       show the board again\n"
            << "  help        this text\n"
            << "  quit        stop (the record is saved if --record was given)\n"
            << "Moves: a turn with a shooter move is from-to/shot (e.g. c3-c6/d6); a shot "
               "without moving is just the square (e.g. d6).\n"
            << "Setup (" << rules::RuleSetName(pos.Rules()) << " " << n << "x" << n
            << "): Black places " << sr.black_setup << " shooter(s), White "
            << sr.shooters - sr.black_setup << ", in column order, "
            << (pos.Rules() == rules::RuleSet::kStandard
                    ? "then '/' and the setup stone (e.g. c3/a1); shooters not on the edge.\n"
                      "Pie rule: after Black's setup, the second player may type swap to take "
                      "over Black's position.\n"
                    : "comma-separated (e.g. b2,d4); shooters not next to each other.\n");
}

struct PlayOptions {
  BackendArgs backend;
  std::string human = "first";
  std::string record_file;
};

int RunPlay(const PlayOptions& o) {
  const int human = o.human == "first" || o.human == "black" ? 0 : 1;
  auto backend = MakeSearchBackend(o.backend);
  if (!backend) return UsageError("play", backend.error());
  SearchBackend& b = *backend.value();
  const std::string& record_file = o.record_file;

  // Hints come from the engine's own searcher, or a UCT searcher against --random.
  std::unique_ptr<play::TurnSearcher> hint_uct;
  play::TurnSearcher* adviser = b.searcher.get();
  int hint_visits = b.visits;
  if (adviser == nullptr) {
    hint_uct = play::TurnSearcher::Uct(search::UctConfig{}.c_uct, b.seed + 7);
    adviser = hint_uct.get();
    hint_visits = kRandomHintPlayouts;
  }
  util::Rng rng(b.seed);
  play::GameState game(b.rules, b.size);

  auto save = [&](const std::string& path) {
    if (util::Status saved = util::WriteFileAtomic(path, game.Record() + "\n"); !saved.ok()) {
      std::cout << "cannot save: " << saved.error() << "\n";
      return false;
    }
    return true;
  };
  auto autosave = [&] {
    if (!record_file.empty()) save(record_file);
  };
  auto show = [&] {
    const rules::Position& pos = game.Current();
    std::cout << "\n" << rules::Diagram(pos) << play::StatusLines(pos);
  };

  std::cout << "veletas play: " << rules::RuleSetName(b.rules) << " " << b.size << "x" << b.size
            << "; you are the " << PlayerWord(human) << " player ("
            << (human == 0 ? "Black" : "White") << " unless the pie rule swaps), the engine is "
            << b.description << ". Type help for the commands.\n";
  show();
  int pie_note_shown = -1;  // the turn at which the pie rule's note was last shown
  for (;;) {
    const rules::Position pos = game.Current();
    if (pos.IsTerminal()) {
      const rules::Color w = *pos.Winner();
      const int winner = pos.PlayerOf(w);
      std::cout << "result: " << play::ColorWord(w) << " (" << PlayerWord(winner) << " player, "
                << (winner == human ? "you" : "veletas") << ") wins after " << game.Turns()
                << " turns\nrecord: " << game.Record() << "\n";
      autosave();
      return 0;
    }
    if (pos.ToMovePlayer() != human) {
      if (b.random) {
        const rules::Turn t = rules::RandomTurn(pos, rng);
        std::cout << "veletas plays " << rules::TurnToString(pos, t) << "\n";
        game.Play(t);
      } else {
        const play::TurnAnalysis a = b.searcher->Search(pos, {b.visits, 0}, 1);
        std::cout << "veletas plays " << rules::TurnToString(pos, a.best.turn) << " (its win rate "
                  << Percent(a.best.win_rate) << ")\n";
        game.Play(a.best.turn);
      }
      autosave();
      show();
      continue;
    }
    if (pos.Pending() == rules::Decision::kPie && pie_note_shown != game.Turns()) {
      std::cout << "You may type swap to take over Black's position, or place White's setup.\n";
      pie_note_shown = game.Turns();
    }
    std::cout << play::ColorWord(pos.ToMove()) << " (you)> " << std::flush;
    std::string line;
    if (!std::getline(std::cin, line)) {
      std::cout << "\nend of input: the game is not finished\n";
      autosave();
      return 0;
    }
    const std::string input = Trim(line);
    if (input.empty()) continue;
    const size_t space = input.find(' ');
    const std::string word = input.substr(0, space);
    const std::string rest = space == std::string::npos ? "" : Trim(input.substr(space));
    if (word == "quit" || word == "exit") {
      std::cout << "quit: the game is not finished\nrecord: " << game.Record() << "\n";
      autosave();
      return 0;
    }
    if (word == "help" || word == "?") {
      PrintHelp(pos);
    } else if (word == "board") {
      show();
    } else if (word == "record") {
      std::cout << "record: " << game.Record() << "\n";
    } else if (word == "save") {
      if (rest.empty()) {
        std::cout << "save: expected a file name (save FILE)\n";
      } else if (save(rest)) {
        std::cout << "saved the record to " << rest << "\n";
      }
    } else if (word == "undo") {
      // Take back turns until one of the human's is gone, so the human moves again.
      bool undone = false;
      for (int i = game.Turns() - 1; i >= 0; --i) {
        if (game.Before(i).ToMovePlayer() == human) {
          while (game.Turns() > i) game.Undo();
          undone = true;
          break;
        }
      }
      if (!undone) {
        std::cout << "undo: you have not moved yet\n";
      } else {
        std::cout << "undo: back to turn " << game.Turns() + 1 << "\n";
        autosave();
        show();
      }
    } else if (word == "hint") {
      const play::TurnAnalysis a = adviser->Search(pos, {hint_visits, 0}, kHintCandidates);
      std::cout << "hint (" << a.simulations << " simulations):\n";
      int i = 0;
      for (const play::TurnCandidate& c : a.candidates) {
        char buf[160];
        std::snprintf(buf, sizeof buf, "  %d. %-18s win rate %6s  visits %u\n", ++i,
                      rules::TurnToString(pos, c.turn).c_str(), Percent(c.win_rate).c_str(),
                      c.visits);
        std::cout << buf;
      }
    } else {
      auto turn = rules::ParseTurn(pos, input);
      if (!turn) {
        std::cout << "illegal move \"" << input << "\": " << turn.error()
                  << " (type help for the notation)\n";
        continue;
      }
      game.Play(turn.value());
      autosave();
      show();
    }
  }
}

CommandRun SetupPlay(CLI::App& cmd) {
  auto o = std::make_shared<PlayOptions>();
  AddBackendOptions(cmd, o->backend, /*allow_random=*/true);
  cmd.add_option("--human", o->human, "your seat: first or second player, or a colour")
      ->check(CLI::IsMember({"first", "second", "black", "white"}));
  cmd.add_option("--record", o->record_file, "file the game record is saved to after every move")
      ->type_name("FILE");
  return [o] { return RunPlay(*o); };
}

}  // namespace

VELETAS_CLI_COMMAND(play, "play",
                    "play against the engine in the terminal (moves in notation; type help)",
                    SetupPlay);

}  // namespace veletas::app
