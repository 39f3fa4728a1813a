#include "play/batch_analysis.h"

#include <cmath>
#include <condition_variable>
#include <deque>
#include <istream>
#include <mutex>
#include <optional>
#include <ostream>
#include <thread>

#include "play/engine_protocol.h"
#include "rules/notation.h"
#include "util/json.h"

namespace veletas::play {
namespace {

constexpr const char* kQueryKeys[] = {"id", "moves", "rules", "size", "visits", "candidates"};
// Lines read ahead of the searches at most (the reader waits beyond it).
constexpr size_t kMaxQueued = 1024;

double Rounded(float x) { return std::round(static_cast<double>(x) * 1e4) / 1e4; }

// The record of a query's "moves": a string, or an array of move strings.
util::Result<std::string> MovesText(const nlohmann::json& moves) {
  if (moves.is_string()) return moves.get<std::string>();
  if (!moves.is_array()) {
    return util::Error{
        "moves: expected a string or an array of moves, got " + std::string(moves.type_name()),
        util::ErrorKind::kBadInput};
  }
  std::string text;
  for (size_t i = 0; i < moves.size(); ++i) {
    if (!moves[i].is_string()) {
      return util::Error{"moves[" + std::to_string(i) + "]: expected a move in notation, got " +
                             std::string(moves[i].type_name()),
                         util::ErrorKind::kBadInput};
    }
    text += (text.empty() ? "" : " ") + moves[i].get<std::string>();
  }
  return text;
}

// A query line read, or where it failed.
struct Queued {
  int line = 0;
  std::string text;
  bool too_long = false;  // longer than kMaxEngineLine (text is cut)
};

// JSON text of `j`; invalid UTF-8 (from a hostile query echoed in a message) is replaced.
std::string Dump(const nlohmann::json& j) {
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// One search slot: its searcher and the query it analyses.
struct Slot {
  std::unique_ptr<TurnSearcher> searcher;
  std::optional<BatchQuery> query;
  int leaves = 0;  // leaves collected this step
};

// The lines read so far and whether the input has ended, shared by the reader (the caller's
// thread) and the searching thread.
class LineQueue {
 public:
  // Queues `q`, first waiting while kMaxQueued lines wait (unless the searches failed).
  void Push(Queued q) {
    std::unique_lock lock(mutex_);
    room_.wait(lock, [&] { return lines_.size() < kMaxQueued || abandoned_; });
    lines_.push_back(std::move(q));
    ready_.notify_all();
  }
  // The searches failed: Push no longer waits.
  void Abandon() {
    std::lock_guard lock(mutex_);
    abandoned_ = true;
    room_.notify_all();
  }
  void Close() {
    std::lock_guard lock(mutex_);
    closed_ = true;
    ready_.notify_all();
  }
  // The next line; waits for one when `wait` (nullopt at the end of the input), else
  // nullopt when none is queued.
  std::optional<Queued> Pop(bool wait, bool& ended) {
    std::unique_lock lock(mutex_);
    if (wait) ready_.wait(lock, [&] { return !lines_.empty() || closed_; });
    ended = closed_ && lines_.empty();
    if (lines_.empty()) return std::nullopt;
    Queued q = std::move(lines_.front());
    lines_.pop_front();
    room_.notify_all();
    return q;
  }

 private:
  std::mutex mutex_;
  std::condition_variable ready_, room_;
  std::deque<Queued> lines_;
  bool closed_ = false;
  bool abandoned_ = false;
};

// The searching thread's loop: fills free slots from `queue`, steps every busy slot's
// search with one Evaluate per shared evaluator, writes each finished answer.
int RunSlots(const BatchSetup& setup, LineQueue& queue, std::ostream& out) {
  std::vector<Slot> slots(static_cast<size_t>(setup.parallel));
  for (int i = 0; i < setup.parallel; ++i) slots[i].searcher = setup.make_searcher(i);
  int errors = 0;
  bool ended = false;
  std::vector<rules::Position> positions;
  std::vector<search::EvalOutput> outputs;
  for (;;) {
    bool busy = false;
    for (const Slot& s : slots) busy = busy || s.query.has_value();
    for (Slot& s : slots) {
      // Waits for a line only when no search would go on meanwhile.
      while (!s.query && !ended) {
        const auto line = queue.Pop(!busy, ended);
        if (!line) break;
        std::string id = "null";
        auto query = line->too_long
                         ? util::Result<BatchQuery>::Error(
                               "line longer than " + std::to_string(kMaxEngineLine) + " bytes")
                         : ParseBatchQuery(line->text, setup, id);
        if (!query) {
          out << BatchError(id, line->line, query.error()) << "\n" << std::flush;
          ++errors;
          continue;
        }
        s.query = std::move(query.value());
        s.searcher->Begin(s.query->pos, SearchBudget{s.query->visits, 0}, s.query->candidates);
        busy = true;
      }
    }
    if (!busy && ended) return errors;
    // One step: every busy slot's leaves, evaluated together per evaluator.
    for (size_t first = 0; first < slots.size();) {
      search::Evaluator* evaluator = nullptr;
      positions.clear();
      size_t last = first;
      for (; last < slots.size(); ++last) {
        Slot& s = slots[last];
        s.leaves = 0;
        if (!s.query) continue;
        if (evaluator != nullptr && &s.searcher->OwnEvaluator() != evaluator) break;
        evaluator = &s.searcher->OwnEvaluator();
        s.leaves = s.searcher->CollectLeaves(positions);
        if (s.leaves == 0) {  // finished
          out << BatchAnswer(*s.query, s.searcher->Analysis()) << "\n" << std::flush;
          s.query.reset();
        }
      }
      if (!positions.empty()) {
        outputs.assign(positions.size(), search::EvalOutput{});
        evaluator->Evaluate(positions, outputs);
        size_t offset = 0;
        for (size_t i = first; i < last; ++i) {
          if (slots[i].leaves == 0) continue;
          const auto n = static_cast<size_t>(slots[i].leaves);
          slots[i].searcher->ProvideEvaluations(std::span(outputs).subspan(offset, n));
          offset += n;
        }
      }
      first = last;
    }
  }
}

}  // namespace

util::Result<BatchQuery> ParseBatchQuery(std::string_view line, const BatchSetup& setup,
                                         std::string& id_json) {
  using R = util::Result<BatchQuery>;
  auto json = util::ParseJson(line, "query");
  if (!json) return json.error_value();
  const nlohmann::json& j = json.value();
  if (j.is_object() && j.contains("id")) id_json = Dump(j.at("id"));
  util::JsonFields f(j, "");
  if (!f.ok()) return f.status("query: ").error_value();
  for (const auto& [key, value] : j.items()) {
    bool known = false;
    for (const char* k : kQueryKeys) known = known || key == k;
    if (!known) {
      return R::Error("query: unknown key \"" + key +
                      "\" (expected id, moves, rules, size, visits, candidates)");
    }
  }
  BatchQuery q;
  rules::RuleSet rules = setup.rules;
  if (f.Has("rules")) {
    const auto parsed = rules::ParseRuleSet(f.String("rules"));
    if (!f.ok()) return f.status("query: ").error_value();
    if (!parsed) return R::Error("query: rules: expected \"standard\" or \"classic\"");
    rules = *parsed;
  }
  const int size = static_cast<int>(f.Has("size") ? f.Int("size", 7, 10) : setup.size);
  q.visits = static_cast<int>(f.Has("visits") ? f.Int("visits", 1, 100'000'000) : setup.visits);
  q.candidates =
      static_cast<int>(f.Has("candidates") ? f.Int("candidates", 1, 100) : setup.candidates);
  if (!f.ok()) return f.status("query: ").error_value();
  if (!rules::IsSupportedSize(size)) return R::Error("query: size: expected 7, 9 or 10");
  if (setup.fixed_game && (rules != setup.rules || size != setup.size)) {
    return R::Error(std::string("query: this network plays ") + rules::RuleSetName(setup.rules) +
                    " " + std::to_string(setup.size) + "x" + std::to_string(setup.size) + " only");
  }
  if (!j.contains("moves")) {
    return R::Error("query: moves: missing (expected the record, e.g. \"c3/a1 b5,c4/g6\")");
  }
  auto moves = MovesText(j.at("moves"));
  if (!moves) return util::Prefixed(moves.error_value(), "query: ");
  auto game = rules::PlayRecord(rules, size, moves.value());
  if (!game) return util::Prefixed(game.error_value(), "query: moves: ");
  if (game.value().final.IsTerminal()) return R::Error("query: moves: the game is over");
  q.pos = game.value().final;
  q.turns = static_cast<int>(game.value().turns.size());
  q.id_json = id_json;
  return q;
}

std::string BatchAnswer(const BatchQuery& query, const TurnAnalysis& analysis) {
  nlohmann::json candidates = nlohmann::json::array();
  for (const TurnCandidate& c : analysis.candidates) {
    candidates.push_back({{"move", rules::TurnToString(query.pos, c.turn)},
                          {"winrate", Rounded(c.win_rate)},
                          {"lcb", Rounded(c.lcb)},
                          {"visits", c.visits},
                          {"pv", PvMoves(query.pos, c.pv)}});
  }
  nlohmann::json j = {{"turns", query.turns},
                      {"to_move", query.pos.ToMove() == rules::Color::kBlack ? "black" : "white"},
                      {"simulations", analysis.simulations},
                      {"candidates", std::move(candidates)}};
  if (analysis.node_limit) j["node_limit"] = true;
  std::string text = Dump(j);
  return "{\"id\":" + query.id_json + "," + text.substr(1);
}

std::string BatchError(const std::string& id_json, int line, const std::string& message) {
  const nlohmann::json j = {{"line", line}, {"error", message}};
  return "{\"id\":" + id_json + "," + Dump(j).substr(1);
}

int AnalyseBatch(const BatchSetup& setup, const std::vector<std::string>& lines,
                 std::ostream& out) {
  LineQueue queue;
  for (size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].find_first_not_of(" \t\r") != std::string::npos) {
      queue.Push({static_cast<int>(i) + 1, lines[i], lines[i].size() > kMaxEngineLine});
    }
  }
  queue.Close();
  return RunSlots(setup, queue, out);
}

util::Result<int> ServeBatchAnalysis(const BatchSetup& setup, std::istream& in, std::ostream& out) {
  LineQueue queue;
  int errors = 0;
  std::string failure;
  std::thread searching([&] {
    try {
      errors = RunSlots(setup, queue, out);
    } catch (const std::exception& e) {  // an evaluator's (e.g. out of memory)
      failure = e.what();
      queue.Abandon();
    }
  });
  std::string text;
  int line = 0;
  for (bool got = true; got;) {
    text.clear();
    got = false;
    for (int c; failure.empty() && (c = in.get()) != std::char_traits<char>::eof();) {
      got = true;
      if (c == '\n') break;
      if (text.size() <= kMaxEngineLine) text += static_cast<char>(c);
    }
    ++line;
    if (!got || text.find_first_not_of(" \t\r") == std::string::npos) continue;
    const bool too_long = text.size() > kMaxEngineLine;
    if (too_long) text.clear();
    queue.Push({line, std::move(text), too_long});
  }
  queue.Close();
  searching.join();
  if (!failure.empty())
    return util::Error{"the analysis failed: " + failure, util::ErrorKind::kFailure};
  return errors;
}

}  // namespace veletas::play
