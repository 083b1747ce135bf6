#pragma once
// What a timeline adds up to: total time, per block and per path figures, and the critical path.
// Computed from the events alone, so emulated and measured traces are summarised alike.

#include "trace/Trace.h"

#include <cstdint>
#include <vector>

namespace strata::trace {

// Per block, wall-clock figures over all its cores: `time` spans its first event's start to its
// last event's end; `transfer`, `compute` and `stall` are the time during which at least one of
// its transfers is in flight, one of its cores computes, or one waits on a transfer. They
// overlap each other (that overlap is what double buffering buys). Barriers belong to no block.
struct BlockSummary {
    int block = 0;
    std::int64_t timePs = 0;
    std::int64_t transferPs = 0;
    std::int64_t computePs = 0;
    std::int64_t stallPs = 0;
    std::uint64_t dramBytes = 0;    // bytes of its transfers to or from main memory
};

struct PathSummary {
    std::uint16_t path = 0;         // index into Trace::paths
    std::uint64_t bytes = 0;
    std::uint64_t transfers = 0;
    std::int64_t busyPs = 0;        // time with at least one transfer on the path in flight
    double busyFraction = 0;        // busyPs / the trace's total time
};

// The chain of events that set the total time, walked back from the last event to end: a
// blocked wait leads to the transfer it waited on, a barrier to its last arriving core, anything
// else to the event that ended last on its core before it started.
struct CriticalPath {
    std::vector<std::uint32_t> events; // indices into Trace::events, earliest first
    // The time each kind adds to the chain (overlaps counted once), summing with gapPs to the total.
    std::int64_t transferPs = 0;
    std::int64_t computePs = 0;
    std::int64_t waitPs = 0;
    std::int64_t barrierPs = 0;
    std::int64_t gapPs = 0;         // total time not covered by the chain (idle, unexplained)
};

struct TraceSummary {
    std::int64_t totalPs = 0;       // from 0 to the last event's end
    std::vector<BlockSummary> blocks; // by block id
    std::vector<PathSummary> paths;   // one per Trace::paths entry
    CriticalPath critical;
};

TraceSummary summarize(const Trace& trace);

} // namespace strata::trace
