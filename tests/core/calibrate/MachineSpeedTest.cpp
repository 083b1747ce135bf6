// The speed check: which core count's check prices a schedule, medians over checks, the warning
// a user gets, and the programs running on this machine. No timing is asserted: the run here only
// has to give each core count a time.

#include "calibrate/MachineSpeed.h"

#include "target/TargetLoader.h"

#include <gtest/gtest.h>
#include <set>

namespace strata::calibrate {
namespace {

TEST(MachineSpeed, ASchedulesSpeedIsTheCheckOnTheMostCoresNotAboveItsOwn) {
    const SpeedTimes calibrated{{1, 2.0e6}, {4, 3.0e6}};
    const SpeedTimes now{{1, 1.0e6}, {4, 6.0e6}};
    EXPECT_DOUBLE_EQ(speedRatio(calibrated, now, 1), 2.0); // faster now on one core
    EXPECT_DOUBLE_EQ(speedRatio(calibrated, now, 2), 2.0); // no check on 2: one core's
    EXPECT_DOUBLE_EQ(speedRatio(calibrated, now, 4), 0.5); // slower on every core
    EXPECT_DOUBLE_EQ(speedRatio(calibrated, now, 8), 0.5);
    EXPECT_EQ(speedRatio(calibrated, now, 0), 0); // no check on that few cores
    EXPECT_EQ(speedRatio({}, now, 1), 0);         // a calibration without checks
    EXPECT_EQ(speedRatio(calibrated, {}, 1), 0);
    EXPECT_EQ(speedRatio({{1, 2.0e6}}, {{1, 0.0}}, 1), 0); // no time is no speed
}

TEST(MachineSpeed, MediansPerCoreCountOverChecks) {
    const SpeedTimes m = medianTimes(
        {{{1, 5.0}, {2, 10.0}}, {{1, 1.0}, {2, 30.0}}, {{1, 3.0}, {2, 20.0}}, {{1, 4.0}}});
    EXPECT_EQ(m, (SpeedTimes{{1, 3.5}, {2, 20.0}}));
    EXPECT_TRUE(medianTimes({}).empty());
}

TEST(MachineSpeed, WarnsOnlyWhenACoreCountsSpeedMovedPastTheMargin) {
    const SpeedTimes calibrated{{1, 1.0e6}, {2, 1.0e6}};
    EXPECT_EQ(speedChangeWarning(calibrated, {{1, 1.05e6}, {2, 0.95e6}}, "x", "y"), "");
    EXPECT_EQ(speedChangeWarning(calibrated, {{1, 1.12e6}}, "x", "y"), ""); // within the margin
    const std::string slowTwo =
        speedChangeWarning(calibrated, {{1, 1.0e6}, {2, 1.6e6}},
                           "while this model's runs were measured", "recalibrate");
    EXPECT_NE(slowTwo.find("1.00x on one core, 0.62x on 2 cores"), std::string::npos) << slowTwo;
    EXPECT_NE(slowTwo.find("while this model's runs were measured"), std::string::npos) << slowTwo;
    EXPECT_EQ(slowTwo.substr(slowTwo.size() - 11), "recalibrate");
    EXPECT_NE(speedChangeWarning(calibrated, {{1, 0.8e6}}, "x", "y"), ""); // faster counts too
    EXPECT_EQ(speedChangeWarning({}, {{1, 9.0e6}}, "x", "y"), "");         // nothing to compare
    EXPECT_EQ(speedText({}, {{1, 1.0}}), "unknown");
}

TEST(MachineSpeed, CalibrationWarnsWhenItsRoundsChecksSpreadPastTheMargin) {
    const std::vector<SpeedTimes> steady{
        {{1, 1.30e6}, {2, 1.40e6}}, {{1, 1.40e6}, {2, 1.35e6}}, {{1, 1.32e6}}};
    EXPECT_EQ(unsteadySpeedWarning(steady, "re-run"), ""); // 1.08x and 1.04x apart
    const std::vector<SpeedTimes> slowSpell{
        {{1, 1.31e6}, {2, 1.35e6}}, {{1, 2.27e6}, {2, 1.40e6}}, {{1, 1.36e6}, {2, 1.38e6}}};
    const std::string warning = unsteadySpeedWarning(slowSpell, "re-run");
    EXPECT_NE(warning.find("took 1.31-2.27 ms on one core, 1.35-1.40 ms on 2 cores"),
              std::string::npos)
        << warning;
    EXPECT_EQ(warning.substr(warning.size() - 6), "re-run");
    EXPECT_NE(unsteadySpeedWarning({{{2, 1.0e6}}, {{2, 1.2e6}}}, "x"), ""); // 2 cores alone
    EXPECT_EQ(unsteadySpeedWarning({{{1, 1.0e6}}}, "x"), "");               // one check
    EXPECT_EQ(unsteadySpeedWarning({{{1, 0.0}}, {{1, 1.0e6}}}, "x"), "");   // no time: ignored
    EXPECT_EQ(unsteadySpeedWarning({}, "x"), "");
}

TEST(MachineSpeed, OfFiveChecksOrMoreTheFastestAndSlowestAreSetAside) {
    // Six rounds, one caught by a preemption and one fast: steady.
    std::vector<SpeedTimes> rounds;
    for (double ms : {1.40, 1.42, 1.98, 1.45, 1.20, 1.44})
        rounds.push_back({{1, ms * 1e6}});
    EXPECT_EQ(unsteadySpeedWarning(rounds, "x"), "");
    // Two slow rounds of six: the second slowest is slow too.
    rounds[3] = {{1, 1.90e6}};
    const std::string warning = unsteadySpeedWarning(rounds, "x");
    EXPECT_NE(warning.find("took 1.40-1.90 ms on one core"), std::string::npos) << warning;
    // Four checks: all count.
    rounds.resize(4);
    EXPECT_NE(unsteadySpeedWarning(rounds, "x").find("took 1.40-1.98 ms"), std::string::npos);
}

TEST(MachineSpeed, ChecksRunOnOneCoreAndOnEveryCoreOfThisMachine) {
    auto host = target::resolveTarget("host-uncalibrated");
    ASSERT_TRUE(host.ok());
    auto check = SpeedCheck::prepare(*host);
    ASSERT_TRUE(check.ok()) << check.diagnostics().front().message;
    auto times = check->measure();
    ASSERT_TRUE(times.ok()) << times.diagnostics().front().message;
    std::set<int> cores;
    for (const auto& [count, ns] : *times) {
        cores.insert(count);
        EXPECT_GT(ns, 0) << count;
    }
    const std::set<int> expected =
        host->cores() > 1 ? std::set<int>{1, host->cores()} : std::set<int>{1};
    EXPECT_EQ(cores, expected);
}

} // namespace
} // namespace strata::calibrate
