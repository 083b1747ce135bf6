#pragma once
// Op classes and cost counting. The rules, per class, are in docs/OP_COSTS.md.

#include "ir/Graph.h"

#include <string_view>

namespace strata::model {

ir::OpClass classifyOp(std::string_view opType);

// FLOPs, bytes and parameters of `op`, whose values in `graph` have static shapes.
ir::OpCost estimateCost(const ir::Graph& graph, const ir::Op& op);

} // namespace strata::model
