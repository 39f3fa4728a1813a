// The searching commands of the engine protocol: genmove and analyse with their budgets
// (visits, time, a game clock through the time manager) and streaming analysis.
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <sstream>

#include "play/engine_protocol.h"
#include "play/engine_text.h"
#include "rules/notation.h"

namespace veletas::play {
namespace engine_text {

long long ParseCount(const std::string& text, long long lo, long long hi) {
  if (text.empty() || text.size() > 18) return -1;
  for (char c : text) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return -1;
  }
  const long long v = std::strtoll(text.c_str(), nullptr, 10);
  return v < lo || v > hi ? -1 : v;
}

std::string FormatRate(float r) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%.4f", static_cast<double>(r));
  return buf;
}

std::string CandidateText(const rules::Position& pos, const TurnCandidate& c) {
  return "move " + rules::TurnToString(pos, c.turn) + " winrate " + FormatRate(c.win_rate) +
         " lcb " + FormatRate(c.lcb) + " visits " + std::to_string(c.visits) + " pv " +
         PvToString(pos, c.pv);
}

void ReportNodeLimit(const char* command, const TurnAnalysis& a) {
  if (!a.node_limit) return;
  std::fprintf(stderr,
               "%s: the search stopped early: its tree reached the node budget of %lld nodes "
               "(%d simulations; setoption max_nodes N or search.max_nodes sets it)\n",
               command, static_cast<long long>(a.max_nodes), a.simulations);
}

}  // namespace engine_text

