// The share of each transfer's time another core's transfer ran beside it (shares worked out by
// hand on a three-core timeline).

#include "trace/ConcurrentTransfers.h"

#include <gtest/gtest.h>

namespace strata::trace {
namespace {

Event event(std::uint32_t core, EventKind kind, std::int64_t start, std::int64_t end) {
    Event e;
    e.core = core;
    e.kind = kind;
    e.startPs = start;
    e.endPs = end;
    return e;
}

TEST(ConcurrentTransfers, ShareOfEachTransferBesideOtherCoresTransfers) {
    Trace t;
    t.events = {
        event(0, EventKind::Transfer, 0, 100),   // core 1's transfer covers 50..100: 0.5
        event(1, EventKind::Transfer, 50, 150),  // core 0's 50..100 and core 2's 120..150: 0.8
        event(2, EventKind::Transfer, 120, 200), // core 1's 120..150, core 0's 160..180: 50 of 80
        event(0, EventKind::Compute, 0, 300),    // not a transfer: 0
        event(0, EventKind::Transfer, 160, 180), // core 2's covers it all: 1, not more
        event(1, EventKind::Transfer, 400, 400), // no duration: 0
    };
    const std::vector<double> s = concurrentTransferShares(t);
    ASSERT_EQ(s.size(), t.events.size());
    EXPECT_DOUBLE_EQ(s[0], 0.5);
    EXPECT_DOUBLE_EQ(s[1], 0.8);
    EXPECT_DOUBLE_EQ(s[2], 50.0 / 80.0);
    EXPECT_DOUBLE_EQ(s[3], 0.0);
    EXPECT_DOUBLE_EQ(s[4], 1.0);
    EXPECT_DOUBLE_EQ(s[5], 0.0);
}

TEST(ConcurrentTransfers, OwnCoresTransfersDoNotCount) {
    Trace t;
    t.events = {event(0, EventKind::Transfer, 0, 100), event(0, EventKind::Transfer, 50, 150)};
    const std::vector<double> s = concurrentTransferShares(t);
    EXPECT_DOUBLE_EQ(s[0], 0.0);
    EXPECT_DOUBLE_EQ(s[1], 0.0);
}

} // namespace
} // namespace strata::trace
