// EngineProtocol: every command, response framing, ids, malformed commands and illegal
// moves (an error, and the engine keeps going), genmove/analyse answers, undo, options.
#include "play/engine_protocol.h"

#include <gtest/gtest.h>

#include <chrono>
#include <sstream>

#include "rules/notation.h"
#include "rules/turns.h"
#include "search/fake_evaluators.h"
#include "search/search_config.h"
#include "tests/play/test_util.h"

namespace veletas::play {
namespace {

using rules::Position;
using rules::RuleSet;

class Engine : public ::testing::Test {
 protected:
  void SetUp() override { Make(false); }
  void Make(bool fixed) {
    search::SearchConfig c = search::ForPlay(search::SearchConfig{});
    c.simulations = 32;
    searcher_ = TurnSearcher::Neural(eval_, c, 1);
    // A fake clock: every reading is a millisecond after the last.
    auto now = [this] { return fake_seconds_ += 0.001; };
    searcher_->SetClock(now);
    EngineSetup s;
    s.now = now;
    s.version = "9.9.9";
    s.description = "test";
    s.rules = RuleSet::kStandard;
    s.size = 7;
    s.fixed_game = fixed;
    s.searcher = searcher_.get();
    s.visits = 32;
    s.set_threads = [this](int t) {
      threads_ = t;
      return t == 13 ? util::Status::Error("thirteen is unlucky") : util::Ok();
    };
    engine_ = std::make_unique<EngineProtocol>(std::move(s));
  }
  // The response's text after "= " (checked to be a success).
  std::string Ok(const std::string& command) {
    const std::string r = engine_->Handle(command);
    EXPECT_EQ(r.substr(0, 1), "=") << command << " -> " << r;
    ExpectFramed(r);
    const std::string body = r.substr(1, r.size() - 3);
    return !body.empty() && body[0] == ' ' ? body.substr(1) : body;
  }
  // The error message (checked to be an error).
  std::string Err(const std::string& command) {
    const std::string r = engine_->Handle(command);
    EXPECT_EQ(r.substr(0, 1), "?") << command << " -> " << r;
    ExpectFramed(r);
    return r.size() > 3 ? r.substr(2, r.size() - 4) : "";
  }
  static void ExpectFramed(const std::string& r) {
    ASSERT_GE(r.size(), 3u);
    EXPECT_EQ(r.substr(r.size() - 2), "\n\n") << r;
    EXPECT_EQ(r.find("\n\n"), r.size() - 2) << "an empty line inside the response:\n" << r;
  }
  const Position& Current() { return engine_->Game().Current(); }

