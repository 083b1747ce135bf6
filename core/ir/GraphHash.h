#pragma once
// The model's content hash: what a schedule or project was made for. It covers the graph's
// structure (ops, attributes, value names, dtypes, shapes, inputs, outputs) and not weight
// values, so retrained weights keep a schedule valid while any structural change does not.

#include "ir/Graph.h"

#include <string>

namespace strata::ir {

// 32 lowercase hex digits (XXH3-128 over a canonical serialisation).
std::string contentHash(const Graph& graph);

} // namespace strata::ir
