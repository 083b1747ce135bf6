#include "timeline/RangeStats.h"

#include <algorithm>

namespace strata::timeline {

namespace {

void add(RangeFigure& figure, std::int64_t timePs, std::uint64_t bytes) {
    figure.timePs += timePs;
    figure.events += 1;
    figure.bytes += bytes;
}

} // namespace

RangeStats rangeStats(const trace::Trace& trace, const std::vector<Lane>& lanes,
                      std::int64_t fromPs, std::int64_t toPs) {
    RangeStats stats;
    if (toPs < fromPs)
        std::swap(fromPs, toPs);
    stats.fromPs = fromPs;
    stats.toPs = toPs;
    for (const Lane& lane : lanes) {
        const auto [first, last] = visibleRange(lane, fromPs, toPs);
        for (std::size_t i = first; i < last; ++i) {
            const std::int64_t start = lane.startPs[i];
            const std::int64_t end = lane.endPs[i];
            // Overlapping lanes may hand back events that ended before the range.
            const bool overlaps = start < toPs && (end > fromPs || (start == end && start == fromPs));
            if (!overlaps)
                continue;
            const std::int64_t clipped = std::min(end, toPs) - std::max(start, fromPs);
            const std::int64_t time = std::max<std::int64_t>(clipped, 0);
            const trace::Event& e = trace.events[lane.events[i]];
            add(stats.byKind[e.kind], time, e.bytes);
            add(stats.byBlock[e.block], time, e.bytes);
            if (e.kind == trace::EventKind::Transfer)
                add(stats.byPath[e.path], time, e.bytes);
            add(stats.total, time, e.bytes);
        }
    }
    return stats;
}

} // namespace strata::timeline