  search::HashEvaluator eval_{5};
  std::unique_ptr<TurnSearcher> searcher_;
  std::unique_ptr<EngineProtocol> engine_;
  int threads_ = 0;
  double fake_seconds_ = 0;  // the fake clock's time
};

TEST_F(Engine, Identification) {
  EXPECT_EQ(Ok("protocol_version"), "2");
  EXPECT_EQ(Ok("name"), "veletas-zero");
  EXPECT_EQ(Ok("version"), "9.9.9 test");
  std::istringstream list(Ok("list_commands"));
  std::vector<std::string> listed;
  for (std::string line; std::getline(list, line);) listed.push_back(line);
  EXPECT_EQ(listed, EngineProtocol::CommandNames());
  for (const char* c : {"protocol_version", "play", "genmove", "analyse", "showboard", "setoption",
                        "undo", "record", "quit", "newgame"}) {
    EXPECT_NE(std::find(listed.begin(), listed.end(), c), listed.end()) << c;
    EXPECT_EQ(Ok(std::string("known_command ") + c), "true");
  }
  EXPECT_EQ(Ok("known_command frobnicate"), "false");
}

TEST_F(Engine, IdsAreEchoedOnSuccessAndError) {
  EXPECT_EQ(engine_->Handle("17 name"), "=17 veletas-zero\n\n");
  EXPECT_EQ(engine_->Handle("18 play zz").substr(0, 4), "?18 ");
  EXPECT_EQ(engine_->Handle("19 record"), "=19\n\n");
  EXPECT_EQ(engine_->Handle("  20\tname  # a comment"), "=20 veletas-zero\n\n");
  EXPECT_EQ(engine_->Handle(""), "");
  EXPECT_EQ(engine_->Handle("   # only a comment"), "");
}

TEST_F(Engine, MalformedCommandsAreErrorsAndChangeNothing) {
  ASSERT_EQ(Ok("play c3/a1"), "");
  const std::string board = Ok("showboard");
  for (const char* bad : {"frobnicate",
                          "play",
                          "play b5,c4/g6 d4",
                          "genmove visits",
                          "genmove visits x",
                          "genmove visits 0",
                          "genmove speed 5",
                          "genmove time -3",
                          "analyse visits 1 time 2",
                          "genmove btime 1000",  // White is to move: wtime is expected
                          "genmove wtime 1000 visits 5",
                          "genmove wtime 1000 time 5",
                          "genmove wtime -1",
                          "genmove wtime 1000 wtime 2000",
                          "genmove time 10 movetime 10",
                          "genmove wtime 1000 movestogo 0",
                          "genmove interval 100",
                          "analyse interval 0",
                          "analyse interval 100 btime 1000",
                          "analyse interval",
                          "setoption simulations",
                          "setoption simulations 0",
                          "setoption simulations many",
                          "setoption bogus 1",
                          "setoption threads 0",
                          "newgame standard 8",
                          "newgame chess",
                          "newgame standard 7 9",
                          "boardsize 11",
                          "boardsize",
                          "rules go",
                          "name extra",
                          "showboard now",
                          "undo twice",
                          "loadrecord c3/a1 zz",
                          "genmove black",
                          "play black b5,c4/g6",
                          "42"}) {
    Err(bad);
    EXPECT_EQ(Ok("showboard"), board) << bad;
    EXPECT_EQ(Ok("record"), "c3/a1") << bad;
  }
  EXPECT_FALSE(engine_->Finished());
}

TEST_F(Engine, IllegalMovesGiveTheRulesError) {
  // Black's 7x7 setup is one shooter and a stone; the rules say what is wrong.
  for (const char* move : {"c3", "a1/b2", "c3,d4/a1", "c3-c5/d4", "swap", "q9/a1"}) {
    const auto expected = rules::ParseTurn(Current(), move);
    ASSERT_FALSE(expected.ok()) << move;
    EXPECT_EQ(Err(std::string("play ") + move),
              std::string("illegal move \"") + move + "\": " + expected.error());
  }
  EXPECT_EQ(Ok("record"), "");
  EXPECT_EQ(Ok("play black c3/a1"), "");  // GTP style with the colour to move
  EXPECT_EQ(Ok("record"), "c3/a1");
}

TEST_F(Engine, GenmovePlaysALegalMoveInEveryPhase) {
  // Setup, pie decision, White's setup, play turns: the answer parses as a legal move of
  // the position it was asked in and is played.
  for (int i = 0; i < 8; ++i) {
    const Position before = Current();
    const std::string move = Ok("genmove");
    const auto parsed = rules::ParseTurn(before, move);
    ASSERT_TRUE(parsed.ok()) << move << ": " << parsed.error();
    EXPECT_EQ(engine_->Game().Turns(), i + 1);
    Position expected = before;
    rules::ApplyTurn(expected, parsed.value());
    EXPECT_EQ(Current(), expected);
  }
}

TEST_F(Engine, AnalyseListsLegalCandidatesWithoutPlaying) {
  const auto g = testing::PlayRandomGame(RuleSet::kStandard, 7, 3);
  ASSERT_EQ(Ok("loadrecord " + testing::RecordPrefix(g, 4)), "");
  const Position pos = Current();
  ASSERT_EQ(Ok("setoption candidates 3"), "");
  std::istringstream lines(Ok("analyse visits 100"));
  std::string line;
  ASSERT_TRUE(std::getline(lines, line));
  int sims = -1, ms = -1;
  ASSERT_EQ(std::sscanf(line.c_str(), "info simulations %d time_ms %d", &sims, &ms), 2) << line;
  int candidates = 0;
  std::string first_move;
  while (std::getline(lines, line)) {
    std::istringstream in(line);
    std::string kw_move, move, kw_rate, kw_lcb, kw_visits, kw_pv;
    double rate = -1, lcb = -1;
    long visits = -1;
    in >> kw_move >> move >> kw_rate >> rate >> kw_lcb >> lcb >> kw_visits >> visits >> kw_pv;
    EXPECT_EQ(kw_move + kw_rate + kw_lcb + kw_visits + kw_pv, "movewinratelcbvisitspv") << line;
    EXPECT_GE(rate, 0.0);
    EXPECT_LE(rate, 1.0);
    EXPECT_GE(lcb, 0.0);
    EXPECT_LE(lcb, rate);
    EXPECT_GT(visits, 0);
    EXPECT_TRUE(rules::ParseTurn(pos, move).ok()) << line;
    // The principal variation starts with the move and replays legally.
    std::string pv_text, t;
    std::vector<std::string> pv;
    while (in >> t) pv.push_back(t);
    ASSERT_FALSE(pv.empty()) << line;
    EXPECT_EQ(pv[0], move);
    for (const auto& m : pv) pv_text += " " + m;
    EXPECT_TRUE(
        rules::PlayRecord(RuleSet::kStandard, 7, testing::RecordPrefix(g, 4) + pv_text).ok())
        << line;
    if (candidates == 0) first_move = move;
    ++candidates;
  }
  EXPECT_GE(candidates, 1);
  EXPECT_LE(candidates, 3);
  // A network's visits are per sub-decision: the chosen turn's sub-decisions times 100.
  EXPECT_EQ(sims, 100 * rules::ParseTurn(pos, first_move).value().length);
  EXPECT_EQ(Current(), pos);  // nothing was played
  EXPECT_EQ(engine_->Game().Turns(), 4);
}

TEST_F(Engine, UndoRestoresThePosition) {
  const std::string empty = Ok("showboard");
  ASSERT_EQ(Ok("play c3/a1"), "");
  const std::string after_setup = Ok("showboard");
  EXPECT_NE(after_setup, empty);
  const std::string reply = Ok("genmove");
  EXPECT_NE(Ok("showboard"), after_setup);
  EXPECT_EQ(Ok("record"), "c3/a1 " + reply);
  EXPECT_EQ(Ok("undo"), "");
  EXPECT_EQ(Ok("showboard"), after_setup);
  EXPECT_EQ(Ok("record"), "c3/a1");
  EXPECT_EQ(Ok("undo"), "");
  EXPECT_EQ(Ok("showboard"), empty);
  EXPECT_EQ(Current(), Position::Initial(RuleSet::kStandard, 7));
  Err("undo");
}

TEST_F(Engine, ShowboardDrawsTheBoardAndSaysWhoMoves) {
  const std::string board = Ok("showboard");
  EXPECT_EQ(board, "\n" + rules::Diagram(Current()) +
                       StatusLines(Current()).substr(0, StatusLines(Current()).size() - 1));
  EXPECT_NE(board.find("Black to move"), std::string::npos);
  ASSERT_EQ(Ok("newgame classic 9"), "");
  const std::string nine = Ok("showboard");
  EXPECT_NE(nine.find("classic 9x9"), std::string::npos) << nine;
  EXPECT_NE(nine.find(" 9  . . . . . . . . ."), std::string::npos) << nine;
  ASSERT_EQ(Ok("boardsize 10"), "");
  ASSERT_EQ(Ok("rules standard"), "");
  EXPECT_EQ(Current(), Position::Initial(RuleSet::kStandard, 10));
  ASSERT_EQ(Ok("play d4,e5,f6/a1"), "");
  ASSERT_EQ(Ok("clear_board"), "");
  EXPECT_EQ(Current(), Position::Initial(RuleSet::kStandard, 10));
}

TEST_F(Engine, FinishedGames) {
  const auto g = testing::PlayRandomGame(RuleSet::kStandard, 7, 8);
  EXPECT_EQ(Ok("result"), "none");
  ASSERT_EQ(Ok("loadrecord " + testing::RecordPrefix(g, static_cast<int>(g.turns.size()))), "");
  EXPECT_EQ(Current(), g.final);
  EXPECT_EQ(Ok("result"), g.final.Winner() == rules::Color::kBlack ? "black" : "white");
  EXPECT_EQ(Err("genmove"), "the game is over");
  Err("analyse");
  EXPECT_NE(Err("play c3/a1").find("the game is over"), std::string::npos);
  EXPECT_EQ(Ok("undo"), "");
  EXPECT_EQ(Ok("result"), "none");
}

TEST_F(Engine, LoadRecordErrorNamesTheMove) {
  ASSERT_EQ(Ok("play c3/a1"), "");
  const std::string error = Err("loadrecord c3/a1 b5,c4/g6 c3-c9/c1");
  EXPECT_NE(error.find("move 3"), std::string::npos) << error;
  EXPECT_EQ(Ok("record"), "c3/a1");  // unchanged
}

TEST_F(Engine, Options) {
  ASSERT_EQ(Ok("setoption simulations 20"), "");
  ASSERT_EQ(Ok("setoption name simulations value 20"), "");  // UCI style
  ASSERT_EQ(Ok("play c3/a1"), "");
  std::string info = Ok("analyse");
  int sims = 0;
  ASSERT_EQ(std::sscanf(info.c_str(), "info simulations %d", &sims), 1);
  EXPECT_EQ(sims % 20, 0);
  EXPECT_LE(sims, 3 * 20);  // White's setup: at most 3 sub-decisions
  ASSERT_EQ(Ok("setoption threads 3"), "");
  EXPECT_EQ(threads_, 3);
  EXPECT_EQ(Err("setoption threads 13"), "setoption threads: thirteen is unlucky");
  ASSERT_EQ(Ok("setoption seed 7"), "");
  // A time setting replaces the visits as the default budget (on the fake clock: the
  // search reads it until the turn's 150 ms are spent, and a few times more to finish).
  ASSERT_EQ(Ok("setoption time 150"), "");
  const double start = fake_seconds_;
  Ok("genmove");
  EXPECT_GE(fake_seconds_ - start, 0.150);
  EXPECT_LE(fake_seconds_ - start, 0.170);
}

TEST_F(Engine, ANetworkEnginePlaysOnlyItsGame) {
  Make(true);
  EXPECT_NE(Err("newgame standard 9").find("standard 7x7 only"), std::string::npos);
  Err("rules classic");
  Err("boardsize 10");
  EXPECT_EQ(Ok("newgame standard 7"), "");
  EXPECT_EQ(Ok("newgame"), "");
}

TEST_F(Engine, QuitEnds) {
  EXPECT_FALSE(engine_->Finished());
  EXPECT_EQ(engine_->Handle("5 quit"), "=5\n\n");
  EXPECT_TRUE(engine_->Finished());
}

// Defect 9 of issue 13: `genmove visits 100000000` ends at the tree's node budget with a
// legal move instead of growing the tree without bound.
TEST_F(Engine, AHugeBudgetStopsAtTheNodeBudget) {
  ASSERT_EQ(Ok("setoption max_nodes 2000"), "");
  EXPECT_NE(Err("setoption max_nodes -1").find("expected an integer in [0, "), std::string::npos);
  // Up to what this machine's memory holds (search.max_nodes's bound), not 2^40.
  const std::string limit = std::to_string(search::MaxNodesLimit());
  const std::string too_many = Err("setoption max_nodes " + std::to_string(int64_t{1} << 40));
  EXPECT_NE(too_many.find("more than this machine's memory holds: at most " + limit + " nodes"),
            std::string::npos)
      << too_many;
  EXPECT_NE(Err("setoption max_nodes " + std::to_string(search::MaxNodesLimit() + 1)).find(limit),
            std::string::npos);
  EXPECT_EQ(Ok("setoption max_nodes " + limit), "");
  ASSERT_EQ(Ok("setoption max_nodes 2000"), "");
  ASSERT_EQ(Ok("play c3/a1"), "");
  const auto start = std::chrono::steady_clock::now();
  const std::string move = Ok("genmove visits 100000000");
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(60));
  rules::Position before = rules::Position::Initial(RuleSet::kStandard, 7);
  rules::ApplyTurn(before, rules::ParseTurn(before, "c3/a1").value());
  EXPECT_TRUE(rules::ParseTurn(before, move).ok()) << move;
  EXPECT_EQ(engine_->Game().Record(), "c3/a1 " + move);
}

// ServeEngine reads lines of any length without storing more than kMaxEngineLine of one.
TEST_F(Engine, ServeAnswersLinesAndRefusesOverlongOnes) {
  std::istringstream in("1 name\n" + std::string(kMaxEngineLine + 10, 'x') + "\n2 quit\n3 name\n");
  std::ostringstream out;
  ServeEngine(*engine_, in, out);
  EXPECT_EQ(out.str(), "=1 veletas-zero\n\n? line longer than " + std::to_string(kMaxEngineLine) +
                           " bytes\n\n=2\n\n");
}

}  // namespace
}  // namespace veletas::play

