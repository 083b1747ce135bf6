#pragma once
// Two runs side by side (the app's Compare tab, docs/COMPARE.md): any two timelines — two
// schedules of one model, a prediction and its measurement, two imported files — compared block
// by block and in total. Blocks are matched by block id; a block with events in only one run is
// kept and marked. Unlike compareTraces() the runs need not be of the same program: only block
// ids and times are read.

#include "trace/Trace.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace strata::trace {

struct BlockDelta {
    int block = 0;
    std::optional<std::int64_t> aPs;   // the block's span in run A (TraceSummary's time); none: not in A
    std::optional<std::int64_t> bPs;
    std::int64_t deltaPs = 0;          // B - A, a missing side counting as 0
    double relative = 0;               // deltaPs / A; 0 when A is missing or 0

    bool onlyInA() const { return aPs && !bPs; }
    bool onlyInB() const { return bPs && !aPs; }
};

struct RunDelta {
    std::int64_t totalAPs = 0;         // each run's total, from 0 to its last event's end
    std::int64_t totalBPs = 0;
    std::int64_t deltaPs = 0;          // B - A
    double relative = 0;               // deltaPs / totalAPs; 0 when A is empty
    // Every block of either run, largest slowdown (B - A) first, then by block id.
    std::vector<BlockDelta> blocks;
    std::size_t onlyInA = 0;
    std::size_t onlyInB = 0;
};

// Events without a block (barriers) count in the totals only.
RunDelta compareRuns(const Trace& a, const Trace& b);

} // namespace strata::trace
