// Reading a finished search: the result, the training target, the chosen action and the
// principal variation.
#include <algorithm>
#include <cmath>
#include <limits>

#include "search/improved_policy.h"
#include "search/mcts.h"

namespace veletas::search {

SearchResult Mcts::Result() {
  if (!root_prepared_) PrepareRoot();  // a search of zero simulations
  SearchResult r;
  r.simulations = done_;
  r.node_limit = node_limit_;
  r.mean_value = root_->q;
  r.raw_value = root_->raw_value;
  r.proven = config_.solver ? root_->proven : 0;
  const int k = root_->num_edges;
  r.children.resize(k);
  for (int i = 0; i < k; ++i) {
    ChildInfo& info = r.children[i];
    info.action = root_->edges[i].action;
    info.prior =
        i < static_cast<int>(root_raw_priors_.size()) ? root_raw_priors_[i] : root_->edges[i].prior;
    if (const Node* c = root_->ChildAt(i)) {
      info.visits = c->n;
      info.q = c->n > 0 ? c->ForParent(c->q) : 0.0f;
      info.proven = config_.solver ? static_cast<int8_t>(c->ForParent(c->proven)) : 0;
      info.proof_length = info.proven != 0 ? c->proof_length + 1 : 0;
    }
    r.root_visits += info.visits;
  }

  const bool gumbel = config_.algorithm == Algorithm::kGumbel;
  if (gumbel) {
    // The improved policy: softmax(logits + sigma(completed Q)).
    std::vector<float> priors(k);
    std::vector<VisitedAction> visited;
    for (int i = 0; i < k; ++i) {
      priors[i] = root_->edges[i].prior;
      if (r.children[i].visits > 0) visited.push_back({i, r.children[i].visits, r.children[i].q});
    }
    const std::vector<float> policy = ImprovedPolicy(
        priors, root_->raw_value, visited, config_.gumbel_c_visit, config_.gumbel_c_scale);
    for (int i = 0; i < k; ++i) r.children[i].policy = policy[i];
  } else {
    for (int i = 0; i < k; ++i) {
      r.children[i].policy = r.root_visits > 0 ? static_cast<float>(r.children[i].visits) /
                                                     static_cast<float>(r.root_visits)
                                               : root_->edges[i].prior;
    }
  }
  for (const ChildInfo& info : r.children) r.policy[info.action] = info.policy;

  // Chosen with the children still in edge order (ChooseAction indexes Gumbel state).
  r.action = ChooseAction(r.children, gumbel);
  r.mixed_value = MixedValue(root_);
  r.value = ActionValue(r, r.action);

  for (const Node* node = root_; node->Expanded();) {
    const Node* best = nullptr;
    for (const Node* c = node->child; c != nullptr; c = c->sibling) {
      if (c->n == 0) continue;
      if (best == nullptr || c->n > best->n ||
          (c->n == best->n && c->ForParent(c->q) > best->ForParent(best->q))) {
        best = c;
      }
    }
    if (best == nullptr) break;
    r.principal_variation.push_back(node->edges[best->edge_index].action);
    node = best;
  }

  std::stable_sort(r.children.begin(), r.children.end(),
                   [](const ChildInfo& a, const ChildInfo& b) {
                     return a.visits != b.visits ? a.visits > b.visits : a.prior > b.prior;
                   });
  return r;
}

float ActionValue(const SearchResult& r, rules::Action a) {
  for (const ChildInfo& c : r.children) {
    if (c.action != a) continue;
    if (c.proven != 0) return static_cast<float>(c.proven);
    if (c.visits > 0) return c.q;
  }
  // Not visited (e.g. a search of zero simulations): the mixed value, which completes the Q
  // of unvisited actions.
  return r.mixed_value;
}

std::optional<TurnLine> Mcts::TurnLineFrom(rules::Action first) const {
  if (!root_->Expanded()) return std::nullopt;
  const Node* node = nullptr;
  for (int i = 0; i < root_->num_edges; ++i) {
    if (root_->edges[i].action == first) node = root_->ChildAt(i);
  }
  if (node == nullptr || node->n == 0) return std::nullopt;
  TurnLine line;
  line.turn.Push(first);
  rules::Position pos = root_pos_;
  const int start = pos.TurnsPlayed();
  pos.Apply(first);
  bool flipped = node->Flip();
  while (pos.TurnsPlayed() == start && !pos.IsTerminal()) {
    const Node* best = nullptr;
    for (const Node* c = node->child; c != nullptr; c = c->sibling) {
      if (c->n > 0 && (best == nullptr || c->n > best->n)) best = c;
    }
    if (best == nullptr || line.turn.length == rules::Turn::kMaxLength) return std::nullopt;
    const rules::Action a = node->edges[best->edge_index].action;
    line.turn.Push(a);
    pos.Apply(a);
    flipped ^= best->Flip();
    node = best;
  }
  line.q = flipped ? -node->q : node->q;
  line.visits = node->n;
  return line;
}

rules::Action Mcts::ChooseAction(const std::vector<ChildInfo>& children, bool gumbel) {
  const int k = static_cast<int>(children.size());
  // Candidates: a proven win if there is one (the shortest, then the most visited), else
  // everything not proven lost (everything if all are).
  std::vector<int> candidates;
  if (config_.solver) {
    int win = -1;
    for (int i = 0; i < k; ++i) {
      if (children[i].proven <= 0) continue;
      if (win < 0 || children[i].proof_length < children[win].proof_length ||
          (children[i].proof_length == children[win].proof_length &&
           children[i].visits > children[win].visits)) {
        win = i;
      }
    }
    if (win >= 0) return children[win].action;
    for (int i = 0; i < k; ++i) {
      if (children[i].proven >= 0) candidates.push_back(i);
    }
  }
  if (candidates.empty()) {
    for (int i = 0; i < k; ++i) candidates.push_back(i);
  }

  if (gumbel) {
    // Sequential halving's winner: among the actions simulated most in this search, the
    // highest g + logit + sigma(q).
    GumbelSigma(root_, scratch_);
    uint32_t most = 0;
    for (int i : candidates) most = std::max(most, root_started_[i]);
    int best = candidates[0];
    float best_score = -std::numeric_limits<float>::infinity();
    for (int i : candidates) {
      if (root_started_[i] != most) continue;
      const float score = GumbelRootScore(i);
      if (score > best_score) {
        best_score = score;
        best = i;
      }
    }
    return children[best].action;
  }

  const float temperature = root_pos_.TurnsPlayed() < config_.temperature_turns
                                ? config_.temperature
                                : config_.final_temperature;
  uint32_t most = 0;
  for (int i : candidates) most = std::max(most, children[i].visits);
  if (temperature <= 0 || most == 0) {
    // Most visits; ties: higher Q, then higher prior (edge order).
    int best = candidates[0];
    for (int i : candidates) {
      const ChildInfo& c = children[i];
      const ChildInfo& b = children[best];
      if (c.visits > b.visits || (c.visits == b.visits && c.visits > 0 && c.q > b.q)) best = i;
    }
    return children[best].action;
  }
  // visits^(1/T), computed relative to the maximum to stay finite.
  std::vector<double> weight(candidates.size());
  double sum = 0;
  for (size_t j = 0; j < candidates.size(); ++j) {
    const uint32_t n = children[candidates[j]].visits;
    weight[j] = n == 0 ? 0.0 : std::exp(std::log(static_cast<double>(n) / most) / temperature);
    sum += weight[j];
  }
  double x = rng_.Uniform() * sum;
  for (size_t j = 0; j < candidates.size(); ++j) {
    if (weight[j] <= 0) continue;
    x -= weight[j];
    if (x < 0) return children[candidates[j]].action;
  }
  for (size_t j = candidates.size(); j-- > 0;) {
    if (weight[j] > 0) return children[candidates[j]].action;
  }
  return children[candidates[0]].action;
}

}  // namespace veletas::search
