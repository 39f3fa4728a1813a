// The node budgets of search trees (search/search_config.h): what the machine's memory allows.
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <string>

#include "rules/geometry.h"
#include "search/node.h"
#include "search/search_config.h"

namespace veletas::search {
namespace {

constexpr int64_t kMinNodes = 1'000'000;

// The machine's physical memory (4 GiB where it cannot be read; 2 GiB in WebAssembly).
int64_t PhysicalMemory() {
#ifdef __EMSCRIPTEN__
  return int64_t{2} << 30;  // a browser tab's memory at most
#else
  const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
  return pages > 0 && page > 0 ? int64_t{pages} * page : int64_t{4} << 30;
#endif
}

}  // namespace

int64_t MaxNodeBytes() { return sizeof(Node) + rules::kMaxActions * sizeof(Edge); }

int64_t MaxNodesForMemory(int64_t memory_bytes) {
  return std::max(kMinNodes, memory_bytes / 4 / MaxNodeBytes());
}

int64_t DefaultMaxNodes() {
  static const int64_t nodes = MaxNodesForMemory(PhysicalMemory());
  return nodes;
}

int64_t MaxNodesLimit() {
  static const int64_t nodes = std::max(kMinNodes, PhysicalMemory() / MaxNodeBytes());
  return nodes;
}

std::string TooManyNodes(int64_t max_nodes) {
  char memory[32];
  std::snprintf(memory, sizeof memory, "%.1f", static_cast<double>(PhysicalMemory()) / (1 << 30));
  return std::to_string(max_nodes) + " is more than this machine's memory holds: at most " +
         std::to_string(MaxNodesLimit()) + " nodes (" + memory + " GiB at up to " +
         std::to_string(MaxNodeBytes()) + " bytes a node)";
}

}  // namespace veletas::search
