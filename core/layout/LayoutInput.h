#pragma once
// What to lay out besides the graph: an optional partition of its ops into blocks (fusion
// blocks from a schedule, or chunks of consecutive ops for an overview of a big graph) and
// which blocks are collapsed into one node each. An expanded block becomes a cluster.

#include "base/Expected.h"
#include "ir/Graph.h"

#include <cstddef>
#include <vector>

namespace strata::layout {

struct LayoutInput {
    // One block index per op (by OpId), -1 for an op in no block; empty: no partition.
    std::vector<int> blockOfOp;
    // Blocks laid out as one node each, ascending, no duplicates.
    std::vector<int> collapsedBlocks;
    // The blocks are runs of consecutive ops made by overviewInput(), not fusion blocks: their
    // labels name the op range ("Ops 120–239") instead of a block id.
    bool blocksAreChunks = false;

    bool isCollapsed(int block) const;
};

// Bounds on what is handed to Graphviz: dot's crossing minimisation grows faster than
// linearly, and a graph of LLM size would keep it busy for minutes and gigabytes.
struct LayoutLimits {
    std::size_t maxNodes = 2000;
    std::size_t maxEdges = 6000;
};

// Checks `input` against `graph`: blockOfOp is empty or has one entry per op, block indices
// are >= -1, collapsed blocks are sorted, distinct and hold at least one op.
std::vector<Diagnostic> validateInput(const ir::Graph& graph, const LayoutInput& input);

// Nodes the layout of `graph` under `input` has: graph inputs and outputs, ops outside
// collapsed blocks, one per collapsed block. `input` must be valid.
std::size_t layoutNodeCount(const ir::Graph& graph, const LayoutInput& input);

// Splits the ops, in their (topological) order, into runs of `chunkSize` consecutive ops: a
// partition whose blocks are convex, as edges only go forward in topological order.
std::vector<int> chunkPartition(const ir::Graph& graph, std::size_t chunkSize);

// A view of `graph` small enough for a quick layout: with a partition, every block collapsed;
// without one (or when collapsing its blocks still leaves more than `maxNodes` nodes),
// chunks of consecutive ops, about `targetNodes` of them, all collapsed. `base` must be valid.
LayoutInput overviewInput(const ir::Graph& graph, const LayoutInput& base, std::size_t maxNodes,
                          std::size_t targetNodes = 100);

} // namespace strata::layout
