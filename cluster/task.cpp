#include "cluster/task.h"

#include <nlohmann/json.hpp>
#include <set>

#include "cluster/networks.h"
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
  TaskPlayer p;
  p.name = j.at("name").get<std::string>();
  const std::string kind = j.at("kind").get<std::string>();
  p.kind = kind == "mcts"  ? arena::PlayerKind::kMcts
           : kind == "uct" ? arena::PlayerKind::kUct
                           : arena::PlayerKind::kRandom;
  if (kind != "mcts" && kind != "uct" && kind != "random") return R::Error("unknown player kind");
  p.budget = util::JsonInteger<int>(j, "budget");
  const int max =
      p.kind == arena::PlayerKind::kUct ? arena::kMaxUctPlayouts : arena::kMaxMctsSimulations;
  if (p.kind != arena::PlayerKind::kRandom && (p.budget < 1 || p.budget > max)) {
    return R::Error("player budget out of range");
  }
  if (p.name.empty() || p.name.size() > 200) return R::Error("bad player name");
  if (p.kind == arena::PlayerKind::kMcts) {
    p.network = j.at("network").get<std::string>();
    p.generation = util::JsonInteger<long long>(j, "generation");
    if (!IsNetworkId(p.network)) return R::Error("bad network id");
  }
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
  try {
    t.match = j.at("match").get<std::string>();
    const std::string rs = j.at("rules").get<std::string>();
    if (rs != "standard" && rs != "classic") return R::Error("task: unknown rules \"" + rs + "\"");
    t.rules = rs == "classic" ? rules::RuleSet::kClassic : rules::RuleSet::kStandard;
    t.size = util::JsonInteger<int>(j, "size");
    t.seed = util::JsonInteger<uint64_t>(j, "seed");
    t.opening_turns = util::JsonInteger<int>(j, "opening_turns");
    for (auto [field, player] : {std::pair{"a", &t.a}, std::pair{"b", &t.b}}) {
      auto p = ParsePlayer(j.at(field));
      if (!p) return R::Error(std::string("task: player ") + field + ": " + p.error());
      *player = p.value();
    }
    const nlohmann::json& games = j.at("games");
    if (!games.is_array() || games.size() > kMaxTaskGames) return R::Error("task: bad game count");
    for (const nlohmann::json& g : games)
      t.games.push_back(util::JsonIntegerValue<int>(g, "games"));
  } catch (const std::exception& e) {
    return R::Error(std::string("task: bad fields: ") + e.what());
  }
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
