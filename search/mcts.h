// Monte Carlo tree search over the sub-decisions of the rules core, with a PUCT or a Gumbel
// AlphaZero root, batched leaf evaluation (several leaves in flight per search, many
// searches per evaluator call) and tree reuse.
//
// Values are always for Position::ToMovePlayer(); a value changes sign between a node and
// its child exactly when ToMovePlayer() changes (a turn ends or the pie rule's swap is
// taken), never between the sub-decisions of one turn.
//
// Driving many searches with one batched evaluator (self-play, arena):
//
//   for (Mcts* s : searches) s->StartSearch();            // after SetPosition / Advance
//   while (any search is unfinished) {
//     positions.clear(); counts.clear();
//     for (Mcts* s : unfinished) counts.push_back(s->CollectLeaves(k, positions));
//     evaluator.Evaluate(positions, outputs);              // one batch for all searches
//     size_t offset = 0;
//     for (i, s : unfinished) { s->ProvideEvaluations({outputs + offset, counts[i]});
//                               offset += counts[i]; }
//   }
//   SearchResult r = s->Result();  then  s->Advance(r.action);
//
// RunSearchesBatched (search/search_driver.h) does exactly this loop.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "rules/position.h"
#include "rules/turns.h"
#include "search/evaluator.h"
#include "search/node.h"
#include "search/search_config.h"
#include "util/random.h"

namespace veletas::search {

// Statistics of one legal action of the root.
struct ChildInfo {
  rules::Action action = 0;
  float prior = 0.0f;   // the evaluator's prior (before root noise)
  uint32_t visits = 0;  // completed visits of the child (reused ones included)
  float q = 0.0f;       // mean value for the root's player to move; 0 when unvisited
  float policy = 0.0f;  // the training target's probability
  int8_t proven = 0;    // +1 proven win for the root's player, -1 proven loss, 0 unknown
  // When proven: sub-decisions from the root to the end of the game along the proof
  // (shortest known win, longest loss).
  int proof_length = 0;
};

// What a finished search gives its users.
struct SearchResult {
  // The action chosen: temperature over visits (PUCT, UCT) or the sequential-halving winner
  // (Gumbel); with the solver, the shortest proven win is always taken and proven losses
  // are avoided when possible.
  rules::Action action = -1;
  // Training target indexed by action (square, or the pass slot N*N): zero for illegal
  // actions, sums to 1 over the legal ones. PUCT: visit counts; Gumbel: the completed-Q
  // improved policy.
  std::array<float, rules::kMaxActions> policy{};
  // Root value estimate for ToMovePlayer: the value of the chosen action (+-1 when proven,
  // its Q when visited, else the completed-Q mixed value). The mean backed-up value of all
  // simulations (mean_value) is biased low when simulations go to weaker actions, as under
  // Gumbel sequential halving or root noise.
  float value = 0.0f;
  // The root's mixed value for ToMovePlayer (mctx's v_mix: its evaluation combined with the
  // prior-weighted Q of the visited actions): the completed Q of an unvisited action.
  float mixed_value = 0.0f;
  float mean_value = 0.0f;   // mean backed-up value of the root for ToMovePlayer
  float raw_value = 0.0f;    // the evaluator's value of the root
  uint32_t root_visits = 0;  // sum of the children's visits
  int simulations = 0;       // simulations run by this search
  // The search stopped before its simulations because the tree reached its node budget
  // (SearchConfig::max_nodes).
  bool node_limit = false;
  int8_t proven = 0;  // the root proven won (+1) or lost (-1) for its player to move
  // Every legal action, most visited first (ties: higher prior first).
  std::vector<ChildInfo> children;
  // Most visited path from the root (its first action is the most visited child, which
  // may differ from `action` under temperature or Gumbel).
  std::vector<rules::Action> principal_variation;
};

// The value the search gives the root's action `a` for ToMovePlayer: +-1 when proven, its Q
// when visited, else r.mixed_value (also for an action not in r.children). r.value is
// ActionValue(r, r.action).
float ActionValue(const SearchResult& r, rules::Action a);

// Tree statistics for benchmarks and memory budgets.
struct TreeStats {
  uint64_t nodes = 0;  // live nodes
  uint64_t edges = 0;  // live edges (legal actions of expanded nodes)
  uint64_t bytes = 0;  // nodes * sizeof(Node) + edges * sizeof(Edge)
  double BytesPerNode() const { return nodes == 0 ? 0.0 : static_cast<double>(bytes) / nodes; }
};

// A full turn read from the tree: the most visited continuation of one root action until
// the turn of the root's player ends.
struct TurnLine {
  rules::Turn turn;
  float q = 0.0f;       // value where the line ends, for the root's player to move
  uint32_t visits = 0;  // visits of the node where the line ends
};

// One search tree. Not thread-safe: one thread drives a given Mcts at a time (different
// Mcts objects are independent). Deterministic: the same seed, config, positions and
// evaluations give the same searches and results.
class Mcts {
 public:
  // Precondition: config.Validate() is ok (the ranges of its table, search/search_config.cpp).
  explicit Mcts(const SearchConfig& config, uint64_t seed = 0);
  ~Mcts();
  Mcts(const Mcts&) = delete;
  Mcts& operator=(const Mcts&) = delete;

  const SearchConfig& Config() const { return config_; }
  // Changes the settings for the next search (e.g. temperature). Precondition: no search
  // in progress.
  void SetConfig(const SearchConfig& config);
  // Reseeds the random generator (noise, temperature).
  void Seed(uint64_t seed) { rng_.Seed(seed); }

