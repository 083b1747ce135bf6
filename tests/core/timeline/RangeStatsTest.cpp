#include "TestTraces.h"
#include "timeline/RangeStats.h"

#include <gtest/gtest.h>

namespace strata::timeline {
namespace {

using testing::event;
using trace::EventKind;

// The obvious sum over every event of the trace.
RangeStats bruteForce(const trace::Trace& t, std::int64_t from, std::int64_t to) {
    RangeStats s;
    s.fromPs = from;
    s.toPs = to;
    for (const trace::Event& e : t.events) {
        const bool overlaps = e.startPs < to && (e.endPs > from || (e.startPs == e.endPs && e.startPs == from));
        if (!overlaps)
            continue;
        const std::int64_t time = std::max<std::int64_t>(0, std::min(e.endPs, to) - std::max(e.startPs, from));
        for (RangeFigure* f : {&s.byKind[e.kind], &s.byBlock[e.block], &s.total}) {
            f->timePs += time;
            f->events += 1;
            f->bytes += e.bytes;
        }
        if (e.kind == EventKind::Transfer) {
            s.byPath[e.path].timePs += time;
            s.byPath[e.path].events += 1;
            s.byPath[e.path].bytes += e.bytes;
        }
    }
    return s;
}

void expectSame(const RangeStats& a, const RangeStats& b) {
    EXPECT_EQ(a.fromPs, b.fromPs);
    EXPECT_EQ(a.toPs, b.toPs);
    EXPECT_EQ(a.byKind, b.byKind);
    EXPECT_EQ(a.byBlock, b.byBlock);
    EXPECT_EQ(a.byPath, b.byPath);
    EXPECT_EQ(a.total, b.total);
}

TEST(RangeStats, ClipsEventsToTheRange) {
    trace::Trace t;
    t.paths = {{"load", "a", "b"}};
    t.events = {event(0, 100, EventKind::Compute, 0, 3, trace::kNoPath, 0, 10),
                event(50, 250, EventKind::Transfer, 0, 3, 0, 1, 4096),
                event(100, 200, EventKind::Wait, 0, 4),
                event(300, 400, EventKind::Compute, 1, 4)};
    const RangeStats s = rangeStats(t, buildLanes(t), 80, 150);
    EXPECT_EQ(s.byKind.at(EventKind::Compute), (RangeFigure{20, 1, 10}));
    EXPECT_EQ(s.byKind.at(EventKind::Transfer), (RangeFigure{70, 1, 4096}));
    EXPECT_EQ(s.byKind.at(EventKind::Wait), (RangeFigure{50, 1, 0}));
    EXPECT_EQ(s.byPath.at(0), (RangeFigure{70, 1, 4096}));
    EXPECT_EQ(s.byBlock.at(3).timePs, 90);
    EXPECT_EQ(s.byBlock.at(4).timePs, 50);
    EXPECT_EQ(s.total.events, 3u);
    EXPECT_EQ(s.byBlock.count(-1), 0u);
    // Reversed ranges are the same range.
    expectSame(rangeStats(t, buildLanes(t), 150, 80), s);
}

TEST(RangeStats, MatchesABruteForceSum) {
    const trace::Trace t = testing::randomTrace(4, 3'000, 5);
    const std::vector<Lane> lanes = buildLanes(t);
    const std::int64_t end = t.endPs();
    for (std::int64_t from : {std::int64_t{-10}, std::int64_t{0}, end / 7, end / 2, end - 3})
        for (std::int64_t span : {std::int64_t{0}, std::int64_t{1}, end / 1000, end / 3, 2 * end})
            expectSame(rangeStats(t, lanes, from, from + span), bruteForce(t, from, from + span));
}

} // namespace
} // namespace strata::timeline
