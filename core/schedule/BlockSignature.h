#pragma once
// A block's signature: everything its tiling analysis depends on (op types, attributes, shapes,
// dtypes, small constant values, the wiring inside the block, which results leave it, and its
// knobs) and nothing else (not op or value names). Repeated layers (a transformer's 265 identical
// blocks, ResNet's bottlenecks) share a signature, so each is tiled once.

#include "schedule/Schedule.h"

#include <string>

namespace strata::schedule {

std::string blockSignature(const Block& block, const ir::Graph& graph);

} // namespace strata::schedule
