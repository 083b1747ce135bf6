// Comparing two timelines of one program: per event and per block errors, totals, the transfer
// median, and traces that are not of the same program.

#include "trace/TraceCompare.h"

#include <gtest/gtest.h>

namespace strata::trace {
namespace {

Event event(std::uint32_t id, EventKind kind, std::uint32_t core, int block, std::int64_t startNs, std::int64_t endNs) {
    Event e;
    e.id = id;
    e.kind = kind;
    e.core = core;
    e.block = block;
    e.startPs = startNs * 1000;
    e.endPs = endNs * 1000;
    if (kind == EventKind::Transfer) e.path = 0;
    return e;
}

// Block 0: a load (0..100) and a compute (100..300); block 1: two loads (300..400, 300..500) and a compute (500..600).
Trace emulatedTrace() {
    Trace t;
    t.target = "npu";
    t.modelHash = "abc";
    t.paths = {{"load", "", ""}};
    t.events = {event(0, EventKind::Transfer, 0, 0, 0, 100), event(1, EventKind::Compute, 0, 0, 100, 300),
                event(2, EventKind::Transfer, 0, 1, 300, 400), event(3, EventKind::Transfer, 0, 1, 300, 500),
                event(4, EventKind::Compute, 0, 1, 500, 600)};
    return t;
}

// The same program measured: the loads take 125, 80 and 300 ns.
Trace measuredTrace() {
    Trace t = emulatedTrace();
    t.source = Source::Measured;
    t.events = {event(0, EventKind::Transfer, 0, 0, 0, 125), event(1, EventKind::Compute, 0, 0, 125, 325),
                event(2, EventKind::Transfer, 0, 1, 325, 405), event(3, EventKind::Transfer, 0, 1, 325, 625),
                event(4, EventKind::Compute, 0, 1, 625, 725)};
    return t;
}

TEST(TraceCompare, ErrorsPerEventBlockAndTotal) {
    auto c = compareTraces(emulatedTrace(), measuredTrace());
    ASSERT_TRUE(c.ok()) << c.diagnostics().front().toString();
    EXPECT_EQ(c->matched, 5u);
    EXPECT_TRUE(c->warnings.empty());
    EXPECT_EQ(c->totalEmulatedPs, 600000);
    EXPECT_EQ(c->totalMeasuredPs, 725000);
    EXPECT_DOUBLE_EQ(c->totalError, (600.0 - 725.0) / 725.0);
    ASSERT_EQ(c->events.size(), 5u);
    EXPECT_DOUBLE_EQ(c->events[0].error, (100.0 - 125.0) / 125.0);
    EXPECT_DOUBLE_EQ(c->events[2].error, (100.0 - 80.0) / 80.0);
    // |errors| of the transfers: 0.2, 0.25, 1/3 -> median 0.25.
    EXPECT_DOUBLE_EQ(c->transferMedianAbsError, 0.25);
    EXPECT_EQ(c->compared[static_cast<int>(EventKind::Transfer)], 3u);
    EXPECT_DOUBLE_EQ(c->medianAbsError[static_cast<int>(EventKind::Compute)], 0.0);
    ASSERT_EQ(c->blocks.size(), 2u);
    EXPECT_EQ(c->blocks[0].emulatedPs, 300000);
    EXPECT_EQ(c->blocks[0].measuredPs, 325000);
    EXPECT_DOUBLE_EQ(c->blocks[1].error, (300.0 - 400.0) / 400.0);
}

TEST(TraceCompare, EvenCountMedianAveragesTheMiddleTwo) {
    Trace m = measuredTrace();
    m.events.erase(m.events.begin() + 3); // transfers left: 0.2, 0.25
    auto c = compareTraces(emulatedTrace(), m);
    ASSERT_TRUE(c.ok());
    EXPECT_DOUBLE_EQ(c->transferMedianAbsError, 0.225);
    EXPECT_EQ(c->emulatedOnly, 1u);
    ASSERT_EQ(c->warnings.size(), 1u);
    EXPECT_EQ(c->warnings[0].message, "4 ids matched; 1 events only in the first trace, 0 only in the second");
}

TEST(TraceCompare, DifferentModelsAreAnErrorUnlessForced) {
    Trace m = measuredTrace();
    m.modelHash = "def";
    auto c = compareTraces(emulatedTrace(), m);
    ASSERT_FALSE(c.ok());
    EXPECT_NE(c.diagnostics().front().message.find("the traces are of different models"), std::string::npos);
    EXPECT_NE(c.diagnostics().front().message.find("--force"), std::string::npos);
    auto forced = compareTraces(emulatedTrace(), m, {.allowModelMismatch = true});
    ASSERT_TRUE(forced.ok());
    EXPECT_EQ(forced->warnings.size(), 1u);
}

TEST(TraceCompare, DifferentTargetsAreAWarningWithTheMatchCount) {
    Trace m = measuredTrace();
    m.target = "npu-rev2";
    auto c = compareTraces(emulatedTrace(), m);
    ASSERT_TRUE(c.ok());
    ASSERT_EQ(c->warnings.size(), 1u);
    EXPECT_EQ(c->warnings[0].message, "the traces name different targets ('npu' and 'npu-rev2'); 5 of 5 ids matched");
}

TEST(TraceCompare, NoCommonIds) {
    Trace m = measuredTrace();
    for (Event& e : m.events) e.id += 100;
    auto c = compareTraces(emulatedTrace(), m);
    ASSERT_FALSE(c.ok());
    EXPECT_EQ(c.diagnostics().front().message, "no event ids in common (5 and 5 events): the traces are not of the same program");
}

TEST(TraceCompare, SameIdDifferentInstruction) {
    Trace m = measuredTrace();
    m.events[1].kind = EventKind::Wait;
    auto c = compareTraces(emulatedTrace(), m);
    ASSERT_FALSE(c.ok());
    EXPECT_EQ(c.diagnostics().front().message,
              "i000001 is a compute on core 0 in the first trace but a wait on core 0 in the second: the traces are not of "
              "the same program");
}

TEST(TraceCompare, ZeroMeasuredDurationIsLeftOutOfTheMedian) {
    Trace m = measuredTrace();
    m.events[0].endPs = m.events[0].startPs;
    auto c = compareTraces(emulatedTrace(), m);
    ASSERT_TRUE(c.ok());
    EXPECT_EQ(c->compared[static_cast<int>(EventKind::Transfer)], 2u);
    EXPECT_DOUBLE_EQ(c->events[0].error, 0.0);
}

} // namespace
} // namespace strata::trace
