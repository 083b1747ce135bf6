// The accuracy report's maths on hand-made trace pairs: per-event medians over repeats (not the
// events of the median run), the repeats' spread, quantiles, splits by label and by block, and
// Spearman's rank correlation with ties.

#include "trace/AccuracyReport.h"

#include <cmath>
#include <gtest/gtest.h>

namespace strata::trace {
namespace {

Event event(std::uint32_t id, EventKind kind, std::uint32_t core, int block, std::int64_t startNs,
            std::int64_t endNs) {
    Event e;
    e.id = id;
    e.kind = kind;
    e.core = core;
    e.block = block;
    e.startPs = startNs * 1000;
    e.endPs = endNs * 1000;
    if (kind == EventKind::Transfer)
        e.path = 0;
    return e;
}

// Block 0: a load of 100 ns then a compute of 200; block 1: a load of 100, a compute of 100; a
// barrier of 10 after them on core 0.
Trace emulatedTrace() {
    Trace t;
    t.target = "host";
    t.paths = {{"load", "", ""}};
    t.events = {
        event(0, EventKind::Transfer, 0, 0, 0, 100), event(1, EventKind::Compute, 0, 0, 100, 300),
        event(2, EventKind::Transfer, 0, 1, 300, 400), event(3, EventKind::Compute, 0, 1, 400, 500),
        event(4, EventKind::Barrier, 0, -1, 500, 510)};
    return t;
}

// A measured repeat: the loads take `load0` and `load2` ns, the computes `compute` ns each.
Trace measured(std::int64_t load0, std::int64_t compute, std::int64_t load2) {
    Trace t = emulatedTrace();
    t.source = Source::Measured;
    std::int64_t at = 0;
    auto next = [&](std::uint32_t id, EventKind kind, int block, std::int64_t ns) {
        Event e = event(id, kind, 0, block, at, at + ns);
        at += ns;
        return e;
    };
    t.events.clear();
    t.events.push_back(next(0, EventKind::Transfer, 0, load0));
    t.events.push_back(next(1, EventKind::Compute, 0, compute));
    t.events.push_back(next(2, EventKind::Transfer, 1, load2));
    t.events.push_back(next(3, EventKind::Compute, 1, compute));
    t.events.push_back(next(4, EventKind::Barrier, -1, 20));
    return t;
}

TEST(AccuracyReport, QuantilesInterpolateBetweenOrderStatistics) {
    EXPECT_DOUBLE_EQ(quantile({}, 0.5), 0.0);
    EXPECT_DOUBLE_EQ(quantile({3, 1, 2}, 0.5), 2.0);
    EXPECT_DOUBLE_EQ(quantile({4, 1, 3, 2}, 0.5), 2.5);
    EXPECT_DOUBLE_EQ(quantile({0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100}, 0.9), 90.0);
    EXPECT_DOUBLE_EQ(quantile({0, 10}, 0.25), 2.5);
}

TEST(AccuracyReport, PerEventMediansComeFromEveryRepeatNotTheMedianRun) {
    // The repeats' totals are 520, 660 and 820: the median run is the second, whose first load
    // took 200. Event 0's median over the repeats is 100 (100, 200, 100).
    const std::vector<Trace> repeats = {measured(100, 150, 100), measured(200, 150, 140),
                                        measured(100, 150, 400)};
    auto r = accuracyReport(emulatedTrace(), repeats);
    ASSERT_TRUE(r.ok()) << r.diagnostics().front().toString();
    EXPECT_EQ(r->repeats, 3u);
    ASSERT_EQ(r->measuredTotalsPs.size(), 3u);
    EXPECT_DOUBLE_EQ(r->measuredTotalPs, 660000.0); // 200 + 150 + 140 + 150 + 20
    EXPECT_EQ(r->emulatedTotalPs, 510000);
    EXPECT_DOUBLE_EQ(r->totalError, (510.0 - 660.0) / 660.0);
    // Totals 520, 660, 820: quartiles 590 and 740.
    EXPECT_NEAR(r->totalSpread, (740.0 - 590.0) / 660.0, 1e-12);
    // Load 0: median 100 -> error 0; load 2: median 140 -> |100/140 - 1|.
    EXPECT_EQ(r->transfers, 2u);
    EXPECT_DOUBLE_EQ(r->transferMedianAbsError, (0 + 40.0 / 140.0) / 2);
    EXPECT_DOUBLE_EQ(r->transferP90AbsError, 0.9 * 40.0 / 140.0);
    // Computes: 200 and 100 predicted against 150: |errors| 1/3 and 1/3.
    EXPECT_EQ(r->computes, 2u);
    EXPECT_NEAR(r->computeMedianAbsError, 1.0 / 3.0, 1e-12);
    // The pairs themselves, computes and transfers in trace order (not the barrier).
    ASSERT_EQ(r->events.size(), 4u);
    EXPECT_EQ(r->events[2].event, 2u);
    EXPECT_DOUBLE_EQ(r->events[2].emulatedPs, 100000.0);
    EXPECT_DOUBLE_EQ(r->events[2].measuredPs, 140000.0);
    EXPECT_DOUBLE_EQ(r->events[1].measuredPs, 150000.0);
}

TEST(AccuracyReport, SplitsByLabelAndBlockWithBarriersInTheBlockBeforeThem) {
    const std::vector<Trace> repeats = {measured(100, 150, 50), measured(100, 150, 50)};
    const EventLabels labels = {"load/weight", "conv", "load/other", "reduction", ""};
    auto r = accuracyReport(emulatedTrace(), repeats, labels);
    ASSERT_TRUE(r.ok()) << r.diagnostics().front().toString();
    ASSERT_EQ(r->computeGroups.size(), 2u);
    // Equal measured time: the order of the labels is kept (conv before reduction in the map).
    EXPECT_EQ(r->computeGroups[0].label, "conv");
    EXPECT_DOUBLE_EQ(r->computeGroups[0].error, (200.0 - 150.0) / 150.0);
    EXPECT_EQ(r->computeGroups[1].label, "reduction");
    EXPECT_DOUBLE_EQ(r->computeGroups[1].error, (100.0 - 150.0) / 150.0);
    ASSERT_EQ(r->transferGroups.size(), 2u);
    EXPECT_EQ(r->transferGroups[0].label, "load/weight"); // 100 measured before load/other's 50
    EXPECT_DOUBLE_EQ(r->transferGroups[0].error, 0.0);
    EXPECT_DOUBLE_EQ(r->transferGroups[1].error, 1.0);
    EXPECT_EQ(r->transferGroups[1].events, 1u);

    ASSERT_EQ(r->blocks.size(), 2u);
    const BlockAccuracy& b1 = r->blocks[1];
    EXPECT_EQ(b1.block, 1);
    EXPECT_DOUBLE_EQ(b1.emulated.transferPs, 100000.0);
    EXPECT_DOUBLE_EQ(b1.measured.transferPs, 50000.0);
    EXPECT_DOUBLE_EQ(b1.emulated.computePs, 100000.0);
    EXPECT_DOUBLE_EQ(b1.measured.computePs, 150000.0);
    EXPECT_DOUBLE_EQ(b1.emulated.barrierPs, 10000.0); // the barrier follows block 1 on core 0
    EXPECT_DOUBLE_EQ(b1.measured.barrierPs, 20000.0);
    EXPECT_DOUBLE_EQ(r->blocks[0].measured.barrierPs, 0.0);
    EXPECT_EQ(b1.emulatedSpanPs, 200000);
    EXPECT_DOUBLE_EQ(b1.measuredSpanPs, 200000.0);
}

TEST(AccuracyReport, UnlabelledEventsFallBackToPathAndKind) {
    auto r = accuracyReport(emulatedTrace(), {measured(100, 200, 100)});
    ASSERT_TRUE(r.ok());
    ASSERT_EQ(r->transferGroups.size(), 1u);
    EXPECT_EQ(r->transferGroups[0].label, "load");
    ASSERT_EQ(r->computeGroups.size(), 1u);
    EXPECT_EQ(r->computeGroups[0].label, "compute");
    EXPECT_EQ(r->computeGroups[0].events, 2u);
}

TEST(AccuracyReport, RefusesNoRepeatsAndAnotherProgram) {
    EXPECT_FALSE(accuracyReport(emulatedTrace(), {}).ok());
    Trace other = measured(100, 100, 100);
    other.events[1].core = 1; // instruction 1 ran on another core: not the same program
    auto r = accuracyReport(emulatedTrace(), {measured(100, 100, 100), other});
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.diagnostics().front().message.find("not of the same program"), std::string::npos);
}

TEST(AccuracyReport, IdleShareIsTheBusiestStreamsTimeBetweenEvents) {
    // Contiguous events: no idle time in either trace.
    auto tight = accuracyReport(emulatedTrace(), {measured(100, 150, 100)});
    ASSERT_TRUE(tight.ok());
    EXPECT_DOUBLE_EQ(tight->emulatedIdleShare, 0.0);
    EXPECT_DOUBLE_EQ(tight->measuredIdleShare, 0.0);
    // The measured stream stalls 480 ns before its barrier (the thread did not run): the total is
    // 1,000 ns of which 520 are events.
    Trace stalled = measured(100, 150, 100);
    stalled.events.back().startPs += 480000;
    stalled.events.back().endPs += 480000;
    auto r = accuracyReport(emulatedTrace(), {stalled});
    ASSERT_TRUE(r.ok());
    EXPECT_DOUBLE_EQ(r->measuredTotalPs, 1000000.0);
    EXPECT_NEAR(r->measuredIdleShare, 0.48, 1e-12);
    EXPECT_DOUBLE_EQ(r->emulatedIdleShare, 0.0);
}

TEST(AccuracyReport, CorePaceIsEachCoresMeasuredWorkOverItsPrediction) {
    // Two cores, each a load of 100 ns and a compute of 200, then a barrier. Measured, core 0's
    // take 110 and 220 (1.1x), core 1's 150 and 300 (1.5x); the barriers (any length) do not
    // count.
    auto twoCores = [](std::int64_t load0, std::int64_t compute0, std::int64_t load1,
                       std::int64_t compute1, Source source) {
        Trace t;
        t.source = source;
        t.paths = {{"load", "", ""}};
        t.cores = 2;
        t.events = {event(0, EventKind::Transfer, 0, 0, 0, load0),
                    event(1, EventKind::Compute, 0, 0, load0, load0 + compute0),
                    event(2, EventKind::Transfer, 1, 0, 0, load1),
                    event(3, EventKind::Compute, 1, 0, load1, load1 + compute1),
                    event(4, EventKind::Barrier, 0, -1, 450, 500),
                    event(5, EventKind::Barrier, 1, -1, 450, 460)};
        return t;
    };
    const Trace predicted = twoCores(100, 200, 100, 200, Source::Emulated);
    auto r = accuracyReport(predicted, {twoCores(110, 220, 150, 300, Source::Measured)});
    ASSERT_TRUE(r.ok());
    ASSERT_EQ(r->corePace.size(), 2u);
    EXPECT_NEAR(r->corePace[0], 1.1, 1e-12);
    EXPECT_NEAR(r->corePace[1], 1.5, 1e-12);
    EXPECT_NEAR(corePaceSpread(r->corePace), 1.5 / 1.1 - 1, 1e-12);
    // Both cores 1.3x off: the model's error, not the cores' pace.
    auto even = accuracyReport(predicted, {twoCores(130, 260, 130, 260, Source::Measured)});
    ASSERT_TRUE(even.ok());
    EXPECT_NEAR(corePaceSpread(even->corePace), 0.0, 1e-12);
    // One core: nothing to compare.
    auto one = accuracyReport(emulatedTrace(), {measured(100, 150, 100)});
    ASSERT_TRUE(one.ok());
    EXPECT_EQ(one->corePace.size(), 1u);
    EXPECT_EQ(corePaceSpread(one->corePace), 0.0);
    EXPECT_EQ(corePaceSpread({}), 0.0);
}

TEST(AccuracyReport, AverageRanksShareTies) {
    const std::vector<double> ranks = averageRanks({10, 20, 20, 5, 20});
    EXPECT_EQ(ranks, (std::vector<double>{2, 4, 4, 1, 4}));
}

TEST(AccuracyReport, SpearmanWithTies) {
    EXPECT_DOUBLE_EQ(spearman({1, 2, 3, 4}, {10, 20, 30, 40}), 1.0);
    EXPECT_DOUBLE_EQ(spearman({1, 2, 3, 4}, {4, 3, 2, 1}), -1.0);
    // Ranks a = (1, 2.5, 2.5, 4), b = (1, 2, 3, 4): Pearson of the ranks = 4.5 / sqrt(4.5 * 5).
    EXPECT_NEAR(spearman({1, 2, 2, 3}, {1, 2, 3, 4}), 4.5 / std::sqrt(4.5 * 5.0), 1e-12);
    // A monotone but non-linear relation ranks perfectly.
    EXPECT_DOUBLE_EQ(spearman({1, 2, 3, 4, 5}, {1, 8, 27, 64, 1000}), 1.0);
    // Undefined: every value tied on one side, too few values, sizes differ.
    EXPECT_TRUE(std::isnan(spearman({1, 1, 1}, {1, 2, 3})));
    EXPECT_TRUE(std::isnan(spearman({1}, {1})));
    EXPECT_TRUE(std::isnan(spearman({1, 2}, {1, 2, 3})));
}

TEST(AccuracyReport, MedianDurationsPerEventMatchEventsById) {
    // Calibration's path (core/calibrate): each event's median over rounds, matched by id. The
    // second round is missing the last load and has its events in another order; the slow round
    // (a preempted first load of 900) does not pick the figures.
    Trace slow = measured(900, 150, 100);
    Trace shuffled = measured(120, 170, 130);
    std::swap(shuffled.events[0], shuffled.events[3]);
    shuffled.events.erase(shuffled.events.begin() + 2); // id 2, the second load
    const std::vector<Trace> rounds = {measured(100, 160, 110), shuffled, slow};
    const std::vector<double> medians = medianDurationsPs(rounds.front(), rounds);
    ASSERT_EQ(medians.size(), 5u);
    EXPECT_DOUBLE_EQ(medians[0], 120e3);               // 100, 120, 900
    EXPECT_DOUBLE_EQ(medians[1], 160e3);               // 160, 170, 150
    EXPECT_DOUBLE_EQ(medians[2], (110e3 + 100e3) / 2); // two rounds have it
    EXPECT_DOUBLE_EQ(medians[4], 20e3);
    Trace other = emulatedTrace();
    other.events[0].id = 99; // in no round
    EXPECT_DOUBLE_EQ(medianDurationsPs(other, rounds)[0], 0.0);
}

} // namespace
} // namespace strata::trace
