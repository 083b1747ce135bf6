#pragma once
// Small graphs built in code for the view tests.

#include "ir/Graph.h"
#include "layout/GraphLayout.h"
#include "layout/LayoutInput.h"
#include "layout/NodeLabel.h"

#include <memory>

namespace strata::views::test {

// input[1x3x8x8] -> Conv "conv1" (w 4x3x3x3, b 4) -> Relu "relu1" -> MatMul "fc" (w) -> output.
// Costs are set by hand with distinct magnitudes (FLOPs 9 / 10 / 1e9), so numeric and
// lexicographic sorting disagree.
std::shared_ptr<const ir::Graph> makeSmallGraph();

// A chain input -> op0 -> ... -> op{n-1} -> output, alternating MatMul and Relu.
std::shared_ptr<const ir::Graph> makeChain(int n);

// `inputs` graph inputs, each through its own Relu "relu<i>", into one Concat "concat": a graph
// whose first rank is as wide as `inputs` nodes.
std::shared_ptr<const ir::Graph> makeFan(int inputs);

// The graph laid out by Graphviz in-process (fails the test and returns null if it cannot be).
std::shared_ptr<const layout::GraphLayout> layOut(const ir::Graph& graph,
                                                  const layout::LayoutInput& input,
                                                  const layout::TextMetrics& metrics);

} // namespace strata::views::test
