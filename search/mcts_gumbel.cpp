// The Gumbel AlphaZero parts of Mcts (Danihelka et al. 2022, "Policy improvement by
// planning with Gumbel"), following DeepMind's mctx: Gumbel top-k sampling and sequential
// halving at the root, completed Q values with the mixed value, sigma(q) =
// (c_visit + max_b N(b)) * c_scale * q on Q normalised to [0, 1], and the deterministic
// non-root selection argmax_a pi'(a) - N(a) / (1 + sum_b N(b)). Also the root Dirichlet
// noise of the PUCT mode.
#include <algorithm>
#include <cmath>
#include <limits>

#include "search/improved_policy.h"
#include "search/mcts.h"

namespace veletas::search {
namespace {

double Normal(util::Rng& rng) {
  const double u1 = 1.0 - rng.Uniform();  // (0, 1]
  const double u2 = rng.Uniform();
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
}

// Gamma(alpha, 1) by Marsaglia and Tsang, with the alpha < 1 boost. Deterministic given
// the generator (std::gamma_distribution differs between standard libraries).
double Gamma(double alpha, util::Rng& rng) {
  if (alpha < 1.0) {
    const double u = rng.Uniform();
    return Gamma(alpha + 1.0, rng) * std::pow(u, 1.0 / alpha);
  }
  const double d = alpha - 1.0 / 3.0;
  const double c = 1.0 / std::sqrt(9.0 * d);
  for (;;) {
    const double x = Normal(rng);
    double v = 1.0 + c * x;
    if (v <= 0) continue;
    v = v * v * v;
    const double u = rng.Uniform();
    if (u < 1.0 - 0.0331 * x * x * x * x) return d * v;
    if (std::log(u) < 0.5 * x * x + d * (1.0 - v + std::log(v))) return d * v;
  }
}

}  // namespace

void Mcts::ApplyDirichletNoise() {
  const int k = root_->num_edges;
  const double alpha = config_.dirichlet_alpha_total / k;
  std::vector<double> noise(k);
  double sum = 0;
  for (double& x : noise) {
    x = Gamma(alpha, rng_);
    sum += x;
  }
  if (!(sum > 0)) return;  // every draw underflowed: leave the priors as they are
  const float eps = config_.dirichlet_epsilon;
  for (int i = 0; i < k; ++i) {
    Edge& e = root_->edges[i];
    e.prior = (1.0f - eps) * e.prior + eps * static_cast<float>(noise[i] / sum);
  }
}

void Mcts::ComputeGumbelSchedule() {
  // mctx's get_sequence_of_considered_visits: the visit count an action must have to be
  // simulated next, for each simulation index.
  const int n = target_;
  const int m = std::min(config_.gumbel_considered, static_cast<int>(root_->num_edges));
  visit_schedule_.clear();
  halving_step_.assign(static_cast<size_t>(n), 0);
  if (m <= 1) {
    for (int i = 0; i < n; ++i) visit_schedule_.push_back(static_cast<uint32_t>(i));
    return;
  }
  const int log2max = static_cast<int>(std::ceil(std::log2(m)));
  std::vector<uint32_t> visits(m, 0);
  int considered = m;
  int previous = m;
  while (static_cast<int>(visit_schedule_.size()) < n) {
    if (considered < previous && static_cast<int>(visit_schedule_.size()) < n) {
      halving_step_[visit_schedule_.size()] = 1;
    }
    previous = considered;
    const int extra = std::max(1, n / (log2max * considered));
    for (int e = 0; e < extra; ++e) {
      for (int i = 0; i < considered; ++i) visit_schedule_.push_back(visits[i]);
      for (int i = 0; i < considered; ++i) ++visits[i];
    }
    considered = std::max(2, considered / 2);
  }
  visit_schedule_.resize(static_cast<size_t>(n));
}

float Mcts::GumbelLogit(const Node* node, int i) {
  return std::log(std::max(node->edges[i].prior, kMinPrior));
}

float Mcts::GumbelRootScore(int i) const {
  return gumbel_[i] + GumbelLogit(root_, i) + scratch_[i];
}

float Mcts::MixedValue(const Node* node) {
  double sum_n = 0, sum_p = 0, weighted = 0;
  for (const Node* c = node->child; c != nullptr; c = c->sibling) {
    if (c->n == 0) continue;
    const double p = std::max(node->edges[c->edge_index].prior, kMinPrior);
    sum_n += c->n;
    sum_p += p;
    weighted += p * c->ForParent(c->q);
  }
  return static_cast<float>(sum_n > 0 ? (node->raw_value + sum_n * (weighted / sum_p)) / (sum_n + 1)
                                      : node->raw_value);
}

void Mcts::GumbelSigma(const Node* node, std::vector<float>& sigma) const {
  const int k = node->num_edges;
  uint32_t max_n = 0;
  for (const Node* c = node->child; c != nullptr; c = c->sibling) max_n = std::max(max_n, c->n);
  sigma.assign(k, MixedValue(node));
  for (const Node* c = node->child; c != nullptr; c = c->sibling) {
    if (c->n > 0) sigma[c->edge_index] = c->ForParent(c->q);
  }
  const auto [lo, hi] = std::minmax_element(sigma.begin(), sigma.end());
  const float min_q = *lo;
  const float range = std::max(*hi - min_q, 1e-8f);
  const float scale = (config_.gumbel_c_visit + static_cast<float>(max_n)) * config_.gumbel_c_scale;
  for (float& s : sigma) s = scale * (s - min_q) / range;
}

int Mcts::SelectGumbelRoot() {
  GumbelSigma(root_, scratch_);
  const uint32_t considered_visit = visit_schedule_[started_];
  // Among the actions due for this visit, the best by g + logit + sigma(q); one whose child
  // awaits its first evaluation comes last (it would only collide with itself).
  int best = -1;
  bool best_pending = true;
  float best_score = -std::numeric_limits<float>::infinity();
  for (int i = 0; i < root_->num_edges; ++i) {
    if (root_started_[i] != considered_visit) continue;
    const Node* c = root_->ChildAt(i);
    const bool pending = c != nullptr && c->Pending();
    // The pie rule's swap is one action against dozens of placements: it is always among
    // the sampled actions (simulated first), then ranked like the others.
    const float score = i == root_swap_edge_ && considered_visit == 0
                            ? std::numeric_limits<float>::infinity()
                            : GumbelRootScore(i);
    if (best < 0 || (best_pending && !pending) || (pending == best_pending && score > best_score)) {
      best_score = score;
      best = i;
      best_pending = pending;
    }
  }
  if (best >= 0) return best;
  // Not reached with a consistent schedule; fall back to the least simulated action.
  return static_cast<int>(std::min_element(root_started_.begin(), root_started_.end()) -
                          root_started_.begin());
}

int Mcts::SelectGumbelInterior(const Node* node) const {
  std::vector<float>& pi = scratch_;
  GumbelSigma(node, pi);
  const int k = node->num_edges;
  float max_logit = -std::numeric_limits<float>::infinity();
  for (int i = 0; i < k; ++i) {
    pi[i] += GumbelLogit(node, i);
    max_logit = std::max(max_logit, pi[i]);
  }
  double sum = 0;
  for (int i = 0; i < k; ++i) {
    pi[i] = std::exp(pi[i] - max_logit);
    sum += pi[i];
  }
  const float total = static_cast<float>(node->n - 1 + node->in_flight);
  int best = 0;
  float best_score = -std::numeric_limits<float>::infinity();
  ChildCursor children(node);
  for (int i = 0; i < k; ++i) {
    const Node* child = children.Next(i);
    float score = static_cast<float>(pi[i] / sum);
    if (child != nullptr) {
      if (config_.solver && child->proven != 0) {
        if (child->ForParent(child->proven) > 0) return i;
        score = -1e9f + score;
      } else {
        score -= static_cast<float>(child->n + child->in_flight) / (1.0f + total);
      }
    }
    if (score > best_score) {
      best_score = score;
      best = i;
    }
  }
  return best;
}

}  // namespace veletas::search
