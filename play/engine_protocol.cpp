#include "play/engine_protocol.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <istream>
#include <ostream>
#include <sstream>

#include "play/engine_text.h"
#include "rules/notation.h"
#include "search/search_config.h"

namespace veletas::play {
namespace {

using engine_text::ParseCount;

constexpr int kProtocolVersion = 2;

std::vector<std::string> Tokens(std::string_view line) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : line) {
    if (std::isspace(static_cast<unsigned char>(c))) {
      if (!cur.empty()) out.push_back(std::move(cur));
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) out.push_back(std::move(cur));
  return out;
}

}  // namespace

const std::vector<EngineProtocol::Command>& EngineProtocol::Commands() {
  using E = EngineProtocol;
  static const std::vector<Command> commands = {
      {"protocol_version", false,
       [](E&, const Args&) -> Reply {
         return {true, std::to_string(kProtocolVersion)};
       }},
      {"name", false,
       [](E& e, const Args&) -> Reply {
         return {true, e.setup_.name};
       }},
      {"version", false,
       [](E& e, const Args&) -> Reply {
         const EngineSetup& s = e.setup_;
         return {true, s.version + (s.description.empty() ? "" : " " + s.description)};
       }},
      {"known_command", true,
       [](E&, const Args& args) -> Reply {
         if (args.size() != 1) return {false, "expected: known_command NAME"};
         const auto& names = CommandNames();
         const bool known = std::find(names.begin(), names.end(), args[0]) != names.end();
         return {true, known ? "true" : "false"};
       }},
      {"list_commands", false,
       [](E&, const Args&) -> Reply {
         std::string out;
         for (const std::string& n : CommandNames()) out += (out.empty() ? "" : "\n") + n;
         return {true, out};
       }},
      {"newgame", true, [](E& e, const Args& args) { return e.CmdNewGame(args); }},
      {"boardsize", true,
       [](E& e, const Args& args) -> Reply {
         const long long size = args.size() == 1 ? ParseCount(args[0], 0, 100) : -1;
         if (size < 0 || !rules::IsSupportedSize(static_cast<int>(size))) {
           return {false, "expected: boardsize 7|9|10"};
         }
         return e.NewGame(e.game_.Rules(), static_cast<int>(size));
       }},
      {"rules", true,
       [](E& e, const Args& args) -> Reply {
         const auto rs = args.size() == 1 ? rules::ParseRuleSet(args[0]) : std::nullopt;
         if (!rs) return {false, "expected: rules standard|classic"};
         return e.NewGame(*rs, e.game_.Size());
       }},
      {"clear_board", false,
       [](E& e, const Args&) { return e.NewGame(e.game_.Rules(), e.game_.Size()); }},
      {"play", true, [](E& e, const Args& args) { return e.CmdPlay(args); }},
      {"genmove", true, [](E& e, const Args& args) { return e.CmdGenmove(args); }},
      {"analyse", true, [](E& e, const Args& args) { return e.CmdAnalyse(args); }},
      {"analyze", true, [](E& e, const Args& args) { return e.CmdAnalyse(args); }},
      {"showboard", true, [](E& e, const Args& args) { return e.CmdShowboard(args); }},
      {"setoption", true, [](E& e, const Args& args) { return e.CmdSetOption(args); }},
      {"undo", false,
       [](E& e, const Args&) -> Reply {
         if (!e.game_.Undo()) return {false, "cannot undo: no move has been played"};
         return {true, ""};
       }},
      {"record", false,
       [](E& e, const Args&) -> Reply {
         return {true, e.game_.Record()};
       }},
      {"loadrecord", true, [](E& e, const Args& args) { return e.CmdLoadRecord(args); }},
      {"result", false,
       [](E& e, const Args&) -> Reply {
         const auto w = e.game_.Current().Winner();
         return {true, w ? (*w == rules::Color::kBlack ? "black" : "white") : "none"};
       }},
      {"stop", false,
       [](E&, const Args&) -> Reply {
         return {true, ""};
       }},
      {"quit", false,
       [](E& e, const Args&) -> Reply {
         e.finished_ = true;
         return {true, ""};
       }},
  };
  return commands;
}

