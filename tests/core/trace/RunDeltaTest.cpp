// Two runs compared block by block: deltas and totals computed by hand, the sort order, blocks
// present in one run only, barriers in totals only, and empty runs.

#include "trace/RunDelta.h"

#include <gtest/gtest.h>

namespace strata::trace {
namespace {

Event event(std::uint32_t id, std::uint32_t core, int block, std::int64_t startNs, std::int64_t endNs,
            EventKind kind = EventKind::Compute) {
    Event e;
    e.id = id;
    e.core = core;
    e.block = block;
    e.kind = kind;
    e.startPs = startNs * 1000;
    e.endPs = endNs * 1000;
    return e;
}

// Block 0 spans 0..300 ns over two cores, block 1 300..600, block 2 600..700.
Trace runA() {
    Trace t;
    t.cores = 2;
    t.events = {event(0, 0, 0, 0, 200), event(1, 1, 0, 50, 300), event(2, 0, 1, 300, 600),
                event(3, 0, 2, 600, 700)};
    return t;
}

// Another schedule: block 0 faster (0..100), block 1 slower (100..500), block 2 gone (merged),
// block 3 new (500..650), and a barrier up to 660 in no block.
Trace runB() {
    Trace t;
    t.cores = 2;
    t.events = {event(0, 0, 0, 0, 100), event(1, 0, 1, 100, 500), event(2, 1, 3, 500, 650),
                event(3, 0, -1, 650, 660, EventKind::Barrier)};
    return t;
}

const BlockDelta* find(const RunDelta& d, int block) {
    for (const BlockDelta& b : d.blocks)
        if (b.block == block)
            return &b;
    return nullptr;
}

TEST(RunDelta, TotalsAndPerBlockDeltasByHand) {
    const RunDelta d = compareRuns(runA(), runB());
    EXPECT_EQ(d.totalAPs, 700'000);
    EXPECT_EQ(d.totalBPs, 660'000); // the barrier ends last
    EXPECT_EQ(d.deltaPs, -40'000);
    EXPECT_DOUBLE_EQ(d.relative, -40.0 / 700.0);
    ASSERT_EQ(d.blocks.size(), 4u);

    const BlockDelta* b0 = find(d, 0);
    ASSERT_NE(b0, nullptr);
    EXPECT_EQ(*b0->aPs, 300'000);
    EXPECT_EQ(*b0->bPs, 100'000);
    EXPECT_EQ(b0->deltaPs, -200'000);
    EXPECT_DOUBLE_EQ(b0->relative, -2.0 / 3.0);
    const BlockDelta* b1 = find(d, 1);
    ASSERT_NE(b1, nullptr);
    EXPECT_EQ(b1->deltaPs, 100'000); // 300 -> 400 ns
    EXPECT_DOUBLE_EQ(b1->relative, 1.0 / 3.0);
}

TEST(RunDelta, BlocksOfOneRunOnlyAreKeptAndMarked) {
    const RunDelta d = compareRuns(runA(), runB());
    EXPECT_EQ(d.onlyInA, 1u);
    EXPECT_EQ(d.onlyInB, 1u);
    const BlockDelta* gone = find(d, 2);
    ASSERT_NE(gone, nullptr);
    EXPECT_TRUE(gone->onlyInA());
    EXPECT_FALSE(gone->bPs.has_value());
    EXPECT_EQ(gone->deltaPs, -100'000);
    const BlockDelta* added = find(d, 3);
    ASSERT_NE(added, nullptr);
    EXPECT_TRUE(added->onlyInB());
    EXPECT_EQ(added->deltaPs, 150'000);
    EXPECT_DOUBLE_EQ(added->relative, 0.0); // nothing to be relative to
    EXPECT_EQ(find(d, -1), nullptr);        // the barrier is in no block
}

TEST(RunDelta, SortedByDeltaLargestSlowdownFirst) {
    const RunDelta d = compareRuns(runA(), runB());
    ASSERT_EQ(d.blocks.size(), 4u);
    // +150 (block 3), +100 (block 1), -100 (block 2), -200 (block 0).
    EXPECT_EQ(d.blocks[0].block, 3);
    EXPECT_EQ(d.blocks[1].block, 1);
    EXPECT_EQ(d.blocks[2].block, 2);
    EXPECT_EQ(d.blocks[3].block, 0);
    // Ties keep block order.
    Trace a, b;
    a.events = {event(0, 0, 5, 0, 10), event(1, 0, 4, 10, 20)};
    b.events = a.events;
    const RunDelta same = compareRuns(a, b);
    ASSERT_EQ(same.blocks.size(), 2u);
    EXPECT_EQ(same.blocks[0].block, 4);
    EXPECT_EQ(same.blocks[1].block, 5);
    EXPECT_EQ(same.deltaPs, 0);
}

TEST(RunDelta, ReversedRunsNegateTheDeltas) {
    const RunDelta ab = compareRuns(runA(), runB());
    const RunDelta ba = compareRuns(runB(), runA());
    EXPECT_EQ(ba.deltaPs, -ab.deltaPs);
    EXPECT_EQ(ba.onlyInA, ab.onlyInB);
    ASSERT_EQ(ba.blocks.size(), ab.blocks.size());
    for (std::size_t i = 0; i < ab.blocks.size(); ++i)
        EXPECT_EQ(ba.blocks[ab.blocks.size() - 1 - i].deltaPs, -ab.blocks[i].deltaPs);
}

TEST(RunDelta, EmptyRunsGiveZeroes) {
    const RunDelta d = compareRuns(Trace{}, Trace{});
    EXPECT_EQ(d.totalAPs, 0);
    EXPECT_EQ(d.deltaPs, 0);
    EXPECT_DOUBLE_EQ(d.relative, 0.0);
    EXPECT_TRUE(d.blocks.empty());
    const RunDelta fromNothing = compareRuns(Trace{}, runA());
    EXPECT_EQ(fromNothing.onlyInB, 3u);
    EXPECT_DOUBLE_EQ(fromNothing.relative, 0.0);
}

} // namespace
} // namespace strata::trace
