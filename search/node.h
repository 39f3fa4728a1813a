// Nodes of the search tree over sub-decisions, with lazily allocated children, and the pool
// that owns them. Internal to the search layer (used by Mcts); not thread-safe.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

namespace veletas::search {

// One legal action of an expanded node. 8 bytes.
struct Edge {
  float prior = 0.0f;  // probability from the evaluator, renormalised over the legal actions
  uint8_t action = 0;  // rules::Action (0 .. N*N)
};

// A position in the tree. The position itself is not stored: search replays the actions
// from the root. 48 bytes (with 64-bit pointers). Children exist only for edges that have been
// visited; they form a singly linked list (child, sibling) in increasing edge index.
struct Node {
  static constexpr uint8_t kFlip = 1;      // ToMovePlayer differs from the parent's
  static constexpr uint8_t kTerminal = 2;  // the game is over here

  Edge* edges = nullptr;    // num_edges entries sorted by prior (highest first); null until
                            // the node is expanded
  Node* child = nullptr;    // first allocated child
  Node* sibling = nullptr;  // next allocated child of the same parent
  float q = 0.0f;           // mean backed-up value, for the player to move at this node
  float raw_value = 0.0f;   // the evaluator's value (or the exact terminal value)
  uint32_t n = 0;           // completed visits (its own evaluation included)
  uint16_t num_edges = 0;
  uint16_t in_flight = 0;  // leaves below (or at) this node awaiting evaluation
  uint8_t edge_index = 0;  // index of this node's edge in the parent's edge array
  uint8_t flags = 0;
  // +1: proven win for the player to move here, -1: proven loss, 0: unknown (solver).
  int8_t proven = 0;
  // For a proven node: sub-decisions to the end of the game along the proof (a win by the
  // shortest way known, a loss by the longest).
  uint8_t proof_length = 0;

  bool Expanded() const { return edges != nullptr; }
  bool Terminal() const { return flags & kTerminal; }
  bool Flip() const { return flags & kFlip; }
  // A value of this node seen by its parent's player to move.
  float ForParent(float v) const { return Flip() ? -v : v; }
  // Awaiting its first evaluation (a leaf in flight).
  bool Pending() const { return !Expanded() && !Terminal() && in_flight > 0; }
  // The child for edge `index`, or null.
  Node* ChildAt(int index) const {
    for (Node* c = child; c != nullptr && c->edge_index <= index; c = c->sibling) {
      if (c->edge_index == index) return c;
    }
    return nullptr;
  }
};

// Walks a node's children alongside its edges: Next(i), called for i = 0, 1, ... in turn,
// gives the child of edge i, or null when that edge has none (the children are linked in
// increasing edge index). Valid while the children do not change.
class ChildCursor {
 public:
  explicit ChildCursor(const Node* node) : next_(node->child) {}
  const Node* Next(int i) {
    if (next_ == nullptr || next_->edge_index != i) return nullptr;
    const Node* child = next_;
    next_ = next_->sibling;
    return child;
  }
  // No child past the edges Next has been called for.
  bool Done() const { return next_ == nullptr; }

 private:
  const Node* next_;
};

// Allocates nodes (from chunks, recycled through a free list) and edge arrays, and counts
// what is live. One per search tree.
class NodePool {
 public:
  NodePool() = default;
  NodePool(const NodePool&) = delete;
  NodePool& operator=(const NodePool&) = delete;
  // Precondition: every tree taken from this pool has been freed with FreeSubtree (edge
  // arrays are released there, not by the chunks).
  ~NodePool() = default;

  // A fresh, zeroed node.
  Node* NewNode();
  // Allocates the edge array of `node` (num_edges entries). Precondition: not expanded.
  void AllocateEdges(Node* node, int num_edges);
  // Frees `root` and its whole subtree (iteratively).
  void FreeSubtree(Node* root);
  // Inserts `c` into the child list of `parent` at its edge index.
  static void LinkChild(Node* parent, Node* c);
  // Removes `c` from the child list of `parent`. Precondition: c is a child of parent.
  static void UnlinkChild(Node* parent, Node* c);

  uint64_t LiveNodes() const { return live_nodes_; }
  uint64_t LiveEdges() const { return live_edges_; }
  // Bytes held by live nodes and edge arrays (allocator overhead excluded).
  uint64_t LiveBytes() const { return live_nodes_ * sizeof(Node) + live_edges_ * sizeof(Edge); }

 private:
  static constexpr int kChunk = 1024;
  std::vector<std::unique_ptr<Node[]>> chunks_;
  Node* free_ = nullptr;  // free list threaded through Node::sibling
  int chunk_used_ = kChunk;
  uint64_t live_nodes_ = 0;
  uint64_t live_edges_ = 0;
};

}  // namespace veletas::search
