#include "calibrate/InstructionGaps.h"

#include <algorithm>

namespace strata::calibrate {

void collectGaps(const trace::Trace& trace, std::vector<double>& gapsNs) {
    std::vector<std::vector<const trace::Event*>> perCore(
        static_cast<std::size_t>(std::max(1, trace.cores)));
    for (const trace::Event& e : trace.events)
        if (e.core < perCore.size())
            perCore[e.core].push_back(&e);
    for (auto& events : perCore) {
        std::sort(events.begin(), events.end(),
                  [](auto* a, auto* b) { return a->startPs < b->startPs; });
        for (std::size_t i = 1; i < events.size(); ++i)
            gapsNs.push_back(
                std::max<double>(0, double(events[i]->startPs - events[i - 1]->endPs) / 1e3));
    }
}

} // namespace strata::calibrate