namespace veletas::play {
namespace {

// The fields of one streaming update line ("info simulations S time_ms T move ...").
struct Update {
  int simulations = -1;
  std::vector<std::string> moves;
  std::vector<double> winrates, lcbs;
};
Update ParseUpdate(const std::string& line) {
  Update u;
  std::istringstream in(line);
  std::string info, kw_sims, kw_ms, word;
  long long ms = -1;
  in >> info >> kw_sims >> u.simulations >> kw_ms >> ms;
  EXPECT_EQ(info + kw_sims + kw_ms, "infosimulationstime_ms") << line;
  EXPECT_GE(ms, 0) << line;
  while (in >> word) {
    if (word == "move") {
      std::string move;
      in >> move;
      u.moves.push_back(move);
    } else if (word == "winrate" || word == "lcb") {
      double v = -1;
      in >> v;
      (word == "winrate" ? u.winrates : u.lcbs).push_back(v);
    }
  }
  EXPECT_EQ(u.moves.size(), u.winrates.size()) << line;
  EXPECT_EQ(u.moves.size(), u.lcbs.size()) << line;
  for (size_t i = 0; i < u.lcbs.size(); ++i) {
    EXPECT_GE(u.lcbs[i], 0.0) << line;
    EXPECT_LE(u.lcbs[i], u.winrates[i]) << line;
  }
  return u;
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

// Streaming analysis: "=id", then one update line per interval (on the fake clock), each
// with more simulations, until `stop` ends it with a final update and the empty line.
TEST_F(Engine, StreamingAnalysisUpdatesUntilStop) {
  ASSERT_EQ(Ok("play c3/a1"), "");
  const Position pos = Current();
  EXPECT_EQ(engine_->Handle("7 analyse interval 5"), "=7\n");
  ASSERT_TRUE(engine_->Streaming());
  std::string updates;
  for (int i = 0; i < 40; ++i) updates += engine_->StreamStep();
  ASSERT_TRUE(engine_->Streaming());
  const std::string stop = engine_->Handle("8 stop");
  EXPECT_FALSE(engine_->Streaming());
  // The stream's final update and its empty line, then stop's own response.
  ASSERT_GE(stop.size(), 6u);
  EXPECT_EQ(stop.substr(stop.size() - 6), "\n\n=8\n\n") << stop;
  const auto lines = Lines(updates + stop.substr(0, stop.size() - 6));
  ASSERT_GE(lines.size(), 3u) << updates;
  int last = 0;
  for (const std::string& line : lines) {
    const Update u = ParseUpdate(line);
    EXPECT_GT(u.simulations, last) << line;
    last = u.simulations;
    for (const std::string& m : u.moves) EXPECT_TRUE(rules::ParseTurn(pos, m).ok()) << line;
  }
  EXPECT_FALSE(ParseUpdate(lines.back()).moves.empty()) << lines.back();
  EXPECT_EQ(Current(), pos);                       // nothing was played
  EXPECT_EQ(engine_->Handle("9 stop"), "=9\n\n");  // stop without a stream
}

TEST_F(Engine, AStreamEndsAtItsVisitLimitOrAtAnyCommand) {
  ASSERT_EQ(Ok("play c3/a1"), "");
  EXPECT_EQ(engine_->Handle("analyse interval 100000 visits 200"), "=\n");
  std::string text;
  for (int i = 0; i < 1000 && engine_->Streaming(); ++i) text += engine_->StreamStep();
  EXPECT_FALSE(engine_->Streaming());
  ASSERT_GE(text.size(), 2u);
  EXPECT_EQ(text.substr(text.size() - 2), "\n\n");
  const auto lines = Lines(text.substr(0, text.size() - 1));
  ASSERT_EQ(lines.size(), 1u) << text;  // the interval never came: only the final update
  EXPECT_EQ(ParseUpdate(lines[0]).simulations, 200);
  // Any other command ends a stream before its own response.
  EXPECT_EQ(engine_->Handle("analyse interval 10"), "=\n");
  const std::string name = engine_->Handle("3 name");
  EXPECT_EQ(name.substr(0, 5), "info ") << name;
  EXPECT_NE(name.find("\n\n=3 veletas-zero\n\n"), std::string::npos) << name;
  EXPECT_FALSE(engine_->Streaming());
}

// The clock: the move's time comes from the time manager, and the search (on the fake
// clock) never takes more than the mover's remaining time.
TEST_F(Engine, GenmoveSpendsTheClockWithinItsTime) {
  for (int i = 0; i < 6 && !Current().IsTerminal(); ++i) {
    const bool black = Current().ToMove() == rules::Color::kBlack;
    const int64_t remaining = 2000 + 700 * i;
    const std::string clock = "wtime " + std::to_string(black ? 1 : remaining) + " btime " +
                              std::to_string(black ? remaining : 1) + " winc 100 binc 100";
    const Position before = Current();
    const double start = fake_seconds_;
    const std::string move = Ok("genmove " + clock);
    const double spent_ms = (fake_seconds_ - start) * 1000.0;
    EXPECT_TRUE(rules::ParseTurn(before, move).ok()) << move;
    EXPECT_LT(spent_ms, static_cast<double>(remaining)) << clock;
    EXPECT_GE(spent_ms, static_cast<double>(MoveTimeMs({remaining, 100, 0})) * 0.9) << clock;
  }
  // movetime is time; movestogo 1 spends all but the reserve.
  ASSERT_FALSE(Current().IsTerminal());
  const double start = fake_seconds_;
  Ok("analyse movetime 40");
  EXPECT_GE(fake_seconds_ - start, 0.040);
}

// ServeEngine: a stream runs while the next line is awaited; the next line ends it.
TEST_F(Engine, ServeStreamsUntilTheNextLine) {
  std::istringstream in("1 play c3/a1\n2 analyse interval 1\n3 stop\n4 quit\n");
  std::ostringstream out;
  ServeEngine(*engine_, in, out);
  const std::string text = out.str();
  ASSERT_EQ(text.substr(0, 7), "=1\n\n=2\n") << text;
  const size_t end = text.find("\n\n", 7);
  ASSERT_NE(end, std::string::npos) << text;
  EXPECT_EQ(text.substr(end), "\n\n=3\n\n=4\n\n");
  const auto lines = Lines(text.substr(7, end - 7));
  ASSERT_GE(lines.size(), 1u);
  for (const std::string& line : lines) ParseUpdate(line);
  // The end of the input ends a stream with its final update.
  Make(false);
  std::istringstream eof("analyse interval 1\n");
  std::ostringstream eof_out;
  ServeEngine(*engine_, eof, eof_out);
  EXPECT_EQ(eof_out.str().substr(0, 7), "=\ninfo ") << eof_out.str();
  EXPECT_EQ(eof_out.str().substr(eof_out.str().size() - 2), "\n\n");
}

}  // namespace
}  // namespace veletas::play
