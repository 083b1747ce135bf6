#pragma once
// Graphs built in code for the layout tests, and the bundled samples.

#include "ir/Graph.h"
#include "layout/GraphLayout.h"

#include <memory>
#include <string>

namespace strata::layout::test {

// input -> op0 -> op1 -> ... -> op{n-1} -> output, ops alternating MatMul and Relu.
std::shared_ptr<const ir::Graph> makeChain(int n);

// input -> stem -> {left, right} -> add (residual, x*x on the left) -> output, plus a weight
// constant on the stem that must not be drawn.
std::shared_ptr<const ir::Graph> makeDiamond();

// A graph with no ops, inputs or outputs.
std::shared_ptr<const ir::Graph> makeEmpty();

// samples/<name> imported, or null when the sample is missing (the test then skips).
std::shared_ptr<const ir::Graph> loadSample(const std::string& name);

// Distance from `p` to the outline of `box` (0 on it).
double distanceToOutline(const Rect& box, Point p);

} // namespace strata::layout::test
