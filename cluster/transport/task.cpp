#include "cluster/transport/task.h"

#include <nlohmann/json.hpp>
#include <set>
#include <tuple>

#include "cluster/transport/networks.h"
#include "rules/notation.h"
#include "util/json.h"

namespace veletas::cluster {
namespace {

const char* KindName(arena::PlayerKind k) {
  switch (k) {
    case arena::PlayerKind::kRandom:
      return "random";
    case arena::PlayerKind::kUct:
      return "uct";
    case arena::PlayerKind::kMcts:
      return "mcts";
  }
  return "random";
}

nlohmann::json PlayerJson(const TaskPlayer& p) {
  nlohmann::json j = {{"name", p.name}, {"kind", KindName(p.kind)}, {"budget", p.budget}};
  if (p.kind == arena::PlayerKind::kMcts) {
    j["network"] = p.network;
    j["generation"] = p.generation;
  }
  return j;
}

util::Result<TaskPlayer> ParsePlayer(const nlohmann::json& j) {
  using R = util::Result<TaskPlayer>;
  util::JsonFields f(j, "");
  TaskPlayer p;
  p.name = f.String("name");
  const std::string kind = f.String("kind");
  p.budget = f.Integer<int>("budget");
  const bool mcts = kind == "mcts";
  if (mcts) {
    p.network = f.String("network");
    p.generation = f.Integer<long long>("generation");
  }
  if (!f.ok()) return R::Error(f.error());
  p.kind = mcts            ? arena::PlayerKind::kMcts
           : kind == "uct" ? arena::PlayerKind::kUct
                           : arena::PlayerKind::kRandom;
  if (kind != "mcts" && kind != "uct" && kind != "random") return R::Error("unknown player kind");
  const int max =
      p.kind == arena::PlayerKind::kUct ? arena::kMaxUctPlayouts : arena::kMaxMctsSimulations;
  if (p.kind != arena::PlayerKind::kRandom && (p.budget < 1 || p.budget > max)) {
    return R::Error("player budget out of range");
  }
  if (p.name.empty() || p.name.size() > 200) return R::Error("bad player name");
  if (mcts && !IsNetworkId(p.network)) return R::Error("bad network id");
  return p;
}

}  // namespace

std::string EncodeTask(const ArenaTask& t) {
  nlohmann::json j = {{"match", t.match},
                      {"rules", rules::RuleSetName(t.rules)},
                      {"size", t.size},
                      {"seed", t.seed},
                      {"opening_turns", t.opening_turns},
                      {"a", PlayerJson(t.a)},
                      {"b", PlayerJson(t.b)},
                      {"games", t.games}};
  return j.dump();
}

util::Result<ArenaTask> DecodeTask(std::string_view json) {
  using R = util::Result<ArenaTask>;
  if (json.size() > 1 << 20) return R::Error("task: larger than 1 MiB");
  const util::Result<nlohmann::json> parsed = util::ParseJson(json, "task");
  if (!parsed) return parsed.error_value();
  const nlohmann::json& j = parsed.value();
  if (!j.is_object()) return R::Error("task: not a JSON object");
  ArenaTask t;
  util::JsonFields f(j, "");
  t.match = f.String("match");
  const std::string rs = f.String("rules");
  t.size = f.Integer<int>("size");
  t.seed = f.Integer<uint64_t>("seed");
  t.opening_turns = f.Integer<int>("opening_turns");
  const nlohmann::json* a = f.Object("a");
  const nlohmann::json* b = f.Object("b");
  const nlohmann::json* games = f.Array("games");
  if (!f.ok()) return R::Error("task: bad fields: " + f.error());
  if (rs != "standard" && rs != "classic") return R::Error("task: unknown rules \"" + rs + "\"");
  t.rules = rs == "classic" ? rules::RuleSet::kClassic : rules::RuleSet::kStandard;
  for (auto [field, object, player] : {std::tuple{"a", a, &t.a}, std::tuple{"b", b, &t.b}}) {
    auto p = ParsePlayer(*object);
    if (!p) return R::Error(std::string("task: player ") + field + ": " + p.error());
    *player = p.value();
  }
  if (games->size() > kMaxTaskGames) return R::Error("task: bad game count");
  for (size_t i = 0; i < games->size() && f.ok(); ++i) {
    t.games.push_back(f.IntegerOf<int>((*games)[i], "games[" + std::to_string(i) + "]"));
  }
  if (!f.ok()) return R::Error("task: bad fields: " + f.error());
  if (!rules::IsSupportedSize(t.size)) return R::Error("task: unsupported board size");
  if (t.opening_turns < 0 || t.opening_turns > 20)
    return R::Error("task: opening_turns out of range");
  if (t.match.empty() || t.match.size() > 200) return R::Error("task: bad match name");
  if (t.games.empty() || t.games.size() > kMaxTaskGames) return R::Error("task: bad game count");
  std::set<int> seen;
  for (int g : t.games) {
    if (g < 0 || g > 100'000'000 || !seen.insert(g).second) return R::Error("task: bad game index");
  }
  return t;
}

}  // namespace veletas::cluster
