#include "TestTraces.h"
#include "timeline/Lanes.h"

#include <gtest/gtest.h>

namespace strata::timeline {
namespace {

using testing::event;
using trace::EventKind;
using Range = std::pair<std::size_t, std::size_t>;

TEST(Lanes, OneComputeLanePerCoreAndOnePerPathUsed) {
    trace::Trace t;
    t.paths = {{"load", "a", "b"}, {"store", "b", "a"}};
    t.events = {event(50, 60, EventKind::Compute, 1, 0), event(0, 10, EventKind::Transfer, 0, 0, 1),
                event(0, 5, EventKind::Compute, 0, 0), event(5, 7, EventKind::Wait, 0, 0),
                event(20, 30, EventKind::Barrier, 0, -1)};
    const std::vector<Lane> lanes = buildLanes(t);
    ASSERT_EQ(lanes.size(), 3u);
    EXPECT_EQ(lanes[0].key, (LaneKey{0, LaneKind::Compute, trace::kNoPath}));
    EXPECT_EQ(lanes[0].events, (std::vector<std::uint32_t>{2, 3, 4}));
    EXPECT_EQ(lanes[1].key, (LaneKey{0, LaneKind::Transfer, 1}));
    EXPECT_EQ(lanes[2].key, (LaneKey{1, LaneKind::Compute, trace::kNoPath}));
    EXPECT_EQ(lanes[0].maxEndPs, (std::vector<std::int64_t>{5, 7, 30}));
}

// Brute force: every event overlapping the window must be inside the range found.
void expectCovers(const trace::Trace& t, const Lane& lane, std::int64_t from, std::int64_t to) {
    const auto [first, last] = visibleRange(lane, from, to);
    ASSERT_LE(first, last);
    ASSERT_LE(last, lane.size());
    for (std::size_t i = 0; i < lane.size(); ++i) {
        const trace::Event& e = t.events[lane.events[i]];
        const bool overlaps = e.startPs < to && (e.endPs > from || (e.startPs == e.endPs && e.startPs == from));
        if (overlaps) {
            EXPECT_GE(i, first) << "event at " << e.startPs << ".." << e.endPs << " window " << from << ".." << to;
            EXPECT_LT(i, last) << "event at " << e.startPs << ".." << e.endPs << " window " << from << ".." << to;
        }
    }
}

TEST(Lanes, VisibleWindowAtItsEdges) {
    trace::Trace t;
    t.events = {event(0, 10, EventKind::Compute, 0, 0), event(10, 20, EventKind::Compute, 0, 0),
                event(20, 20, EventKind::Wait, 0, 0), event(20, 35, EventKind::Compute, 0, 1),
                event(40, 50, EventKind::Compute, 0, 1)};
    const Lane lane = buildLanes(t).front();
    // Exact on a lane whose events do not overlap: touching ends are outside.
    EXPECT_EQ(visibleRange(lane, 10, 20), Range(1, 2));
    EXPECT_EQ(visibleRange(lane, 20, 21), Range(2, 4));
    EXPECT_EQ(visibleRange(lane, 35, 40), Range(4, 4));
    EXPECT_EQ(visibleRange(lane, -100, 0), Range(0, 0));
    EXPECT_EQ(visibleRange(lane, 50, 1000), Range(5, 5));
    EXPECT_EQ(visibleRange(lane, -100, 1000), Range(0, 5));
    EXPECT_EQ(visibleRange(lane, 49, 49), Range(4, 5)); // an empty window inside an event
    for (std::int64_t from = -5; from < 55; from += 5)
        for (std::int64_t to = from; to < 60; to += 5)
            expectCovers(t, lane, from, to);
}

TEST(Lanes, VisibleWindowFindsLongOverlappingTransfers) {
    const trace::Trace t = testing::randomTrace(3, 2'000, 7);
    const std::vector<Lane> lanes = buildLanes(t);
    ASSERT_EQ(lanes.size(), 9u);
    const std::int64_t end = t.endPs();
    for (const Lane& lane : lanes)
        for (std::int64_t from = 0; from < end; from += end / 37)
            expectCovers(t, lane, from, from + end / 211);
}

TEST(Lanes, EmptyTraceHasNoLanes) {
    EXPECT_TRUE(buildLanes(trace::Trace{}).empty());
}

} // namespace
} // namespace strata::timeline
