// The C API's searches, batches and benchmark (web/api.h).
#include <cinttypes>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "model/base/features.h"
#include "play/turn_search.h"
#include "rules/notation.h"
#include "search/fake_evaluators.h"
#include "search/search_bench.h"
#include "search/uct_player.h"
#include "web/api.h"
#include "web/api_util.h"

struct VzSearch {
  std::unique_ptr<veletas::search::Evaluator> builtin;  // null for UCT (its own playouts)
  std::unique_ptr<veletas::play::TurnSearcher> searcher;
  veletas::rules::Position root;  // the searched position
  std::vector<veletas::rules::Position> leaves;
  veletas::model::EncodedBatch batch;
  std::vector<veletas::search::EvalOutput> outputs;
};

struct VzBatch {
  std::vector<veletas::rules::Position> pool;
  std::vector<veletas::rules::Position> taken;
  veletas::model::EncodedBatch batch;
  std::vector<float> policy;
  std::vector<float> values;
};

namespace veletas::web {

const char* Out(std::string text) {
  static std::string buffer;
  buffer = std::move(text);
  return buffer.c_str();
}

std::optional<GameKind> ParseGameKind(const char* rules, int size) {
  const auto rs = rules::ParseRuleSet(rules ? rules : "");
  if (!rs || !rules::IsSupportedSize(size)) return std::nullopt;
  return GameKind{*rs, size};
}

namespace {

using nlohmann::json;

std::unique_ptr<search::Evaluator> MakeBuiltin(const std::string& name) {
  if (name == "network" || name == "uniform") return std::make_unique<search::UniformEvaluator>();
  if (name.rfind("hash:", 0) == 0 && name.size() > 5 && name.size() <= 5 + 19) {
    uint64_t seed = 0;
    for (char c : name.substr(5)) {
      if (c < '0' || c > '9') return nullptr;
      seed = seed * 10 + static_cast<uint64_t>(c - '0');
    }
    return std::make_unique<search::HashEvaluator>(seed);
  }
  return nullptr;
}

json CandidateJson(const rules::Position& pos, const play::TurnCandidate& c) {
  return {{"move", rules::TurnToString(pos, c.turn)},
          {"win_rate", c.win_rate},
          {"visits", c.visits},
          {"proven", c.proven},
          {"pv", play::PvMoves(pos, c.pv)}};
}

void Provide(VzSearch& s) {
  s.searcher->ProvideEvaluations(s.outputs);
  s.leaves.clear();
}

}  // namespace
}  // namespace veletas::web

using veletas::web::Out;
namespace rules = veletas::rules;
namespace search = veletas::search;
namespace model = veletas::model;

