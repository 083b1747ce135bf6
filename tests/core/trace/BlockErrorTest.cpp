// Per-block prediction error on two hand-made timelines (one core, times in ns):
//   predicted: block 0 [0, 100]; block 1 [100, 150] and [120, 200]; block 2 [200, 260];
//              block 3 [260, 300]
//   measured:  block 0 [0, 80]; block 1 [80, 130]; block 3 [130, 130]; block 4 [130, 170]
// Spans: block 0 100 vs 80, block 1 100 vs 50, block 3 40 vs 0; blocks 2 and 4 are in one run
// only.

#include "trace/BlockError.h"

#include <gtest/gtest.h>
#include <initializer_list>
#include <tuple>

namespace strata::trace {
namespace {

constexpr std::int64_t kNs = 1000;

Trace timeline(Source source,
               std::initializer_list<std::tuple<int, std::int64_t, std::int64_t>> computes) {
    Trace t;
    t.source = source;
    for (const auto& [block, start, end] : computes) {
        Event e;
        e.id = static_cast<std::uint32_t>(t.events.size());
        e.kind = EventKind::Compute;
        e.source = source;
        e.block = block;
        e.startPs = start * kNs;
        e.endPs = end * kNs;
        t.events.push_back(e);
    }
    return t;
}

TEST(BlockError, RelativeToTheMeasuredSpanForBlocksInBothRuns) {
    const Trace predicted =
        timeline(Source::Emulated,
                 {{0, 0, 100}, {1, 100, 150}, {1, 120, 200}, {2, 200, 260}, {3, 260, 300}});
    const Trace measured =
        timeline(Source::Measured, {{0, 0, 80}, {1, 80, 130}, {3, 130, 130}, {4, 130, 170}});
    const std::vector<BlockError> errors = blockErrors(summarize(predicted), summarize(measured));
    ASSERT_EQ(errors.size(), 3u);
    EXPECT_EQ(errors[0].block, 0);
    EXPECT_EQ(errors[0].predictedPs, 100 * kNs);
    EXPECT_EQ(errors[0].measuredPs, 80 * kNs);
    EXPECT_DOUBLE_EQ(errors[0].error, 0.25); // (100 - 80) / 80: predicted 25% too slow
    EXPECT_EQ(errors[1].block, 1);
    EXPECT_EQ(errors[1].predictedPs, 100 * kNs);
    EXPECT_EQ(errors[1].measuredPs, 50 * kNs);
    EXPECT_DOUBLE_EQ(errors[1].error, 1.0); // (100 - 50) / 50
    EXPECT_EQ(errors[2].block, 3);
    EXPECT_EQ(errors[2].measuredPs, 0);
    EXPECT_DOUBLE_EQ(errors[2].error, 0); // nothing measured to be relative to
}

TEST(BlockError, SwappingTheRunsInvertsTheRatio) {
    const Trace a = timeline(Source::Emulated, {{0, 0, 60}});
    const Trace b = timeline(Source::Measured, {{0, 0, 80}});
    const auto ab = blockErrors(summarize(a), summarize(b));
    const auto ba = blockErrors(summarize(b), summarize(a));
    ASSERT_EQ(ab.size(), 1u);
    ASSERT_EQ(ba.size(), 1u);
    EXPECT_DOUBLE_EQ(ab[0].error, -0.25);   // (60 - 80) / 80
    EXPECT_DOUBLE_EQ(ba[0].error, 1.0 / 3); // (80 - 60) / 60
}

TEST(BlockError, RelativeErrorIsZeroWithoutAMeasuredFigure) {
    EXPECT_DOUBLE_EQ(relativeError(120, 100), 0.2);
    EXPECT_DOUBLE_EQ(relativeError(5, 0), 0);
    EXPECT_DOUBLE_EQ(relativeError(5, -1), 0);
}

} // namespace
} // namespace strata::trace
