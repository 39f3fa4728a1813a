#include "search/mcts.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <utility>

#include "search/terminal_value.h"

namespace veletas::search {
namespace {

// A full turn has at most Turn::kMaxLength sub-decisions; SetPosition looks this deep for
// the new root (the opponent's turn after ours).
constexpr int kReuseDepth = rules::Turn::kMaxLength + 1;
// Score of a child proven lost for the player choosing: chosen only when nothing else is.
constexpr float kLossScore = -1e9f;

bool FindInTree(const Node* node, const rules::Position& pos, const rules::Position& target,
                int depth, std::vector<rules::Action>& path) {
  if (depth == 0 || !node->Expanded()) return false;
  for (const Node* c = node->child; c != nullptr; c = c->sibling) {
    rules::Position next = pos;
    const rules::Action a = node->edges[c->edge_index].action;
    next.Apply(a);
    path.push_back(a);
    if ((next.Hash() == target.Hash() && next == target) ||
        FindInTree(c, next, target, depth - 1, path)) {
      return true;
    }
    path.pop_back();
  }
  return false;
}

}  // namespace

Mcts::Mcts(const SearchConfig& config, uint64_t seed) : rng_(seed) { SetConfig(config); }

void Mcts::SetConfig(const SearchConfig& config) {
  config_ = config;
  max_nodes_ = static_cast<uint64_t>(config.max_nodes > 0 ? config.max_nodes : DefaultMaxNodes());
}

Mcts::~Mcts() {
  if (root_ != nullptr) pool_.FreeSubtree(root_);
}

void Mcts::ResetTree(const rules::Position& pos) {
  if (root_ != nullptr) pool_.FreeSubtree(root_);
  root_ = pool_.NewNode();
  root_pos_ = pos;
  if (pos.IsTerminal()) {
    root_->flags |= Node::kTerminal;
    root_->raw_value = root_->q = TerminalValue(pos);
  }
  root_prepared_ = false;
  root_noised_ = false;
  root_raw_priors_.clear();
  searching_ = false;
}

void Mcts::Clear() {
  if (root_ != nullptr) pool_.FreeSubtree(root_);
  root_ = nullptr;
  pending_.clear();
  collided_.clear();
  searching_ = false;
}

void Mcts::SetPosition(const rules::Position& pos) {
  if (root_ == nullptr || !config_.reuse_tree) {
    ResetTree(pos);
    return;
  }
  if (root_pos_.Hash() == pos.Hash() && root_pos_ == pos) return;
  std::vector<rules::Action> path;
  if (FindInTree(root_, root_pos_, pos, kReuseDepth, path)) {
    for (rules::Action a : path) Advance(a);
    return;
  }
  ResetTree(pos);
}

void Mcts::Advance(rules::Action a) {
  Node* keep = nullptr;
  if (config_.reuse_tree && root_->Expanded()) {
    for (int i = 0; i < root_->num_edges; ++i) {
      if (root_->edges[i].action == a) keep = root_->ChildAt(i);
    }
  }
  if (keep != nullptr) NodePool::UnlinkChild(root_, keep);
  rules::Position next = root_pos_;
  next.Apply(a);
  if (keep == nullptr) {
    ResetTree(next);
    return;
  }
  pool_.FreeSubtree(root_);
  root_ = keep;
  root_->flags &= static_cast<uint8_t>(~Node::kFlip);
  root_->edge_index = 0;
  root_pos_ = next;
  root_prepared_ = false;
  root_noised_ = false;
  root_raw_priors_.clear();
  searching_ = false;
}

void Mcts::StartSearch(int simulations) {
  target_ = simulations < 0 ? config_.simulations : simulations;
  node_limit_ = false;
  started_ = 0;
  done_ = 0;
  searching_ = true;
  root_prepared_ = false;
}

bool Mcts::Finished() const {
  return searching_ && root_->Expanded() && done_ >= target_ && pending_.empty();
}

void Mcts::PrepareRoot() {
  if (root_raw_priors_.empty()) {
    root_raw_priors_.resize(root_->num_edges);
    for (int i = 0; i < root_->num_edges; ++i) root_raw_priors_[i] = root_->edges[i].prior;
  }
  if (config_.algorithm == Algorithm::kPuct) {
    if (config_.root_noise && !root_noised_ && config_.dirichlet_epsilon > 0) {
      ApplyDirichletNoise();
      root_noised_ = true;
    }
  } else if (config_.algorithm == Algorithm::kGumbel) {
    gumbel_.assign(root_->num_edges, 0.0f);
    if (config_.root_noise) {
      for (float& g : gumbel_) {
        // u in (0, 1): Gumbel(0, 1) = -log(-log(u)).
        const double u = (static_cast<double>(rng_.Next() >> 11) + 0.5) * 0x1.0p-53;
        g = static_cast<float>(-std::log(-std::log(u)));
      }
    }
    root_started_.assign(root_->num_edges, 0);
    root_swap_edge_ = -1;
    if (root_pos_.Pending() == rules::Decision::kPie) {
      for (int i = 0; i < root_->num_edges; ++i) {
        if (root_->edges[i].action == root_pos_.PassAction()) root_swap_edge_ = i;
      }
    }
    ComputeGumbelSchedule();
  }
  root_prepared_ = true;
}

int Mcts::CollectLeaves(int max_leaves, std::vector<rules::Position>& out) {
  int collected = 0;
  if (!root_->Expanded()) {
    // The root's own evaluation comes first; it is not a simulation.
    if (root_->Pending() || max_leaves <= 0) return 0;
    Leaf leaf;
    if (!spare_.empty()) {
      leaf = std::move(spare_.back());
      spare_.pop_back();
    }
    leaf.path.assign(1, root_);
    leaf.pos = root_pos_;
    ++root_->in_flight;
    out.push_back(root_pos_);
    pending_.push_back(std::move(leaf));
    return 1;
  }
  if (!root_prepared_) PrepareRoot();
  const bool gumbel = config_.algorithm == Algorithm::kGumbel;
  int collisions = 0;
  while (collected < max_leaves && started_ < target_) {
    // A halving step ranks the candidates by their Q values: wait for every result.
    if (gumbel && halving_step_[started_] && !pending_.empty()) break;
    // A simulation adds at most one node: stop where the next one could pass the budget.
    if (pool_.LiveNodes() >= max_nodes_) {
      target_ = started_;
      node_limit_ = true;
      break;
    }
    Leaf leaf;
    if (!spare_.empty()) {
      leaf = std::move(spare_.back());
      spare_.pop_back();
    }
    leaf.path.clear();
    leaf.pos = root_pos_;
    Node* node = Select(leaf.path, leaf.pos);
    if (node->Pending()) {
      // Collision with a leaf in flight. Mark the path as in flight too (until the next
      // ProvideEvaluations, without a value) so that the next selections look elsewhere;
      // give up after as many collisions as leaves wanted.
      if (++collisions > max_leaves) {
        spare_.push_back(std::move(leaf));
        break;
      }
      for (Node* p : leaf.path) ++p->in_flight;
      collided_.push_back(std::move(leaf));
      continue;
    }
    ++started_;
    if (gumbel) ++root_started_[leaf.path[1]->edge_index];
    if (node->Terminal() || (config_.solver && node->proven != 0)) {
      const float v = node->Terminal() ? node->raw_value : static_cast<float>(node->proven);
      Backup(leaf.path, v, false);
      ++done_;
      spare_.push_back(std::move(leaf));
      continue;
    }
    for (Node* p : leaf.path) ++p->in_flight;
    out.push_back(leaf.pos);
    pending_.push_back(std::move(leaf));
    ++collected;
  }
  return collected;
}

void Mcts::ProvideEvaluations(std::span<const EvalOutput> outputs) {
  if (outputs.size() != pending_.size()) {
    std::fprintf(stderr, "Mcts::ProvideEvaluations: %zu outputs for %zu leaves\n", outputs.size(),
                 pending_.size());
    std::abort();
  }
  for (size_t i = 0; i < pending_.size(); ++i) {
    Leaf& leaf = pending_[i];
    Node* node = leaf.path.back();
    Expand(node, leaf.pos, outputs[i]);
    Backup(leaf.path, node->raw_value, true);
    if (leaf.path.size() > 1) ++done_;  // a lone root is its own evaluation
    spare_.push_back(std::move(leaf));
  }
  pending_.clear();
  for (Leaf& leaf : collided_) {
    for (Node* p : leaf.path) --p->in_flight;
    spare_.push_back(std::move(leaf));
  }
  collided_.clear();
}

void Mcts::Expand(Node* node, const rules::Position& pos, const EvalOutput& eval) {
  const rules::ActionSet legal = pos.LegalActions();
  pool_.AllocateEdges(node, legal.Count());
  int k = 0;
  double sum = 0;
  auto add = [&](int a) {
    const float prior = PriorWeight(eval.policy[a]);
    node->edges[k].action = static_cast<uint8_t>(a);
    node->edges[k].prior = prior;
    sum += prior;
    ++k;
  };
  for (int sq : legal.squares) add(sq);
  if (legal.pass) add(pos.PassAction());
  for (int i = 0; i < k; ++i) {
    node->edges[i].prior = NormalizedPrior(node->edges[i].prior, sum, k);
  }
  // Highest prior first (ties: lower action first), so that among unvisited children only
  // the first can be the best PUCT choice.
  std::stable_sort(node->edges, node->edges + k,
                   [](const Edge& a, const Edge& b) { return a.prior > b.prior; });
  node->raw_value = SearchValue(eval.value);
}

Node* Mcts::ChildFor(Node* node, int edge_index, rules::Position& pos) {
  Node* c = node->ChildAt(edge_index);
  const int mover = pos.ToMovePlayer();
  pos.Apply(node->edges[edge_index].action);
  if (c != nullptr) return c;
  c = pool_.NewNode();
  c->edge_index = static_cast<uint8_t>(edge_index);
  if (pos.ToMovePlayer() != mover) c->flags |= Node::kFlip;
  if (pos.IsTerminal()) {
    c->flags |= Node::kTerminal;
    c->raw_value = TerminalValue(pos);
    c->proven = c->raw_value > 0 ? 1 : -1;
  }
  NodePool::LinkChild(node, c);
  return c;
}

Node* Mcts::Select(std::vector<Node*>& path, rules::Position& pos) {
  Node* node = root_;
  path.push_back(node);
  const bool gumbel = config_.algorithm == Algorithm::kGumbel;
  for (bool is_root = true;; is_root = false) {
    if (!is_root && (node->Terminal() || (config_.solver && node->proven != 0))) return node;
    if (!node->Expanded()) return node;
    const int index = config_.algorithm == Algorithm::kUct ? SelectUcb1(node)
                      : !gumbel                            ? SelectPuct(node, is_root)
                      : is_root                            ? SelectGumbelRoot()
                                                           : SelectGumbelInterior(node);
    node = ChildFor(node, index, pos);
    path.push_back(node);
  }
}

int Mcts::SelectPuct(const Node* node, bool is_root) const {
  float visited_policy = 0;
  for (const Node* c = node->child; c != nullptr; c = c->sibling) {
    if (c->n > 0) visited_policy += node->edges[c->edge_index].prior;
  }
  const float reduction = is_root ? config_.root_fpu_reduction : config_.fpu_reduction;
  const float fpu = node->q - reduction * std::sqrt(visited_policy);
  // Visits of the children (the node's own evaluation is its first visit).
  const float parent_n = static_cast<float>(node->n - 1 + node->in_flight);
  const float c_puct =
      config_.c_puct_init + std::log((parent_n + config_.c_puct_base + 1) / config_.c_puct_base);
  const float numerator = c_puct * std::sqrt(std::max(parent_n, 1.0f));
  int best = 0;
  float best_score = -std::numeric_limits<float>::infinity();
  // Expand sorts the edges by prior, and unvisited children share the FPU value, so only
  // the first unvisited edge can win; root noise changes the root's priors in place
  // without re-sorting them, so there every unvisited edge is scored.
  const bool sorted = !(is_root && root_noised_);
  bool unvisited_seen = false;
  ChildCursor children(node);
  for (int i = 0; i < node->num_edges; ++i) {
    const Node* child = children.Next(i);
    const float prior = node->edges[i].prior;
    float score;
    if (child == nullptr) {
      if (sorted && unvisited_seen) {
        if (children.Done()) break;
        continue;
      }
      unvisited_seen = true;
      score = fpu + numerator * prior;
    } else if (config_.solver && child->proven != 0) {
      if (child->ForParent(child->proven) > 0) return i;  // a proven win: take it
      score = kLossScore + prior;
    } else {
      const float n = static_cast<float>(child->n);
      const float flight = static_cast<float>(child->in_flight);
      float q = child->n > 0 ? child->ForParent(child->q) : fpu;
      if (child->in_flight > 0) {
        const float w = std::max(n, 1.0f);
        q = (q * w - config_.virtual_loss * flight) / (w + flight);
      }
      score = q + numerator * prior / (1.0f + n + flight);
    }
    if (score > best_score) {
      best_score = score;
      best = i;
    }
  }
  return best;
}

int Mcts::SelectUcb1(const Node* node) const {
  const float log_n = std::log(std::max(static_cast<float>(node->n - 1 + node->in_flight), 1.0f));
  int best = 0;
  float best_score = -std::numeric_limits<float>::infinity();
  ChildCursor children(node);
  for (int i = 0; i < node->num_edges; ++i) {
    const Node* child = children.Next(i);
    if (child == nullptr) return i;  // every child is tried once first, in prior order
    float score;
    if (config_.solver && child->proven != 0) {
      if (child->ForParent(child->proven) > 0) return i;
      score = kLossScore;
    } else {
      const float n = static_cast<float>(child->n);
      const float flight = static_cast<float>(child->in_flight);
      float q = child->n > 0 ? child->ForParent(child->q) : 0.0f;
      if (child->in_flight > 0) {
        const float w = std::max(n, 1.0f);
        q = (q * w - config_.virtual_loss * flight) / (w + flight);
      }
      score = q + config_.c_uct * std::sqrt(log_n / (n + flight));
    }
    if (score > best_score) {
      best_score = score;
      best = i;
    }
  }
  return best;
}

void Mcts::Backup(const std::vector<Node*>& path, float leaf_value, bool in_flight) {
  float v = leaf_value;
  for (size_t i = path.size(); i-- > 0;) {
    Node* node = path[i];
    if (in_flight) --node->in_flight;
    ++node->n;
    node->q += (v - node->q) / static_cast<float>(node->n);
    v = node->ForParent(v);
  }
  if (config_.solver) UpdateProven(path);
}

void Mcts::UpdateProven(const std::vector<Node*>& path) {
  for (size_t i = path.size() - 1; i > 0; --i) {
    const Node* child = path[i];
    Node* parent = path[i - 1];
    if (child->proven == 0) return;
    const uint8_t length = static_cast<uint8_t>(std::min(child->proof_length + 1, 255));
    if (child->ForParent(child->proven) > 0) {
      // The player to move can choose this win (keep the shortest one known).
      if (parent->proven != 0 && length >= parent->proof_length) return;
      parent->proven = 1;
      parent->proof_length = length;
      continue;
    }
    if (parent->proven != 0) return;
    // A loss for the parent's player only if every choice is a proven loss; it lasts as
    // long as the longest of them.
    int proven_losses = 0;
    int longest = 0;
    for (const Node* c = parent->child; c != nullptr; c = c->sibling) {
      if (c->proven == 0 || c->ForParent(c->proven) > 0) return;
      ++proven_losses;
      longest = std::max(longest, static_cast<int>(c->proof_length));
    }
    if (proven_losses < parent->num_edges) return;
    parent->proven = -1;
    parent->proof_length = static_cast<uint8_t>(std::min(longest + 1, 255));
  }
}

SearchResult Mcts::Run(Evaluator& evaluator, int simulations) {
  StartSearch(simulations);
  std::vector<rules::Position> positions;
  std::vector<EvalOutput> outputs;
  while (!Finished()) {
    positions.clear();
    const int k = CollectLeaves(config_.leaves_per_batch, positions);
    if (k == 0 && pending_.empty() && !Finished()) {
      std::fprintf(stderr, "Mcts::Run: no progress (internal error)\n");
      std::abort();
    }
    outputs.assign(static_cast<size_t>(k), EvalOutput{});
    if (k > 0) evaluator.Evaluate(positions, outputs);
    ProvideEvaluations(outputs);
  }
  return Result();
}

TreeStats Mcts::Stats() const {
  TreeStats s;
  s.nodes = pool_.LiveNodes();
  s.edges = pool_.LiveEdges();
  s.bytes = pool_.LiveBytes();
  return s;
}

}  // namespace veletas::search