extern "C" {

const char* vz_info() {
  nlohmann::json planes = nlohmann::json::array();
  for (int p = 0; p < model::kNumPlanes; ++p) planes.push_back(model::PlaneName(p));
  return veletas::web::OutJson(nlohmann::json{{"feature_version", model::kFeatureVersion},
                                              {"planes", planes},
                                              {"max_size", rules::kMaxSize},
                                              {"sizes", {7, 9, 10}},
                                              {"rules", {"standard", "classic"}}});
}

VzSearch* vz_search_new(const char* algorithm, int leaves, double seed, const char* evaluator) {
  const std::string alg = algorithm ? algorithm : "";
  if (leaves < 1 || leaves > 256 || !(seed >= 0 && seed < 9007199254740992.0)) return nullptr;
  auto s = std::make_unique<VzSearch>();
  const auto seed64 = static_cast<uint64_t>(seed);
  if (alg == "uct") {
    s->searcher = veletas::play::TurnSearcher::Uct(search::UctConfig{}.c_uct, seed64);
    return s.release();
  }
  search::SearchConfig config = search::ForPlay(search::SearchConfig{});
  if (alg == "gumbel") {
    config.algorithm = search::Algorithm::kGumbel;
  } else if (alg != "puct") {
    return nullptr;
  }
  config.leaves_per_batch = leaves;
  s->builtin = veletas::web::MakeBuiltin(evaluator ? evaluator : "");
  if (!s->builtin) return nullptr;
  s->searcher = veletas::play::TurnSearcher::Neural(*s->builtin, config, seed64);
  return s.release();
}

void vz_search_free(VzSearch* s) { delete s; }

const char* vz_search_begin(VzSearch* s, const char* rules_name, int size, const char* record,
                            int visits, int time_ms, int candidates) {
  const auto kind = veletas::web::ParseGameKind(rules_name, size);
  if (!kind)
    return Out("unsupported game: rules \"" + std::string(rules_name ? rules_name : "") +
               "\", size " + std::to_string(size));
  if ((visits > 0) == (time_ms > 0) || visits < 0 || time_ms < 0) {
    return Out("the budget needs exactly one of visits > 0 and time_ms > 0");
  }
  if (candidates < 1 || candidates > 100) return Out("candidates: expected 1 to 100");
  auto game = rules::PlayRecord(kind->rules, kind->size, record ? record : "");
  if (!game) return Out(game.error());
  if (game.value().final.IsTerminal()) return Out("the game is over");
  s->root = game.value().final;
  s->leaves.clear();
  veletas::play::SearchBudget budget;
  budget.visits = time_ms > 0 ? 0 : visits;
  budget.time_ms = time_ms;
  s->searcher->Begin(s->root, budget, candidates);
  return Out("");
}

int vz_search_collect(VzSearch* s, int canvas) {
  s->leaves.clear();
  const int k = s->searcher->CollectLeaves(s->leaves);
  if (k > 0 && canvas > 0) model::EncodeBatch(s->leaves, canvas, s->batch);
  return k;
}

float* vz_search_planes(VzSearch* s) { return s->batch.planes.data(); }

void vz_search_provide_network(VzSearch* s, const float* logits, const float* values) {
  const int actions = model::CanvasActions(s->batch.canvas);
  s->outputs.resize(s->leaves.size());
  for (size_t i = 0; i < s->leaves.size(); ++i) {
    model::DecodeOutput(s->batch, static_cast<int>(i), s->leaves[i].Size(), logits + i * actions,
                        values[i], s->outputs[i]);
  }
  veletas::web::Provide(*s);
}

void vz_search_provide_builtin(VzSearch* s) {
  s->outputs.assign(s->leaves.size(), search::EvalOutput{});
  if (!s->leaves.empty()) s->searcher->OwnEvaluator().Evaluate(s->leaves, s->outputs);
  veletas::web::Provide(*s);
}

int vz_search_done(VzSearch* s) { return s->searcher->Done() ? 1 : 0; }

const char* vz_search_result(VzSearch* s) {
  const veletas::play::TurnAnalysis& a = s->searcher->Analysis();
  nlohmann::json j = veletas::web::CandidateJson(s->root, a.best);
  nlohmann::json candidates = nlohmann::json::array();
  for (const veletas::play::TurnCandidate& c : a.candidates) {
    candidates.push_back(veletas::web::CandidateJson(s->root, c));
  }
  j["candidates"] = candidates;
  j["simulations"] = a.simulations;
  j["seconds"] = a.seconds;
  j["to_move"] = rules::ColorName(s->root.ToMove());
  j["player"] = s->root.ToMovePlayer();
  return veletas::web::OutJson(j);
}

void vz_search_abandon(VzSearch* s) {
  s->searcher->Abandon();
  s->leaves.clear();
}

VzBatch* vz_batch_new(const char* rules_name, int size, int count, double seed) {
  const auto kind = veletas::web::ParseGameKind(rules_name, size);
  if (!kind || count < 1 || count > 100000 || !(seed >= 0 && seed < 9007199254740992.0)) {
    return nullptr;
  }
  auto b = std::make_unique<VzBatch>();
  b->pool = model::SamplePositions(kind->rules, kind->size, count, static_cast<uint64_t>(seed));
  return b.release();
}

void vz_batch_free(VzBatch* b) { delete b; }

int vz_batch_encode(VzBatch* b, int start, int count, int canvas) {
  const int n = b->pool.front().Size();
  if (count < 1 || start < 0 || canvas < n || canvas > rules::kMaxSize) return 0;
  b->taken.clear();
  for (int i = 0; i < count; ++i) b->taken.push_back(b->pool[(start + i) % b->pool.size()]);
  model::EncodeBatch(b->taken, canvas, b->batch);
  return static_cast<int>(b->batch.planes.size());
}

float* vz_batch_planes(VzBatch* b) { return b->batch.planes.data(); }

void vz_batch_decode(VzBatch* b, const float* logits, const float* values) {
  const int actions = model::CanvasActions(b->batch.canvas);
  b->policy.assign(b->taken.size() * rules::kMaxActions, 0.0f);
  b->values.assign(b->taken.size(), 0.0f);
  search::EvalOutput out;
  for (size_t i = 0; i < b->taken.size(); ++i) {
    model::DecodeOutput(b->batch, static_cast<int>(i), b->taken[i].Size(), logits + i * actions,
                        values[i], out);
    std::copy(out.policy.begin(), out.policy.end(), b->policy.begin() + i * rules::kMaxActions);
    b->values[i] = out.value;
  }
}

float* vz_batch_policy(VzBatch* b) { return b->policy.data(); }
float* vz_batch_values(VzBatch* b) { return b->values.data(); }

const char* vz_batch_hashes(VzBatch* b) {
  nlohmann::json hashes = nlohmann::json::array();
  for (const rules::Position& p : b->pool) {
    char text[17];
    std::snprintf(text, sizeof text, "%016" PRIx64, p.Hash());
    hashes.push_back(text);
  }
  return veletas::web::OutJson(hashes);
}

const char* vz_bench_tree(const char* rules_name, int size, const char* algorithm, int simulations,
                          int positions, int leaves) {
  const auto kind = veletas::web::ParseGameKind(rules_name, size);
  const std::string alg = algorithm ? algorithm : "";
  if (!kind || (alg != "puct" && alg != "gumbel") || simulations < 1 || positions < 1 ||
      leaves < 1) {
    return veletas::web::OutJson(nlohmann::json{{"error", "bad arguments"}});
  }
  search::SearchConfig config;
  config.algorithm = alg == "puct" ? search::Algorithm::kPuct : search::Algorithm::kGumbel;
  config.leaves_per_batch = leaves;
  config.root_noise = true;
  const search::TreeBench b =
      search::BenchTree(kind->rules, kind->size, config, simulations, positions);
  return veletas::web::OutJson(nlohmann::json{{"sims_per_second", b.simulations_per_second},
                                              {"nodes_per_search", b.nodes_per_search},
                                              {"bytes_per_node", b.bytes_per_node},
                                              {"mib_per_search", b.mib_per_search}});
}

}  // extern "C"