const std::vector<std::string>& EngineProtocol::CommandNames() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const Command& c : Commands()) out.push_back(c.name);
    return out;
  }();
  return names;
}

EngineProtocol::EngineProtocol(EngineSetup setup)
    : setup_(std::move(setup)), game_(setup_.rules, setup_.size) {}

std::string EngineProtocol::Handle(std::string_view raw) {
  // GTP preprocessing: drop control characters, comments; tabs count as spaces.
  std::string line;
  for (char c : raw) {
    if (c == '#') break;
    if (c == '\t') c = ' ';
    if (static_cast<unsigned char>(c) < 32 || c == 127) continue;
    line += c;
  }
  std::vector<std::string> tokens = Tokens(line);
  if (tokens.empty()) return "";
  std::string id;
  if (std::all_of(tokens[0].begin(), tokens[0].end(),
                  [](char c) { return std::isdigit(static_cast<unsigned char>(c)); })) {
    id = tokens[0];
    tokens.erase(tokens.begin());
    if (tokens.empty()) return "?" + id + " missing command\n\n";
  }
  // Any command ends a streaming analysis: its end comes before the command's response.
  const std::string ended = StopStream();
  const std::string command = tokens[0];
  tokens.erase(tokens.begin());
  id_ = id;
  Reply reply = Dispatch(command, tokens);
  if (stream_) return ended + "=" + id + "\n";  // the stream's updates follow
  std::string text = std::move(reply.text);
  // A response never contains an empty line (it would end the response early).
  std::string clean;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n' && (i + 1 == text.size() || text[i + 1] == '\n')) continue;
    clean += text[i];
  }
  std::string out = ended + (reply.ok ? "=" : "?") + id;
  if (!clean.empty()) out += (clean[0] == '\n' ? "" : " ") + clean;
  return out + "\n\n";
}

EngineProtocol::Reply EngineProtocol::Dispatch(const std::string& command, const Args& args) {
  for (const Command& c : Commands()) {
    if (command != c.name) continue;
    if (!c.takes_args && !args.empty()) return {false, command + " takes no arguments"};
    return c.run(*this, args);
  }
  return {false, "unknown command \"" + command + "\" (see list_commands)"};
}

EngineProtocol::Reply EngineProtocol::NewGame(rules::RuleSet rules, int size) {
  if (setup_.fixed_game && (rules != setup_.rules || size != setup_.size)) {
    return {false, std::string("this engine's network plays ") + rules::RuleSetName(setup_.rules) +
                       " " + std::to_string(setup_.size) + "x" + std::to_string(setup_.size) +
                       " only"};
  }
  game_ = GameState(rules, size);
  setup_.searcher->NewGame();
  return {true, ""};
}

EngineProtocol::Reply EngineProtocol::CmdNewGame(const Args& args) {
  rules::RuleSet rs = game_.Rules();
  int size = game_.Size();
  if (args.size() > 2) return {false, "expected: newgame [standard|classic] [7|9|10]"};
  for (const std::string& a : args) {
    if (const auto parsed = rules::ParseRuleSet(a)) {
      rs = *parsed;
    } else if (const long long s = ParseCount(a, 0, 100);
               s >= 0 && rules::IsSupportedSize(static_cast<int>(s))) {
      size = static_cast<int>(s);
    } else {
      return {false, "newgame: \"" + a +
                         "\" is neither a rule set (standard, classic) nor a "
                         "board size (7, 9, 10)"};
    }
  }
  return NewGame(rs, size);
}

EngineProtocol::Reply EngineProtocol::CheckColour(Args& args) const {
  if (args.empty()) return {true, ""};
  std::string a = args[0];
  std::transform(a.begin(), a.end(), a.begin(), [](unsigned char c) { return std::tolower(c); });
  rules::Color c;
  if (a == "black" || a == "b") {
    c = rules::Color::kBlack;
  } else if (a == "white" || a == "w") {
    c = rules::Color::kWhite;
  } else {
    return {true, ""};
  }
  const rules::Position& pos = game_.Current();
  if (!pos.IsTerminal() && pos.ToMove() != c) {
    return {false, std::string("it is ") +
                       (pos.ToMove() == rules::Color::kBlack ? "black" : "white") + "'s turn"};
  }
  args.erase(args.begin());
  return {true, ""};
}

