#pragma once
// Putting blocks in an order that respects the data flow between them.

#include "schedule/Schedule.h"

#include <optional>

namespace strata::schedule {

// Sorts each block's ops and orders the blocks topologically by the data flow between them
// (ties keep the block whose first op comes first). Returns the op that closes a cycle between
// blocks when there is no such order (some block is not convex), leaving the order unchanged.
std::optional<ir::OpId> orderBlocks(Schedule& schedule, const ir::Graph& graph);

// The first op, in topological order, on a path that leaves `block` and re-enters it; nullopt
// when the block is convex. `blockOf` is blockIndexOfOps(); `blockIndex` indexes it.
struct ConvexityViolation {
    ir::OpId leavesAt;   // a block op whose result leaves the block
    ir::OpId outside;    // an op of another block on the path
    ir::OpId reentersAt; // the block op the path comes back to
};
std::optional<ConvexityViolation> findConvexityViolation(const ir::Graph& graph, const Block& block,
                                                         const std::vector<int>& blockOf,
                                                         int blockIndex);

} // namespace strata::schedule
