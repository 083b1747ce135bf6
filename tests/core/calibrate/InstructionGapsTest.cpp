// The time between consecutive instructions of a core, from hand-made traces.

#include "calibrate/InstructionGaps.h"

#include <gtest/gtest.h>

namespace strata::calibrate {
namespace {

trace::Event event(std::uint32_t core, std::int64_t startNs, std::int64_t endNs) {
    trace::Event e;
    e.core = core;
    e.startPs = startNs * 1000;
    e.endPs = endNs * 1000;
    return e;
}

TEST(InstructionGaps, EachCoresEventsInStartOrderAndOverlapsCountZero) {
    trace::Trace t;
    t.cores = 2;
    // Core 0 out of order: 0-10, 30-40, 12-20 -> gaps 2 and 10. Core 1: 5-50, then 45-60
    // (an overlap, 0).
    t.events = {event(0, 0, 10), event(0, 30, 40), event(1, 5, 50), event(0, 12, 20),
                event(1, 45, 60)};
    std::vector<double> gaps{7};
    collectGaps(t, gaps);
    EXPECT_EQ(gaps, (std::vector<double>{7, 2, 10, 0}));
}

TEST(InstructionGaps, AnEventOfACoreTheTraceDoesNotHaveIsLeftOut) {
    trace::Trace t;
    t.cores = 1;
    t.events = {event(0, 0, 10), event(3, 11, 12), event(0, 15, 20)};
    std::vector<double> gaps;
    collectGaps(t, gaps);
    EXPECT_EQ(gaps, (std::vector<double>{5}));
}

} // namespace
} // namespace strata::calibrate