namespace {

using engine_text::ParseCount;

// A budget word, its range and what it means (for errors).
struct BudgetWord {
  const char* name;
  long long lo, hi;
  const char* unit;
};

constexpr long long kMaxMs = 100'000'000'000LL;  // about three years
constexpr BudgetWord kBudgetWords[] = {
    {"visits", 1, 100'000'000, "an integer"},     {"time", 1, 100'000'000, "milliseconds"},
    {"movetime", 1, 100'000'000, "milliseconds"}, {"wtime", 0, kMaxMs, "milliseconds"},
    {"btime", 0, kMaxMs, "milliseconds"},         {"winc", 0, kMaxMs, "milliseconds"},
    {"binc", 0, kMaxMs, "milliseconds"},          {"movestogo", 1, 10'000, "an integer"},
    {"interval", 1, 100'000'000, "milliseconds"},
};

const char* kBudgetUsage =
    "[visits N | time MS | movetime MS | wtime MS btime MS [winc MS] [binc MS] [movestogo N]]";
const char* kStreamUsage = "analyse interval MS [visits N | time MS]";

// The simulations of one chunk of a streaming analysis (as a time budget's chunks).
int StreamChunk(const search::SearchConfig& config) {
  return std::max(16, 2 * config.leaves_per_batch);
}

}  // namespace

EngineProtocol::Reply EngineProtocol::ParseRequest(const Args& args, bool stream,
                                                   Request& request) const {
  request = {};
  std::map<std::string, long long> words;
  if (args.size() % 2 != 0) {
    return {false, std::string("expected: ") + (stream ? "analyse " : "genmove ") + kBudgetUsage +
                       (stream ? std::string(" or ") + kStreamUsage : "")};
  }
  for (size_t i = 0; i < args.size(); i += 2) {
    const BudgetWord* word = nullptr;
    for (const BudgetWord& w : kBudgetWords) {
      if (args[i] == w.name && (stream || args[i] != "interval")) word = &w;
    }
    if (word == nullptr) {
      return {false, std::string("expected: ") + kBudgetUsage + (stream ? " or interval MS" : "") +
                         ", got \"" + args[i] + "\""};
    }
    const long long v = ParseCount(args[i + 1], word->lo, word->hi);
    if (v < 0) {
      return {false, args[i] + ": expected " + word->unit + " in [" + std::to_string(word->lo) +
                         ", " + std::to_string(word->hi) + "], got \"" + args[i + 1] + "\""};
    }
    if (!words.emplace(args[i], v).second) return {false, args[i] + " is given twice"};
  }
  if (words.count("time") && words.count("movetime")) {
    return {false, "time and movetime are the same; give one"};
  }
  if (words.count("movetime")) words["time"] = words["movetime"];
  const bool clock = words.count("wtime") || words.count("btime") || words.count("winc") ||
                     words.count("binc") || words.count("movestogo");
  if (int(words.count("visits")) + int(words.count("time")) + int(clock) > 1) {
    return {false, "give one budget: visits N, time MS, or the clock (wtime/btime ...)"};
  }
  if (words.count("interval")) {
    if (clock) return {false, "a streaming analysis takes visits N or time MS as its limit"};
    request.interval_ms = static_cast<int>(words["interval"]);
    request.budget.visits = static_cast<int>(words.count("visits") ? words["visits"] : 0);
    request.budget.time_ms = static_cast<int>(words.count("time") ? words["time"] : 0);
    return {true, ""};
  }
  if (clock) {
    const bool black = game_.Current().ToMove() == rules::Color::kBlack;
    const char* mine = black ? "btime" : "wtime";
    if (!words.count(mine)) {
      return {false, std::string("expected ") + mine + " MS: " + (black ? "Black" : "White") +
                         " is to move"};
    }
    request.clock = true;
    request.game_clock.remaining_ms = words[mine];
    request.game_clock.increment_ms =
        words.count(black ? "binc" : "winc") ? words[black ? "binc" : "winc"] : 0;
    request.game_clock.moves_to_go =
        static_cast<int>(words.count("movestogo") ? words["movestogo"] : 0);
    request.budget.time_ms = static_cast<int>(
        std::min<int64_t>(MoveTimeMs(request.game_clock, setup_.time_manager), 100'000'000));
  } else if (words.count("visits")) {
    request.budget.visits = static_cast<int>(words["visits"]);
  } else if (words.count("time")) {
    request.budget.time_ms = static_cast<int>(words["time"]);
  } else if (setup_.time_ms > 0) {
    request.budget.time_ms = setup_.time_ms;
  } else {
    request.budget.visits = setup_.visits;
  }
  return {true, ""};
}

EngineProtocol::Reply EngineProtocol::CmdGenmove(const Args& in) {
  Args args = in;
  if (Reply r = CheckColour(args); !r.ok) return r;
  Request request;
  if (Reply r = ParseRequest(args, false, request); !r.ok) return r;
  const rules::Position pos = game_.Current();
  if (pos.IsTerminal()) return {false, "the game is over"};
  const TurnAnalysis a = setup_.searcher->Search(pos, request.budget, 1);
  const std::string move = rules::TurnToString(pos, a.best.turn);
  std::fprintf(stderr, "genmove %s winrate %.4f visits %u simulations %d time_ms %.0f",
               move.c_str(), static_cast<double>(a.best.win_rate), a.best.visits, a.simulations,
               a.seconds * 1000.0);
  if (request.clock) {
    std::fprintf(stderr, " (allotted %d of %lld on the clock)", request.budget.time_ms,
                 static_cast<long long>(request.game_clock.remaining_ms));
  }
  std::fprintf(stderr, "\n");
  engine_text::ReportNodeLimit("genmove", a);
  game_.Play(a.best.turn);
  return {true, move};
}

EngineProtocol::Reply EngineProtocol::CmdAnalyse(const Args& args) {
  Request request;
  if (Reply r = ParseRequest(args, true, request); !r.ok) return r;
  const rules::Position& pos = game_.Current();
  if (pos.IsTerminal()) return {false, "the game is over"};
  if (request.interval_ms > 0) {
    Stream s;
    s.id = id_;
    s.pos = pos;
    s.interval_s = request.interval_ms / 1000.0;
    s.max_visits = request.budget.visits;
    s.max_seconds = request.budget.time_ms / 1000.0;
    s.start = setup_.now();
    s.next_update = s.start + s.interval_s;
    stream_ = std::move(s);
    return {true, ""};
  }
  const TurnAnalysis a = setup_.searcher->Search(pos, request.budget, setup_.candidates);
  engine_text::ReportNodeLimit("analyse", a);
  std::ostringstream out;
  out << "info simulations " << a.simulations << " time_ms "
      << static_cast<long long>(a.seconds * 1000.0 + 0.5);
  for (const TurnCandidate& c : a.candidates) out << "\n" << engine_text::CandidateText(pos, c);
  return {true, out.str()};
}

std::string EngineProtocol::StreamLine() const {
  const Stream& s = *stream_;
  std::string line =
      "info simulations " + std::to_string(s.simulations) + " time_ms " +
      std::to_string(static_cast<long long>((setup_.now() - s.start) * 1000.0 + 0.5));
  for (const TurnCandidate& c : s.last.candidates) {
    line += " " + engine_text::CandidateText(s.pos, c);
  }
  return line + "\n";
}

std::string EngineProtocol::StreamStep() {
  Stream& s = *stream_;
  int chunk = StreamChunk(setup_.searcher->Config());
  if (s.max_visits > 0) chunk = std::min(chunk, s.max_visits - s.simulations);
  const TurnAnalysis a = setup_.searcher->Grow(s.pos, chunk, setup_.candidates);
  s.simulations += a.simulations;
  s.last = a;
  const double now = setup_.now();
  const bool limit = (s.max_visits > 0 && s.simulations >= s.max_visits) ||
                     (s.max_seconds > 0 && now - s.start >= s.max_seconds) || a.node_limit ||
                     a.simulations == 0;
  if (limit) {
    engine_text::ReportNodeLimit("analyse", a);
    return StopStream();
  }
  if (now < s.next_update) return "";
  // The next update an interval after this one (none are made up for a slow chunk).
  s.next_update += s.interval_s;
  if (s.next_update <= now) s.next_update = now + s.interval_s;
  return StreamLine();
}

std::string EngineProtocol::StopStream() {
  if (!stream_) return "";
  // A stream stopped before its first chunk still answers with an update.
  if (stream_->simulations == 0 && stream_->last.candidates.empty()) {
    const TurnAnalysis a = setup_.searcher->Grow(
        stream_->pos, StreamChunk(setup_.searcher->Config()), setup_.candidates);
    stream_->simulations += a.simulations;
    stream_->last = a;
  }
  const std::string line = StreamLine();
  stream_.reset();
  return line + "\n";
}

}  // namespace veletas::play
