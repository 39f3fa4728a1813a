#include "play/terminal_game.h"

#include <iomanip>

#include "play/game_state.h"
#include "rules/notation.h"
#include "search/search_config.h"
#include "util/atomic_file.h"
#include "util/random.h"
#include "util/text.h"

namespace veletas::play {
namespace {

constexpr int kHintCandidates = 5;

const char* PlayerWord(int player) { return player == 0 ? "first" : "second"; }

void PrintHelp(const rules::Position& pos, std::ostream& out) {
  const int n = pos.Size();
  const rules::SizeRules sr = rules::RulesForSize(n);
  out << "Type a move in notation, or a command:\n"
      << "  hint        the engine's top moves for you, with win rates and visits\n"
      << "  undo        take back your last move (and the engine's reply)\n"
      << "  save FILE   write the game record to FILE\n"
      << "  record      print the game record\n"
      << "  board       show the board again\n"
      << "  help        this text\n"
      << "  quit        stop (the record is saved if --record was given)\n"
      << "Moves: a turn with a shooter move is from-to/shot (e.g. c3-c6/d6); a shot "
         "without moving is just the square (e.g. d6).\n"
      << "Setup (" << rules::RuleSetName(pos.Rules()) << " " << n << "x" << n << "): Black places "
      << sr.black_setup << " shooter(s), White " << sr.shooters - sr.black_setup
      << ", in column order, "
      << (pos.Rules() == rules::RuleSet::kStandard
              ? "then '/' and the setup stone (e.g. c3/a1); shooters not on the edge.\n"
                "Pie rule: after Black's setup, the second player may type swap to take "
                "over Black's position.\n"
              : "comma-separated (e.g. b2,d4); shooters not next to each other.\n");
}

// One game: the state, the streams and what the commands do.
class TerminalGame {
 public:
  TerminalGame(const TerminalGameSetup& s, std::istream& in, std::ostream& out)
      : s_(s), in_(in), out_(out), rng_(s.seed), game_(s.rules, s.size) {}

  void Run() {
    out_ << "veletas play: " << rules::RuleSetName(s_.rules) << " " << s_.size << "x" << s_.size
         << "; you are the " << PlayerWord(s_.human) << " player ("
         << (s_.human == 0 ? "Black" : "White") << " unless the pie rule swaps), the engine is "
         << s_.engine_description << ". Type help for the commands.\n";
    Show(/*legend=*/true);
    for (;;) {
      const rules::Position pos = game_.Current();
      if (pos.IsTerminal()) return Finished(pos);
      if (pos.ToMovePlayer() != s_.human) {
        EngineTurn(pos);
        continue;
      }
      if (!HumanTurn(pos)) return;
    }
  }

 private:
  // The board, with the last turn above it and, when `legend`, what the symbols mean.
  void Show(bool legend = false) {
    const rules::Position& pos = game_.Current();
    out_ << "\n";
    if (game_.Turns() > 0) {
      const int last = game_.Turns() - 1;
      const rules::Position& before = game_.Before(last);
      out_ << "last move: " << ColorWord(before.ToMove()) << " "
           << rules::TurnToString(before, game_.TurnAt(last)) << "\n";
    }
    out_ << rules::Diagram(pos) << StatusLines(pos);
    if (legend) out_ << rules::DiagramLegend() << "\n";
  }

  bool Save(const std::string& path) {
    if (util::Status saved = util::WriteFileAtomic(path, game_.Record() + "\n"); !saved.ok()) {
      out_ << "cannot save: " << saved.error() << "\n";
      return false;
    }
    return true;
  }

  void Autosave() {
    if (!s_.record_file.empty()) Save(s_.record_file);
  }

  void Finished(const rules::Position& pos) {
    const rules::Color w = *pos.Winner();
    const int winner = pos.PlayerOf(w);
    out_ << "result: " << ColorWord(w) << " (" << PlayerWord(winner) << " player, "
         << (winner == s_.human ? "you" : "veletas") << ") wins after " << game_.Turns()
         << " turns\nrecord: " << game_.Record() << "\n";
    Autosave();
  }

  void EngineTurn(const rules::Position& pos) {
    if (s_.engine == nullptr) {
      const rules::Turn t = rules::RandomTurn(pos, rng_);
      out_ << "veletas plays " << rules::TurnToString(pos, t) << "\n";
      game_.Play(t);
    } else {
      const TurnAnalysis a = s_.engine->Search(pos, {s_.engine_visits, 0}, 1);
      out_ << "veletas plays " << rules::TurnToString(pos, a.best.turn) << " (its win rate "
           << util::FormatPercent(a.best.win_rate) << ")\n";
      game_.Play(a.best.turn);
    }
    Autosave();
    Show();
  }

