#pragma once
// The elements of small constant tensors (shapes, axes, pads, clip bounds) as plain numbers,
// for the passes and emitters that read an op's constant operands.

#include "ir/Graph.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace strata::ir {

// The elements of an int64 or int32 constant; nullopt for anything else or missing bytes.
std::optional<std::vector<std::int64_t>> constantInts(const Graph& graph, ValueId id);

// The elements of a float32 or float64 constant; nullopt for anything else or missing bytes.
std::optional<std::vector<double>> constantFloats(const Graph& graph, ValueId id);

} // namespace strata::ir
