// Notation and bad input: square names, specific error messages, and garbage of every kind
// (random strings, truncated records, wrong size or rule set, misplaced swaps, malformed
// squares, moves after the end) for ParseTurn, PlayRecord and PositionFromDiagram: never a
// crash, always an error message, and record errors name the move number and the move.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "rules/notation.h"
#include "rules/turns.h"
#include "tests/support/rules_helpers.h"

namespace veletas::rules {
namespace {

using testing::AfterRecord;

std::string RecordError(RuleSet rs, int size, std::string_view record) {
  const util::Result<Game> g = PlayRecord(rs, size, record);
  return g.ok() ? "" : g.error();
}

using testing::TurnError;

TEST(NotationTest, AnEndlessMoveIsCutInItsErrorMessage) {
  // A hostile worker's record of one huge token: the message holds a few dozen bytes of it.
  const std::string token(10'000'000, 'a');
  for (const std::string& record : {token, "e3/e4 b4,b6/a4 " + token, "e3/e4 b4,b6/" + token}) {
    const std::string error = RecordError(RuleSet::kStandard, 7, record);
    EXPECT_FALSE(error.empty());
    EXPECT_LT(error.size(), 300u) << error.substr(0, 300);
    EXPECT_NE(error.find("bytes)"), std::string::npos) << error.substr(0, 300);
  }
}

std::vector<std::string> Tokens(std::string_view record) {
  std::istringstream in{std::string(record)};
  std::vector<std::string> out;
  for (std::string t; in >> t;) out.push_back(t);
  return out;
}

// The first reference game of a file, as a record string.
std::string ReferenceRecord(const std::string& file) {
  std::ifstream in(std::string(VELETAS_TEST_DATA_DIR) + "/reference/" + file);
  std::string line;
  std::getline(in, line);
  std::string record;
  for (const std::string& m :
       nlohmann::json::parse(line).at("record").get<std::vector<std::string>>()) {
    record += m + " ";
  }
  return record;
}

TEST(Squares, NamesRoundTripOnEverySize) {
  for (int n : {7, 9, 10}) {
    for (int sq = 0; sq < n * n; ++sq) {
      const std::string name = SquareName(n, sq);
      EXPECT_EQ(ParseSquare(n, name), sq) << name;
      EXPECT_EQ(name[0], 'a' + sq % n);
      EXPECT_EQ(std::stoi(name.substr(1)), sq / n + 1);
    }
  }
  EXPECT_EQ(SquareName(10, 99), "j10");
  EXPECT_EQ(SquareName(7, 0), "a1");
  for (const char* bad :
       {"", "a", "a0", "a01", "a11", "k1", "A1", "1a", "a1a", "a-1", "j 1", "a100"}) {
    EXPECT_FALSE(ParseSquare(10, bad).has_value()) << bad;
  }
  EXPECT_FALSE(ParseSquare(7, "h1").has_value());
  EXPECT_FALSE(ParseSquare(7, "a8").has_value());
  EXPECT_FALSE(ParseSquare(9, "j9").has_value());
  EXPECT_FALSE(ParseSquare(9, "a10").has_value());
}

// The example of notation.h, exactly.
TEST(RecordErrors, NameTheMoveNumberTheMoveAndTheBlocker) {
  EXPECT_EQ(RecordError(RuleSet::kStandard, 10, "c3,e5,g7/c6 d4,f6,h8,b7/b2 j10 j2 i1 j3 c3-c9/c1"),
            "move 7 \"c3-c9/c1\": c9 is not reachable from c3 (black stone on c6)");
  // White stone, and the shot rather than the move.
  EXPECT_EQ(RecordError(RuleSet::kStandard, 10, "c3,e5,g7/a1 d4,f6,h8,b7/c8 c3-c4/c9"),
            "move 3 \"c3-c4/c9\": c9 is not shootable from c4 (white stone on c8)");
  // Classic: the shooter in the way is named.
  EXPECT_EQ(RecordError(RuleSet::kClassic, 10, "c3,e5,g7 c6,i1,i9,a9 c3-c8/c9"),
            "move 3 \"c3-c8/c9\": c8 is not reachable from c3 (shooter on c6)");
  // Occupied destination, claimed or missing shooter, stationary shot nobody reaches.
  EXPECT_EQ(RecordError(RuleSet::kStandard, 7, "d4/e4 b2,f6/a1 d4-e4/e5"),
            "move 3 \"d4-e4/e5\": e4 is not reachable from d4 (e4 holds a black stone)");
  EXPECT_EQ(RecordError(RuleSet::kStandard, 7, "d4/e4 b2,f6/a1 c4-c5/c6"),
            "move 3 \"c4-c5/c6\": c4 holds no shooter (nothing)");
  EXPECT_EQ(RecordError(RuleSet::kStandard, 7, "d4/e4 b2,f6/a1 e4"),
            "move 3 \"e4\": e4 is not empty (black stone)");
  EXPECT_EQ(
      RecordError(RuleSet::kStandard, 7, "d4/e4 b2,f6/a1 d4-d4/d5"),
      "move 3 \"d4-d4/d5\": d4 is not reachable from d4 (a shooter must move to another square)");
  const Position p = testing::FromDiagram(RuleSet::kStandard, R"(
    . . . . . . .
    . . . . . . .
    . . . . . . .
    x x . . . . .
    O x . . . . .
    S x . . . . .
    S x . . . . .
  )");
  EXPECT_EQ(TurnError(p, "a3-a4/a5"), "the shooter on a3 is claimed and cannot move");
  EXPECT_EQ(TurnError(p, "a7"), "no unclaimed shooter can shoot to a7");
}

TEST(RecordErrors, SetupMistakes) {
  EXPECT_EQ(RecordError(RuleSet::kStandard, 10, "c3,e5/a1"),
            "move 1 \"c3,e5/a1\": Black places 3 shooters in the setup, got 2");
  EXPECT_EQ(RecordError(RuleSet::kStandard, 10, "c3,c3,e5/a1"),
            "move 1 \"c3,c3,e5/a1\": c3 is listed twice");
  EXPECT_EQ(RecordError(RuleSet::kStandard, 10, "c3,e5,g7"),
            "move 1 \"c3,e5,g7\": expected Black's setup like \"c3,e5/a1\": shooters, '/', then "
            "the setup stone");
  EXPECT_EQ(RecordError(RuleSet::kStandard, 10, "c3,e5,g7/e5"),
            "move 1 \"c3,e5,g7/e5\": the setup stone's square e5 is not empty (shooter)");
  EXPECT_EQ(RecordError(RuleSet::kStandard, 10, "c3,e5,g7/a1 c3,d4,d5,d6/b1"),
            "move 2 \"c3,d4,d5,d6/b1\": c3 is not empty (shooter)");
  EXPECT_EQ(RecordError(RuleSet::kStandard, 10, "c3,e5,g7/a1/b1"),
            "move 1 \"c3,e5,g7/a1/b1\": expected at most one '/' in a setup turn");
  EXPECT_EQ(RecordError(RuleSet::kStandard, 10, "c3,e5,g7/a1 c4,c5,c6,c7/z1"),
            "move 2 \"c4,c5,c6,c7/z1\": \"z1\" is not a square of the 10x10 board");
  EXPECT_EQ(RecordError(RuleSet::kStandard, 9, "c3,,e5/a1"),
            "move 1 \"c3,,e5/a1\": \"\" is not a square of the 9x9 board");
}

TEST(RecordErrors, WrongSizeOrRuleSet) {
  const std::string ten = ReferenceRecord("abstractplay_traces_10.jsonl");   // b2,b4,f4/d7 ...
  const std::string seven = ReferenceRecord("abstractplay_traces_7.jsonl");  // e3/e4 ...
  const std::string classic = ReferenceRecord("classic_traces_7.jsonl");     // c7 a4,g1 ...
  EXPECT_EQ(RecordError(RuleSet::kStandard, 7, ten),
            "move 1 \"b2,b4,f4/d7\": Black places 1 shooter in the setup, got 3");
  EXPECT_EQ(RecordError(RuleSet::kStandard, 10, seven),
            "move 1 \"e3/e4\": Black places 3 shooters in the setup, got 1");
  EXPECT_EQ(RecordError(RuleSet::kStandard, 8, seven),
            "unsupported board size 8 (expected 7, 9 or 10)");
  EXPECT_EQ(RecordError(RuleSet::kClassic, 7, seven),
            "move 1 \"e3/e4\": classic rules have no setup stone: expected only shooters");
  EXPECT_EQ(RecordError(RuleSet::kStandard, 7, classic),
            "move 1 \"c7\": expected Black's setup like \"e5/a1\": shooters, '/', then the "
            "setup stone");
  // The 7x7 game on a 9x9 board: the setup is short of a shooter.
  EXPECT_EQ(RecordError(RuleSet::kStandard, 9, seven),
            "move 1 \"e3/e4\": Black places 2 shooters in the setup, got 1");
  EXPECT_EQ(RecordError(RuleSet::kStandard, 7, ""), "");  // an empty record is the start
}

TEST(RecordErrors, SwapAtTheWrongTime) {
  const std::string wrong = "swap is only allowed right after Black's setup, under standard rules";
  EXPECT_EQ(RecordError(RuleSet::kStandard, 7, "swap"), "move 1 \"swap\": " + wrong);
  EXPECT_EQ(RecordError(RuleSet::kStandard, 7, "e3/e4 swap swap"), "move 3 \"swap\": " + wrong);
  EXPECT_EQ(RecordError(RuleSet::kStandard, 7, "e3/e4 b4,b6/a4 swap"), "move 3 \"swap\": " + wrong);
  EXPECT_EQ(RecordError(RuleSet::kClassic, 7, "c7 swap"), "move 2 \"swap\": " + wrong);
  EXPECT_EQ(RecordError(RuleSet::kStandard, 7, "e3/e4 swap b4,b6/a4"), "");
}

TEST(RecordErrors, MalformedPlayTurns) {
  const Position p = AfterRecord(RuleSet::kStandard, 10, "c3,e5,g7/c6 d4,f6,h8,b7/b2");
  const std::string move_like = "expected a move like \"h6-d10/a10\" (from-to/shot)";
  const std::pair<const char*, std::string> cases[] = {
      {"k1", "\"k1\" is not a square of the 10x10 board"},
      {"a0", "\"a0\" is not a square of the 10x10 board"},
      {"a11", "\"a11\" is not a square of the 10x10 board"},
      {"A1", "\"A1\" is not a square of the 10x10 board"},
      {"c3-", move_like},
      {"c3-c4", move_like},
      {"c3/c4-c5", move_like},
      {"-c4/c5", "\"\" is not a square of the 10x10 board"},
      {"c3-/c5", "\"\" is not a square of the 10x10 board"},
      {"c3-c4/", "\"\" is not a square of the 10x10 board"},
      {"c3-c4-c5/c6", "\"c4-c5\" is not a square of the 10x10 board"},
      {"c3-c4/c5/c6", "\"c5/c6\" is not a square of the 10x10 board"},
      {"c3,e5/a1", "expected a turn like \"e7\" or \"h6-d10/a10\" (the setup is over)"},
      {"", "empty move"},
  };
  for (const auto& [text, error] : cases) EXPECT_EQ(TurnError(p, text), error) << text;
}

TEST(RecordErrors, MovesAfterTheGameIsOver) {
  const std::string record = ReferenceRecord("abstractplay_traces_10.jsonl");  // White wins
  const size_t moves = Tokens(record).size();
  ASSERT_TRUE(AfterRecord(RuleSet::kStandard, 10, record).IsTerminal());
  EXPECT_EQ(RecordError(RuleSet::kStandard, 10, record + " a1"),
            "move " + std::to_string(moves + 1) + " \"a1\": the game is over: White has won");
  EXPECT_EQ(RecordError(RuleSet::kStandard, 10, record + " swap"),
            "move " + std::to_string(moves + 1) + " \"swap\": the game is over: White has won");
}

TEST(RecordErrors, MidTurnPositionsRefuseFullTurns) {
  Position p = AfterRecord(RuleSet::kStandard, 7, "e3/e4 b4,b6/a4");
  p.Apply(p.PassAction());
  EXPECT_EQ(TurnError(p, "e5"), "the position is in the middle of a turn");
  Position setup = Position::Initial(RuleSet::kStandard, 9);
  setup.Apply(setup.LegalActions().squares.Lsb());
  EXPECT_EQ(TurnError(setup, "c3,e5/a1"), "the position is in the middle of a turn");
}

// A random string of length 0..max from an alphabet rich in notation characters, with an
// occasional arbitrary byte.
std::string Garbage(util::Rng& rng, int max) {
  static constexpr std::string_view kAlphabet = "abcdefghijk0123456789,,//--swapSXOxo. \t\n";
  std::string s;
  const int len = static_cast<int>(rng.Below(max + 1));
  for (int i = 0; i < len; ++i) {
    s += rng.Below(10) == 0 ? static_cast<char>(rng.Below(256))
                            : kAlphabet[rng.Below(kAlphabet.size())];
  }
  return s;
}

bool ContainsTurn(const std::vector<Turn>& turns, const Turn& t) {
  return std::find(turns.begin(), turns.end(), t) != turns.end();
}

TEST(Garbage, ParseTurnNeverCrashesAndAcceptsOnlyLegalTurns) {
  Position mid_turn = AfterRecord(RuleSet::kStandard, 7, "e3/e4 b4,b6/a4");
  mid_turn.Apply(mid_turn.PassAction());
  const Position positions[] = {
      Position::Initial(RuleSet::kStandard, 7),
      Position::Initial(RuleSet::kClassic, 9),
      AfterRecord(RuleSet::kStandard, 7, "e3/e4"),
      AfterRecord(RuleSet::kStandard, 7, "e3/e4 swap"),
      AfterRecord(RuleSet::kStandard, 7, "e3/e4 b4,b6/a4"),
      AfterRecord(RuleSet::kClassic, 10, "a5,f5,h4 d5,d8,g1,i10"),
      AfterRecord(RuleSet::kStandard, 7, ReferenceRecord("abstractplay_traces_7.jsonl")),
      mid_turn,
  };
  util::Rng rng(99);
  int accepted = 0;
  for (const Position& p : positions) {
    const std::vector<Turn> legal = LegalTurns(p);
    std::vector<std::string> names;
    for (const Turn& t : legal) names.push_back(TurnToString(p, t));
    for (int i = 0; i < 3000; ++i) {
      std::string text = Garbage(rng, 12);
      if (i % 3 == 0 && !names.empty()) {
        // A legal turn with one character deleted, replaced or inserted.
        text = names[rng.Below(names.size())];
        const size_t at = rng.Below(text.size() + 1);
        const char c = Garbage(rng, 1).empty() ? 'a' : Garbage(rng, 1)[0];
        if (rng.Below(3) == 0 && at < text.size()) {
          text.erase(at, 1);
        } else if (rng.Below(2) == 0 && at < text.size()) {
          text[at] = c;
        } else {
          text.insert(at, 1, c);
        }
      }
      const util::Result<Turn> r = ParseTurn(p, text);
      if (r.ok()) {
        EXPECT_TRUE(ContainsTurn(legal, r.value())) << '"' << text << '"';
        ++accepted;
      } else {
        EXPECT_FALSE(r.error().empty()) << '"' << text << '"';
      }
    }
  }
  EXPECT_GT(accepted, 100);  // the mutations do hit legal turns sometimes
}

TEST(Garbage, TruncatedRecordsFailAtTheirLastMove) {
  util::Rng rng(7);
  for (const char* file :
       {"abstractplay_traces_7.jsonl", "abstractplay_traces_10.jsonl", "classic_traces_9.jsonl"}) {
    const std::string record = ReferenceRecord(file);
    const RuleSet rs =
        std::string(file).rfind("classic", 0) == 0 ? RuleSet::kClassic : RuleSet::kStandard;
    const int size = std::stoi(std::string(file).substr(std::string(file).rfind('_') + 1));
    for (int i = 0; i < 300; ++i) {
      const std::string cut = record.substr(0, rng.Below(record.size()));
      const util::Result<Game> g = PlayRecord(rs, size, cut);
      if (g.ok()) continue;  // cut between moves, or a cut move that is still legal
      const std::vector<std::string> tokens = Tokens(cut);
      // Everything before the cut is legal, so the error is about the last (cut) move.
      EXPECT_EQ(g.error().rfind(
                    "move " + std::to_string(tokens.size()) + " \"" + tokens.back() + "\": ", 0),
                0u)
          << g.error();
    }
  }
}

TEST(Garbage, RandomRecordsNameTheFailingMove) {
  util::Rng rng(5);
  for (int i = 0; i < 2000; ++i) {
    std::string record;
    // A legal opening, then garbage moves.
    if (i % 2 == 0) record = "e3/e4 b4,b6/a4 ";
    record += Garbage(rng, 30);
    const util::Result<Game> g = PlayRecord(RuleSet::kStandard, 7, record);
    if (g.ok()) continue;
    const std::vector<std::string> tokens = Tokens(record);
    const std::string& e = g.error();
    ASSERT_EQ(e.rfind("move ", 0), 0u) << e;
    const size_t number = std::stoul(e.substr(5));
    ASSERT_GE(number, 1u);
    ASSERT_LE(number, tokens.size());
    EXPECT_EQ(e.substr(e.find(' ', 5) + 1, tokens[number - 1].size() + 2),
              "\"" + tokens[number - 1] + "\"")
        << e;
    // The moves before it are legal.
    std::string prefix;
    for (size_t k = 0; k + 1 < number; ++k) prefix += tokens[k] + " ";
    EXPECT_TRUE(PlayRecord(RuleSet::kStandard, 7, prefix).ok()) << e;
  }
}

TEST(Garbage, DiagramsGiveClearErrors) {
  EXPECT_EQ(PositionFromDiagram(RuleSet::kStandard, "S..\n...\n..S", Color::kBlack).error(),
            "a diagram needs 7, 9 or 10 rows, got 3");
  std::string rows = ".......\n......\n.......\n...S...\n.......\n..S.S..\n.......\n";
  EXPECT_EQ(PositionFromDiagram(RuleSet::kStandard, rows, Color::kBlack).error(),
            "diagram row 2 has 6 squares, expected 7");
  rows = ".......\n.......\n...q...\n...S...\n.......\n..S.S..\n.......\n";
  EXPECT_EQ(PositionFromDiagram(RuleSet::kStandard, rows, Color::kBlack).error(),
            "unknown diagram character 'q' (expected one of . x o S X O)");
  rows = ".......\n.......\n.......\n...S...\n.......\n..S....\n.......\n";
  EXPECT_EQ(PositionFromDiagram(RuleSet::kClassic, rows, Color::kBlack).error(),
            "a 7x7 diagram needs 3 shooters, got 2");
  EXPECT_EQ(PositionFromDiagram(RuleSet::kClassic, "", Color::kBlack).error(),
            "a diagram needs 7, 9 or 10 rows, got 0");

  // Random strings and mutated valid diagrams: an error, or a position whose rows read back
  // as the input.
  util::Rng rng(3);
  const std::string valid = ".x.....\n..o....\n...S...\n.......\n.X.....\n..S....\nx.....o\n";
  int parsed = 0;
  for (int i = 0; i < 3000; ++i) {
    std::string text = i % 2 ? Garbage(rng, 80) : valid;
    if (i % 2 == 0) text[rng.Below(text.size())] = "xoSXO.q\n "[rng.Below(9)];
    const util::Result<Position> r = PositionFromDiagram(RuleSet::kStandard, text, Color::kWhite);
    if (!r.ok()) {
      EXPECT_FALSE(r.error().empty());
      continue;
    }
    ++parsed;
    EXPECT_TRUE(r.value().CheckInvariants());
    std::string compact, back;
    for (char c : text) {
      if (c != ' ' && c != '\t' && c != '\n' && c != '\r' && c != '\v' && c != '\f') compact += c;
    }
    for (const std::string& row : BoardRows(r.value())) back += row;
    EXPECT_EQ(back, compact);
  }
  EXPECT_GT(parsed, 100);
}

// Diagram text of any reachable position reads back as the same board.
TEST(Diagrams, BoardRowsRoundTrip) {
  util::Rng rng(11);
  for (RuleSet rs : {RuleSet::kStandard, RuleSet::kClassic}) {
    for (int n : {7, 9, 10}) {
      Position p = Position::Initial(rs, n);
      while (!p.IsTerminal()) {
        ApplyTurn(p, RandomTurn(p, rng));
        if (p.Pending() != Decision::kChooseShooter && !p.IsTerminal()) continue;
        std::string text;
        for (const std::string& row : BoardRows(p)) text += row + "\n";
        const util::Result<Position> back = PositionFromDiagram(rs, text, p.ToMove());
        ASSERT_TRUE(back.ok()) << back.error();
        EXPECT_EQ(BoardRows(back.value()), BoardRows(p));
        EXPECT_EQ(back.value().IsTerminal(), p.IsTerminal());
        if (!p.IsTerminal()) {
          EXPECT_EQ(CountTurns(back.value()), CountTurns(p));
        }
      }
      // Diagram(): rows top first with their numbers, and a file line.
      const std::string d = Diagram(p);
      EXPECT_EQ(d.substr(0, 3), n == 10 ? "10 " : " " + std::to_string(n) + " ");
      EXPECT_NE(d.find(n == 10 ? "a b c d e f g h i j" : "a b c d e f g"), std::string::npos);
    }
  }
}

}  // namespace
}  // namespace veletas::rules
