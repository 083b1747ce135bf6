#include "timeline/Lanes.h"

#include <algorithm>
#include <limits>
#include <map>

namespace strata::timeline {

namespace {

LaneKey keyOf(const trace::Event& e) {
    if (e.kind == trace::EventKind::Transfer)
        return {e.core, LaneKind::Transfer, e.path};
    return {e.core, LaneKind::Compute, trace::kNoPath};
}

} // namespace

std::vector<Lane> buildLanes(const trace::Trace& trace) {
    std::map<LaneKey, std::vector<std::uint32_t>> byKey;
    for (std::uint32_t i = 0; i < trace.events.size(); ++i)
        byKey[keyOf(trace.events[i])].push_back(i);

    std::vector<Lane> lanes;
    lanes.reserve(byKey.size());
    for (auto& [key, indices] : byKey) {
        std::stable_sort(indices.begin(), indices.end(), [&](std::uint32_t a, std::uint32_t b) {
            const trace::Event& x = trace.events[a];
            const trace::Event& y = trace.events[b];
            return x.startPs != y.startPs ? x.startPs < y.startPs : x.endPs < y.endPs;
        });
        Lane lane;
        lane.key = key;
        lane.events = std::move(indices);
        const std::size_t n = lane.events.size();
        lane.startPs.resize(n);
        lane.endPs.resize(n);
        lane.maxEndPs.resize(n);
        std::int64_t latest = std::numeric_limits<std::int64_t>::min();
        for (std::size_t i = 0; i < n; ++i) {
            const trace::Event& e = trace.events[lane.events[i]];
            lane.startPs[i] = e.startPs;
            lane.endPs[i] = e.endPs;
            latest = std::max(latest, e.endPs);
            lane.maxEndPs[i] = latest;
        }
        lanes.push_back(std::move(lane));
    }
    return lanes;
}

std::pair<std::size_t, std::size_t> visibleRange(const Lane& lane, std::int64_t fromPs,
                                                 std::int64_t toPs) {
    // First event whose running latest end reaches past fromPs: before it, everything ended.
    const auto first = std::lower_bound(lane.maxEndPs.begin(), lane.maxEndPs.end(), fromPs,
                                        [](std::int64_t end, std::int64_t from) { return end < from; });
    std::size_t begin = static_cast<std::size_t>(first - lane.maxEndPs.begin());
    // Events ending exactly at fromPs overlap only when they have no length and start there.
    while (begin < lane.size() && lane.maxEndPs[begin] == fromPs && lane.startPs[begin] < fromPs)
        ++begin;
    const auto last = std::lower_bound(lane.startPs.begin() + static_cast<std::ptrdiff_t>(begin),
                                       lane.startPs.end(), toPs);
    return {begin, static_cast<std::size_t>(last - lane.startPs.begin())};
}

} // namespace strata::timeline
