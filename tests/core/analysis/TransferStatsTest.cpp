// The Transfers tab's maths on hand-made traces: size bins, throughput per bin, the harmonic
// sequential ideal, matching by id, histograms with out-of-range counts, quantiles, block errors.

#include "analysis/TransferStats.h"

#include <gtest/gtest.h>

namespace strata::analysis {
namespace {

using trace::Event;
using trace::EventKind;

Event transfer(std::uint32_t id, std::uint16_t path, std::uint64_t bytes, std::int64_t start, std::int64_t end, int block = 0) {
    Event e;
    e.id = id;
    e.kind = EventKind::Transfer;
    e.path = path;
    e.bytes = bytes;
    e.startPs = start;
    e.endPs = end;
    e.block = block;
    return e;
}

Event compute(std::uint32_t id, std::int64_t start, std::int64_t end, int block = 0) {
    Event e;
    e.id = id;
    e.kind = EventKind::Compute;
    e.startPs = start;
    e.endPs = end;
    e.block = block;
    return e;
}

trace::Trace twoPaths() {
    trace::Trace t;
    t.paths = {{"load", "dram", "scratch"}, {"store", "scratch", "dram"}};
    return t;
}

TEST(TransferStats, SizeBinIsFloorLog2) {
    EXPECT_EQ(sizeBin(0), -1);
    EXPECT_EQ(sizeBin(1), 0);
    EXPECT_EQ(sizeBin(2), 1);
    EXPECT_EQ(sizeBin(3), 1);
    EXPECT_EQ(sizeBin(1024), 10);
    EXPECT_EQ(sizeBin(2047), 10);
    EXPECT_EQ(sizeBin(2048), 11);
}

TEST(TransferStats, ThroughputPerBinIsBytesOverSummedDurations) {
    trace::Trace t = twoPaths();
    // load, bin 10: 1024 B in 1000 ps and 1536 B in 3000 ps -> 2560 B / 4000 ps = 0.64 B/ps = 640 GB/s.
    t.events.push_back(transfer(0, 0, 1024, 0, 1000));
    t.events.push_back(transfer(1, 0, 1536, 1000, 4000));
    // load, bin 12: 4096 B in 8192 ps -> 500 GB/s.
    t.events.push_back(transfer(2, 0, 4096, 4000, 12192));
    // store, bin 10: 1024 B in 2000 ps -> 512 GB/s.
    t.events.push_back(transfer(3, 1, 1024, 0, 2000));
    // Left out: zero bytes, zero duration, and computes.
    t.events.push_back(transfer(4, 1, 0, 0, 10));
    t.events.push_back(transfer(5, 1, 64, 5, 5));
    t.events.push_back(compute(6, 0, 100));

    const auto paths = throughputBySize(t);
    ASSERT_EQ(paths.size(), 2u);
    EXPECT_EQ(paths[0].name, "load");
    ASSERT_EQ(paths[0].bins.size(), 2u);
    EXPECT_EQ(paths[0].bins[0].bin, 10);
    EXPECT_DOUBLE_EQ(paths[0].bins[0].meanBytes, 1280);
    EXPECT_DOUBLE_EQ(paths[0].bins[0].gbps, 640);
    EXPECT_EQ(paths[0].bins[0].transfers, 2u);
    EXPECT_EQ(paths[0].bins[1].bin, 12);
    EXPECT_DOUBLE_EQ(paths[0].bins[1].gbps, 500);
    EXPECT_EQ(paths[1].name, "store");
    ASSERT_EQ(paths[1].bins.size(), 1u);
    EXPECT_DOUBLE_EQ(paths[1].bins[0].gbps, 512);
}

TEST(TransferStats, HarmonicMeanIgnoresNonPositiveValues) {
    EXPECT_DOUBLE_EQ(harmonicMean({}), 0);
    EXPECT_DOUBLE_EQ(harmonicMean({0, -1}), 0);
    EXPECT_DOUBLE_EQ(harmonicMean({4}), 4);
    EXPECT_DOUBLE_EQ(harmonicMean({2, 6}), 3);      // 2 / (1/2 + 1/6)
    EXPECT_DOUBLE_EQ(harmonicMean({2, 6, 0}), 3);
}

TEST(TransferStats, SequentialIdealIsTheHarmonicMeanWherePathsMeet) {
    trace::Trace t = twoPaths();
    t.events.push_back(transfer(0, 0, 1024, 0, 1000));  // load bin 10: 1024 GB/s
    t.events.push_back(transfer(1, 1, 1024, 0, 3000));  // store bin 10: 341.33 GB/s
    t.events.push_back(transfer(2, 0, 4096, 0, 4096));  // load bin 12 only: no ideal there
    const auto ideal = sequentialIdeal(throughputBySize(t));
    ASSERT_EQ(ideal.size(), 1u);
    EXPECT_EQ(ideal[0].bin, 10);
    EXPECT_DOUBLE_EQ(ideal[0].meanBytes, 1024);
    // 2 / (1/1024 + 3/1024) = 512.
    EXPECT_DOUBLE_EQ(ideal[0].gbps, 512);
    EXPECT_EQ(ideal[0].transfers, 2u);

    trace::Trace single = twoPaths();
    single.events.push_back(transfer(0, 0, 1024, 0, 1000));
    EXPECT_TRUE(sequentialIdeal(throughputBySize(single)).empty());
}

TEST(TransferStats, MatchesEventsByIdAndKind) {
    trace::Trace predicted = twoPaths(), measured = twoPaths();
    predicted.events = {transfer(0, 1, 256, 0, 3000, 2), compute(1, 0, 1000), compute(2, 0, 500), compute(3, 0, 100)};
    // id 0 took 2 ns measured (predicted 3 ns: +50%), id 1 took 4 ns (predicted 1 ns: -75%),
    // id 2 is a transfer when measured (a different instruction: not matched), id 3 lasted 0.
    measured.events = {compute(1, 0, 4000), transfer(0, 1, 256, 100, 2100), transfer(2, 0, 8, 0, 10), compute(3, 5, 5)};
    const auto matched = matchEvents(predicted, measured);
    ASSERT_EQ(matched.size(), 3u);
    EXPECT_EQ(matched[0].id, 0u);
    EXPECT_EQ(matched[0].kind, EventKind::Transfer);
    EXPECT_EQ(matched[0].path, 1);
    EXPECT_EQ(matched[0].bytes, 256u);
    EXPECT_EQ(matched[0].block, 2);
    EXPECT_DOUBLE_EQ(matched[0].predictedNs, 3);
    EXPECT_DOUBLE_EQ(matched[0].measuredNs, 2);
    EXPECT_DOUBLE_EQ(matched[0].error, 0.5);
    EXPECT_DOUBLE_EQ(matched[1].error, -0.75);
    EXPECT_EQ(matched[2].id, 3u);
    EXPECT_FALSE(matched[2].hasError());

    EXPECT_EQ(relativeErrors(matched, EventKind::Transfer), std::vector<double>{0.5});
    EXPECT_EQ(relativeErrors(matched, EventKind::Compute), std::vector<double>{-0.75}); // id 3 has no error
}

TEST(TransferStats, HistogramCountsEveryValue) {
    const Histogram h = histogram({-2, -1, -0.5, 0, 0.49, 0.5, 0.99, 1, 5}, -1, 1, 4);
    EXPECT_DOUBLE_EQ(h.low, -1);
    EXPECT_DOUBLE_EQ(h.width, 0.5);
    EXPECT_EQ(h.counts, (std::vector<std::size_t>{1, 1, 2, 2}));
    EXPECT_EQ(h.below, 1u);
    EXPECT_EQ(h.above, 2u);             // 1 (the last edge is open) and 5
    EXPECT_DOUBLE_EQ(h.binCentre(0), -0.75);
    EXPECT_DOUBLE_EQ(h.binCentre(3), 0.75);

    const Histogram empty = histogram({-3, 3}, 0, 0, 4);
    EXPECT_TRUE(empty.counts.empty());
    EXPECT_EQ(empty.below, 1u);
    EXPECT_EQ(empty.above, 1u);
}

TEST(TransferStats, QuantileInterpolates) {
    EXPECT_DOUBLE_EQ(quantile({}, 0.5), 0);
    EXPECT_DOUBLE_EQ(quantile({3, 1, 2}, 0.5), 2);
    EXPECT_DOUBLE_EQ(quantile({1, 2, 3, 4}, 0.5), 2.5);
    EXPECT_DOUBLE_EQ(quantile({1, 2, 3, 4}, 0), 1);
    EXPECT_DOUBLE_EQ(quantile({1, 2, 3, 4}, 1), 4);
    EXPECT_DOUBLE_EQ(quantile({0, 10}, 0.25), 2.5);
}

TEST(TransferStats, BlockErrorsSortByLargestError) {
    trace::Trace predicted, measured;
    // Block 0 spans 10 ns predicted, 20 ns measured (-50%); block 1 spans 5 ns both (0%);
    // block 2 spans 30 ns predicted, 10 ns measured (+200%); block 3 is predicted only.
    predicted.events = {compute(0, 0, 10000, 0), compute(1, 10000, 15000, 1), compute(2, 15000, 45000, 2),
                        compute(3, 45000, 46000, 3)};
    measured.events = {compute(0, 0, 20000, 0), compute(1, 20000, 25000, 1), compute(2, 25000, 35000, 2)};
    const auto errors = blockErrors(predicted, measured);
    ASSERT_EQ(errors.size(), 3u);
    EXPECT_EQ(errors[0].block, 2);
    EXPECT_DOUBLE_EQ(errors[0].predictedNs, 30);
    EXPECT_DOUBLE_EQ(errors[0].measuredNs, 10);
    EXPECT_DOUBLE_EQ(errors[0].error, 2);
    EXPECT_EQ(errors[1].block, 0);
    EXPECT_DOUBLE_EQ(errors[1].error, -0.5);
    EXPECT_EQ(errors[2].block, 1);
    EXPECT_DOUBLE_EQ(errors[2].error, 0);
}

} // namespace
} // namespace strata::analysis
