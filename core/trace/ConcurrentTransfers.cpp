#include "trace/ConcurrentTransfers.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <utility>

namespace strata::trace {

std::vector<double> concurrentTransferShares(const Trace& timeline) {
    std::map<std::uint32_t, std::vector<std::pair<std::int64_t, std::int64_t>>> perCore;
    for (const Event& e : timeline.events)
        if (e.kind == EventKind::Transfer)
            perCore[e.core].push_back({e.startPs, e.endPs});
    for (auto& [core, spans] : perCore)
        std::sort(spans.begin(), spans.end());
    std::vector<double> out(timeline.events.size(), 0);
    for (std::size_t i = 0; i < timeline.events.size(); ++i) {
        const Event& e = timeline.events[i];
        if (e.kind != EventKind::Transfer || e.durationPs() <= 0)
            continue;
        std::int64_t shared = 0;
        for (const auto& [core, spans] : perCore) {
            if (core == e.core)
                continue;
            // Spans of one core do not overlap: start from the last one starting before e.
            auto it =
                std::lower_bound(spans.begin(), spans.end(), std::make_pair(e.startPs, e.startPs));
            if (it != spans.begin())
                --it;
            for (; it != spans.end() && it->first < e.endPs; ++it)
                shared += std::max<std::int64_t>(0, std::min(it->second, e.endPs) -
                                                        std::max(it->first, e.startPs));
        }
        out[i] = std::min(1.0, double(shared) / double(e.durationPs()));
    }
    return out;
}

} // namespace strata::trace