  // Makes `pos` the root (required before anything else). With reuse_tree, when `pos` is the root
  // or a node of the tree within one full turn below it (e.g. after the opponent's turn), that
  // subtree is kept and the rest discarded; otherwise the tree starts afresh. Precondition: no
  // leaves in flight.
  void SetPosition(const rules::Position& pos);
  // Drops the tree; SetPosition must come next.
  void Clear();
  // Plays `a` at the root: the child's subtree becomes the tree (reuse_tree), or a fresh
  // root. Preconditions: a is legal at the root; no leaves in flight.
  void Advance(rules::Action a);
  const rules::Position& RootPosition() const { return root_pos_; }

  // Begins a search of `simulations` new simulations (default: config.simulations) from
  // the root. Root noise is applied here (once per root). The search ends early, with
  // SearchResult::node_limit, when the tree reaches its node budget (config.max_nodes).
  // Precondition: a root position that is not terminal; no leaves in flight.
  void StartSearch(int simulations = -1);
  // Selects up to `max_leaves` leaves that need an evaluation (virtual loss keeps them
  // apart), appends their positions to `out` and returns how many. Simulations that end in
  // a terminal or proven node are completed on the spot. Returns 0 when the search is
  // finished or must wait for the leaves in flight (a selection hit a leaf in flight, or a
  // Gumbel halving step needs every result first). If no leaves are in flight and the
  // search is unfinished, it returns at least 1. Precondition: StartSearch was called.
  int CollectLeaves(int max_leaves, std::vector<rules::Position>& out);
  // Hands over the evaluations of the leaves of the last CollectLeaves, in the same order.
  // Precondition: outputs.size() equals what it returned.
  void ProvideEvaluations(std::span<const EvalOutput> outputs);
  // Leaves awaiting ProvideEvaluations (collided selections not counted).
  int LeavesInFlight() const { return static_cast<int>(pending_.size()); }
  // All simulations of the current search are done.
  bool Finished() const;
  // The result of the finished search; chooses the action (using the generator for the
  // temperature). Precondition: Finished().
  SearchResult Result();

  // Synchronous convenience: StartSearch, then collect (config.leaves_per_batch at a time),
  // evaluate and provide until finished; returns Result().
  SearchResult Run(Evaluator& evaluator, int simulations = -1);

  // The most visited continuation of root action `first` to the end of the current full
  // turn, or nullopt when the tree does not reach the end of the turn along it (or `first`
  // is not a visited root action). Meant for a root at the start of a turn (hints, the
  // alternatives a player reports).
  std::optional<TurnLine> TurnLineFrom(rules::Action first) const;

  TreeStats Stats() const;
  // The root node (for tests and analysis). Valid until the tree changes.
  const Node* Root() const { return root_; }

 private:
  struct Leaf {
    std::vector<Node*> path;  // root .. leaf
    rules::Position pos;      // the leaf's position
  };
  void ResetTree(const rules::Position& pos);
  void PrepareRoot();
  void Expand(Node* node, const rules::Position& pos, const EvalOutput& eval);
  // Descends from the root; fills `path` and `pos`. Returns the node reached.
  Node* Select(std::vector<Node*>& path, rules::Position& pos);
  int SelectPuct(const Node* node, bool is_root) const;
  int SelectGumbelInterior(const Node* node) const;
  int SelectGumbelRoot();
  int SelectUcb1(const Node* node) const;
  Node* ChildFor(Node* node, int edge_index, rules::Position& pos);
  void Backup(const std::vector<Node*>& path, float leaf_value, bool in_flight);
  void UpdateProven(const std::vector<Node*>& path);
  void ApplyDirichletNoise();
  // The mixed value of `node` (for its player): its own evaluation combined with the
  // prior-weighted Q of its visited children (mctx's v_mix); the completed Q of an
  // unvisited child.
  static float MixedValue(const Node* node);
  // Completed Q values (for the node's player), normalised to [0, 1] and scaled: sigma(q).
  void GumbelSigma(const Node* node, std::vector<float>& sigma) const;
  // The Gumbel logit of edge i of `node`: the log of its prior, floored at 1e-30.
  static float GumbelLogit(const Node* node, int i);
  // The root score g + logit + sigma(q) of edge i. Precondition: scratch_ holds
  // GumbelSigma(root_).
  float GumbelRootScore(int i) const;
  void ComputeGumbelSchedule();
  rules::Action ChooseAction(const std::vector<ChildInfo>& children, bool gumbel);

  SearchConfig config_;
  util::Rng rng_;
  NodePool pool_;
  Node* root_ = nullptr;
  rules::Position root_pos_;
  bool root_prepared_ = false;          // noise / Gumbel values drawn for this root and search
  bool root_noised_ = false;            // Dirichlet noise already in this root's priors
  std::vector<float> root_raw_priors_;  // by edge index, before noise

  uint64_t max_nodes_ = 0;   // the node budget: config_.max_nodes or DefaultMaxNodes()
  bool node_limit_ = false;  // this search stopped at the node budget
  int target_ = 0;           // simulations of this search
  int started_ = 0;          // simulations selected (in flight or done)
  int done_ = 0;             // simulations backed up
  bool searching_ = false;
  std::vector<Leaf> pending_;
  std::vector<Leaf> collided_;  // selections that hit a leaf in flight (virtual loss only)
  std::vector<Leaf> spare_;     // recycled Leaf buffers

  // Gumbel root state (by root edge index) for the current search.
  std::vector<float> gumbel_;             // Gumbel(0, 1) draws (0 without noise)
  std::vector<uint32_t> root_started_;    // simulations started through each root edge
  std::vector<uint32_t> visit_schedule_;  // considered visit count per simulation index
  std::vector<uint8_t> halving_step_;     // 1 where a simulation index starts a halving
  int root_swap_edge_ = -1;               // the pie rule's swap at the root, else -1
  mutable std::vector<float> scratch_;
};

}  // namespace veletas::search