  // Reads and carries out one line of the human; false when the session ends.
  bool HumanTurn(const rules::Position& pos) {
    if (pos.Pending() == rules::Decision::kPie && pie_note_shown_ != game_.Turns()) {
      out_ << "You may type swap to take over Black's position, or place White's setup.\n";
      pie_note_shown_ = game_.Turns();
    }
    out_ << ColorWord(pos.ToMove()) << " (you)> " << std::flush;
    std::string line;
    if (!std::getline(in_, line)) {
      out_ << "\nend of input: the game is not finished\n";
      Autosave();
      return false;
    }
    const std::string input = util::Trim(line);
    if (input.empty()) return true;
    const size_t space = input.find(' ');
    const std::string word = input.substr(0, space);
    const std::string rest = space == std::string::npos ? "" : util::Trim(input.substr(space));
    if (word == "quit" || word == "exit") {
      out_ << "quit: the game is not finished\nrecord: " << game_.Record() << "\n";
      Autosave();
      return false;
    }
    Command(pos, word, rest, input);
    return true;
  }

  void Command(const rules::Position& pos, const std::string& word, const std::string& rest,
               const std::string& input) {
    if (word == "help" || word == "?") {
      PrintHelp(pos, out_);
    } else if (word == "board") {
      Show(/*legend=*/true);
    } else if (word == "record") {
      out_ << "record: " << game_.Record() << "\n";
    } else if (word == "save") {
      if (rest.empty()) {
        out_ << "save: expected a file name (save FILE)\n";
      } else if (Save(rest)) {
        out_ << "saved the record to " << rest << "\n";
      }
    } else if (word == "undo") {
      Undo();
    } else if (word == "hint") {
      Hint(pos);
    } else {
      Move(pos, input);
    }
  }

  // Takes back turns until one of the human's is gone, so the human moves again.
  void Undo() {
    for (int i = game_.Turns() - 1; i >= 0; --i) {
      if (game_.Before(i).ToMovePlayer() == s_.human) {
        while (game_.Turns() > i) game_.Undo();
        out_ << "undo: back to turn " << game_.Turns() + 1 << "\n";
        Autosave();
        Show();
        return;
      }
    }
    out_ << "undo: you have not moved yet\n";
  }

  void Hint(const rules::Position& pos) {
    const TurnAnalysis a = s_.adviser->Search(pos, {s_.hint_visits, 0}, kHintCandidates);
    out_ << "hint (" << a.simulations << " simulations):\n";
    int i = 0;
    for (const TurnCandidate& c : a.candidates) {
      out_ << "  " << ++i << ". " << std::left << std::setw(18) << rules::TurnToString(pos, c.turn)
           << " win rate " << std::right << std::setw(6) << util::FormatPercent(c.win_rate)
           << "  visits " << c.visits << "\n";
    }
  }

  void Move(const rules::Position& pos, const std::string& input) {
    auto turn = rules::ParseTurn(pos, input);
    const bool setup = pos.Pending() == rules::Decision::kSetupShooter ||
                       pos.Pending() == rules::Decision::kSetupStone;
    if (!turn && setup && input.find('-') != std::string::npos) {
      out_ << "\"" << input
           << "\" moves a shooter, but this is the setup phase: " << ColorWord(pos.ToMove())
           << " places "
           << (pos.Rules() == rules::RuleSet::kStandard ? "shooters, '/', then the setup stone "
                                                          "(e.g. c3/a1)"
                                                        : "shooters (e.g. b2,d4)")
           << " (type help for the notation)\n";
      return;
    }
    if (!turn) {
      out_ << "illegal move \"" << input << "\": " << turn.error()
           << " (type help for the notation)\n";
      return;
    }
    game_.Play(turn.value());
    Autosave();
    Show();
  }

  const TerminalGameSetup& s_;
  std::istream& in_;
  std::ostream& out_;
  util::Rng rng_;
  GameState game_;
  int pie_note_shown_ = -1;  // the turn at which the pie rule's note was last shown
};

}  // namespace

void PlayInTerminal(const TerminalGameSetup& setup, std::istream& in, std::ostream& out) {
  if (setup.adviser != nullptr) {
    TerminalGame(setup, in, out).Run();
    return;
  }
  const auto uct = TurnSearcher::Uct(search::UctConfig{}.c_uct, setup.seed + 7);
  TerminalGameSetup with_hints = setup;
  with_hints.adviser = uct.get();
  with_hints.hint_visits = kRandomHintPlayouts;
  TerminalGame(with_hints, in, out).Run();
}

}  // namespace veletas::play
