#pragma once
// Small graphs built in code for the view tests.

#include "ir/Graph.h"

#include <memory>

namespace strata::views::test {

// input[1x3x8x8] -> Conv "conv1" (w 4x3x3x3, b 4) -> Relu "relu1" -> MatMul "fc" (w) -> output.
// Costs are set by hand with distinct magnitudes (FLOPs 9 / 10 / 1e9), so numeric and
// lexicographic sorting disagree.
std::shared_ptr<const ir::Graph> makeSmallGraph();

} // namespace strata::views::test
