// Summaries of a hand-made timeline (one core, times in ns):
//   i0 load  [0, 200]  1600 B  block 0      i1 wait i0 [0, 200]  block 0
//   i2 conv  [200, 500]        block 0      i3 relu    [500, 600] block 1
//   i4 store [600, 800] 800 B  block 1      i5 wait i4 [600, 800] block 1

#include "trace/TraceSummary.h"

#include <gtest/gtest.h>

namespace strata::trace {
namespace {

constexpr std::int64_t kNs = 1000;

Trace timeline() {
    Trace t;
    t.mainMemory = "DRAM";
    t.paths = {{"load", "DRAM", "SRAM"}, {"store", "SRAM", "DRAM"}, {"copy", "SRAM", "PDM"}};
    auto add = [&](EventKind kind, std::int64_t start, std::int64_t end, int block) -> Event& {
        Event e;
        e.id = static_cast<std::uint32_t>(t.events.size());
        e.kind = kind;
        e.startPs = start * kNs;
        e.endPs = end * kNs;
        e.block = block;
        t.events.push_back(e);
        return t.events.back();
    };
    Event& load = add(EventKind::Transfer, 0, 200, 0);
    load.path = 0;
    load.bytes = 1600;
    add(EventKind::Wait, 0, 200, 0).link = 0;
    add(EventKind::Compute, 200, 500, 0);
    add(EventKind::Compute, 500, 600, 1);
    Event& store = add(EventKind::Transfer, 600, 800, 1);
    store.path = 1;
    store.bytes = 800;
    add(EventKind::Wait, 600, 800, 1).link = 4;
    return t;
}

TEST(TraceSummary, Blocks) {
    const TraceSummary s = summarize(timeline());
    EXPECT_EQ(s.totalPs, 800 * kNs);
    ASSERT_EQ(s.blocks.size(), 2u);
    EXPECT_EQ(s.blocks[0].block, 0);
    EXPECT_EQ(s.blocks[0].timePs, 500 * kNs);
    EXPECT_EQ(s.blocks[0].transferPs, 200 * kNs);
    EXPECT_EQ(s.blocks[0].computePs, 300 * kNs);
    EXPECT_EQ(s.blocks[0].stallPs, 200 * kNs);
    EXPECT_EQ(s.blocks[0].dramBytes, 1600u);
    EXPECT_EQ(s.blocks[1].timePs, 300 * kNs);
    EXPECT_EQ(s.blocks[1].computePs, 100 * kNs);
    EXPECT_EQ(s.blocks[1].dramBytes, 800u);
}

TEST(TraceSummary, Paths) {
    const TraceSummary s = summarize(timeline());
    ASSERT_EQ(s.paths.size(), 3u);
    EXPECT_EQ(s.paths[0].bytes, 1600u);
    EXPECT_EQ(s.paths[0].transfers, 1u);
    EXPECT_DOUBLE_EQ(s.paths[0].busyFraction, 0.25);
    EXPECT_DOUBLE_EQ(s.paths[1].busyFraction, 0.25);
    EXPECT_EQ(s.paths[2].bytes, 0u);
}

TEST(TraceSummary, OverlappingTransfersCountOnceForBusyTime) {
    Trace t = timeline();
    Event extra = t.events[0];
    extra.id = 6;
    extra.startPs = 100 * kNs;
    extra.endPs = 300 * kNs;
    t.events.push_back(extra);
    const TraceSummary s = summarize(t);
    EXPECT_EQ(s.paths[0].busyPs, 300 * kNs); // [0, 300]
    EXPECT_EQ(s.blocks[0].transferPs, 300 * kNs);
}

TEST(TraceSummary, CriticalPathWalksBackThroughWaitsToTheirTransfers) {
    const TraceSummary s = summarize(timeline());
    EXPECT_EQ(s.critical.events, (std::vector<std::uint32_t>{0, 1, 2, 3, 4}));
    EXPECT_EQ(s.critical.transferPs, 400 * kNs);
    EXPECT_EQ(s.critical.computePs, 400 * kNs);
    EXPECT_EQ(s.critical.waitPs, 0);
    EXPECT_EQ(s.critical.gapPs, 0);
}

TEST(TraceSummary, CriticalPathGoesThroughTheLastCoreToReachABarrier) {
    Trace t;
    t.cores = 2;
    auto add = [&](std::uint32_t core, EventKind kind, std::int64_t start, std::int64_t end, int link = -1) {
        Event e;
        e.id = static_cast<std::uint32_t>(t.events.size());
        e.core = core;
        e.kind = kind;
        e.startPs = start;
        e.endPs = end;
        e.link = link;
        t.events.push_back(e);
    };
    add(0, EventKind::Compute, 0, 100);
    add(1, EventKind::Compute, 0, 300);
    add(0, EventKind::Barrier, 100, 310, 0);
    add(1, EventKind::Barrier, 300, 310, 0);
    add(0, EventKind::Compute, 310, 400);
    const TraceSummary s = summarize(t);
    EXPECT_EQ(s.critical.events, (std::vector<std::uint32_t>{1, 3, 4}));
    EXPECT_EQ(s.critical.barrierPs, 10);
}

TEST(TraceSummary, EmptyTrace) {
    const TraceSummary s = summarize(Trace{});
    EXPECT_EQ(s.totalPs, 0);
    EXPECT_TRUE(s.blocks.empty());
    EXPECT_TRUE(s.critical.events.empty());
}

} // namespace
} // namespace strata::trace
