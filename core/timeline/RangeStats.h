#pragma once
// What a selected time range holds: per kind, per block and per path, the time events spend
// inside the range (each event clipped to it, summed over events, so overlapping transfers add
// up) and how many events touch it. Found per lane by binary search, not by a walk of the trace.

#include "timeline/Lanes.h"
#include "trace/Trace.h"

#include <cstdint>
#include <map>
#include <vector>

namespace strata::timeline {

struct RangeFigure {
    std::int64_t timePs = 0;        // summed clipped durations
    std::uint64_t events = 0;       // events overlapping the range
    std::uint64_t bytes = 0;        // bytes of those events (whole events, not prorated)
    bool operator==(const RangeFigure&) const = default;
};

struct RangeStats {
    std::int64_t fromPs = 0;
    std::int64_t toPs = 0;
    std::map<trace::EventKind, RangeFigure> byKind;
    std::map<std::int32_t, RangeFigure> byBlock;   // -1: no block (barriers)
    std::map<std::uint16_t, RangeFigure> byPath;   // transfers only; Trace::paths index
    RangeFigure total;
};

// The statistics of the events of `lanes` (all built from `trace`) that overlap [fromPs, toPs).
RangeStats rangeStats(const trace::Trace& trace, const std::vector<Lane>& lanes,
                      std::int64_t fromPs, std::int64_t toPs);

} // namespace strata::timeline