EngineProtocol::Reply EngineProtocol::CmdPlay(const Args& in) {
  Args args = in;
  if (Reply r = CheckColour(args); !r.ok) return r;
  if (args.size() != 1) return {false, "expected: play MOVE (one move in notation, no spaces)"};
  const rules::Position& pos = game_.Current();
  auto turn = rules::ParseTurn(pos, args[0]);
  if (!turn) return {false, "illegal move \"" + args[0] + "\": " + turn.error()};
  game_.Play(turn.value());
  return {true, ""};
}

EngineProtocol::Reply EngineProtocol::CmdShowboard(const Args& args) {
  if (!args.empty()) return {false, "showboard takes no arguments"};
  const rules::Position& pos = game_.Current();
  return {true, "\n" + rules::Diagram(pos) + StatusLines(pos)};
}

EngineProtocol::Reply EngineProtocol::CmdSetOption(const Args& in) {
  Args args = in;
  // UCI style: setoption name NAME value VALUE.
  if (args.size() == 4 && args[0] == "name" && args[2] == "value") args = {args[1], args[3]};
  if (args.size() != 2) return {false, "expected: setoption NAME VALUE"};
  const std::string& name = args[0];
  const std::string& value = args[1];
  auto range_error = [&](long long lo, long long hi) -> Reply {
    return {false, "setoption " + name + ": expected an integer in [" + std::to_string(lo) + ", " +
                       std::to_string(hi) + "], got \"" + value + "\""};
  };
  if (name == "simulations" || name == "visits") {
    const long long v = ParseCount(value, 1, 100000000);
    if (v < 0) return range_error(1, 100000000);
    setup_.visits = static_cast<int>(v);
  } else if (name == "time") {
    const long long v = ParseCount(value, 0, 100000000);
    if (v < 0) return range_error(0, 100000000);
    setup_.time_ms = static_cast<int>(v);
  } else if (name == "reserve") {
    const long long v = ParseCount(value, 0, 600000);
    if (v < 0) return range_error(0, 600000);
    setup_.time_manager.reserve_ms = v;
  } else if (name == "max_nodes") {
    const long long v = ParseCount(value, 0, 1LL << 62);
    if (v < 0) return range_error(0, search::MaxNodesLimit());
    // No more than this machine's memory holds: the bound of search.max_nodes.
    if (v > search::MaxNodesLimit()) {
      return {false, "setoption max_nodes: " + search::TooManyNodes(v)};
    }
    setup_.searcher->SetMaxNodes(v);
  } else if (name == "candidates") {
    const long long v = ParseCount(value, 1, 100);
    if (v < 0) return range_error(1, 100);
    setup_.candidates = static_cast<int>(v);
  } else if (name == "seed") {
    const long long v = ParseCount(value, 0, 999999999999LL);
    if (v < 0) return range_error(0, 999999999999LL);
    setup_.searcher->Seed(static_cast<uint64_t>(v));
  } else if (name == "threads") {
    const long long v = ParseCount(value, 1, 256);
    if (v < 0) return range_error(1, 256);
    if (!setup_.set_threads) {
      return {false,
              "setoption threads: this engine searches on one thread (uct); threads "
              "applies to a network's evaluator"};
    }
    if (util::Status set = setup_.set_threads(static_cast<int>(v)); !set.ok()) {
      return {false, "setoption threads: " + set.error()};
    }
  } else {
    return {false,
            "setoption: unknown option \"" + name +
                "\" (known: simulations, time, reserve, threads, candidates, seed, max_nodes)"};
  }
  return {true, ""};
}

EngineProtocol::Reply EngineProtocol::CmdLoadRecord(const Args& args) {
  std::string text;
  for (const std::string& a : args) text += (text.empty() ? "" : " ") + a;
  auto game = rules::PlayRecord(game_.Rules(), game_.Size(), text);
  if (!game) return {false, "loadrecord: " + game.error()};
  game_ = GameState(game_.Rules(), game_.Size());
  for (const rules::Turn& t : game.value().turns) game_.Play(t);
  setup_.searcher->NewGame();
  return {true, ""};
}

}  // namespace veletas::play
