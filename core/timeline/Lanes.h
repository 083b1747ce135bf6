#pragma once
// The rows of a timeline: per core one compute lane (its stream: computes, waits, barriers, which
// never overlap) and one lane per transfer path it used (transfers in flight may overlap). Each
// lane keeps its events sorted by start, in flat arrays, with the running maximum of their ends,
// so the events visible in a time window are found by binary search (Tracy's timeline).

#include "trace/Trace.h"

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace strata::timeline {

enum class LaneKind : std::uint8_t { Compute, Transfer };

struct LaneKey {
    std::uint32_t core = 0;
    LaneKind kind = LaneKind::Compute;
    std::uint16_t path = trace::kNoPath; // transfers: index into Trace::paths
    auto operator<=>(const LaneKey&) const = default;
};

struct Lane {
    LaneKey key;
    std::vector<std::uint32_t> events;   // indices into Trace::events, by start then end
    std::vector<std::int64_t> startPs;   // events' starts, in that order
    std::vector<std::int64_t> endPs;     // their ends
    std::vector<std::int64_t> maxEndPs;  // maxEndPs[i]: the latest end among events 0..i

    std::size_t size() const { return events.size(); }
};

// The lanes of `trace`, ordered by core, the compute lane first, then paths by index. Cores
// without events get no lanes.
std::vector<Lane> buildLanes(const trace::Trace& trace);

// The positions [first, last) in `lane` of the events that may overlap [fromPs, toPs): every
// event that does is inside; on a lane whose events never overlap, only those are. An event
// overlaps when it starts before toPs and ends after fromPs (a zero-length event at fromPs counts).
std::pair<std::size_t, std::size_t> visibleRange(const Lane& lane, std::int64_t fromPs,
                                                 std::int64_t toPs);

} // namespace strata::timeline
