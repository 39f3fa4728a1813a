#include "search/node.h"

namespace veletas::search {

static_assert(sizeof(Edge) == 8);
// 48 bytes with 64-bit pointers, 32 on wasm32.
static_assert(sizeof(Node) == (sizeof(void*) == 8 ? 48 : 32));

Node* NodePool::NewNode() {
  Node* node;
  if (free_ != nullptr) {
    node = free_;
    free_ = free_->sibling;
  } else {
    if (chunk_used_ == kChunk) {
      chunks_.push_back(std::make_unique<Node[]>(kChunk));
      chunk_used_ = 0;
    }
    node = &chunks_.back()[chunk_used_++];
  }
  *node = Node{};
  ++live_nodes_;
  return node;
}

void NodePool::AllocateEdges(Node* node, int num_edges) {
  node->edges = new Edge[num_edges];
  node->num_edges = static_cast<uint16_t>(num_edges);
  live_edges_ += num_edges;
}

void NodePool::FreeSubtree(Node* root) {
  std::vector<Node*> stack{root};
  while (!stack.empty()) {
    Node* node = stack.back();
    stack.pop_back();
    for (Node* c = node->child; c != nullptr; c = c->sibling) stack.push_back(c);
    if (node->edges != nullptr) {
      live_edges_ -= node->num_edges;
      delete[] node->edges;
    }
    *node = Node{};
    node->sibling = free_;
    free_ = node;
    --live_nodes_;
  }
}

void NodePool::LinkChild(Node* parent, Node* c) {
  Node** link = &parent->child;
  while (*link != nullptr && (*link)->edge_index < c->edge_index) link = &(*link)->sibling;
  c->sibling = *link;
  *link = c;
}

void NodePool::UnlinkChild(Node* parent, Node* c) {
  Node** link = &parent->child;
  while (*link != c) link = &(*link)->sibling;
  *link = c->sibling;
  c->sibling = nullptr;
}

}  // namespace veletas::search
