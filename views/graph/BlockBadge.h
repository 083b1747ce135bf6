#pragma once
// What a block's badge says, set by whoever knows the schedule: the view draws it on the
// block's cluster (expanded) or node (collapsed) and never computes any of it.

#include <cstdint>
#include <optional>

namespace strata::views::graph {

struct BlockBadge {
    int block = -1;
    int mp = 0;                             // cores the block runs on; 0: not shown
    std::optional<double> predictedSeconds; // the emulator's time for the block, if known
    std::optional<std::uint64_t> dramBytes; // DRAM traffic of the block, if analysed
    bool invalid = false;                   // the schedule check found an error in the block
};

} // namespace strata::views::graph
