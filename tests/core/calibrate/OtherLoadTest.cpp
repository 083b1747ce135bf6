// How busy the rest of the machine was while calibrating: /proc parsing on hand-made lines and
// the share of the CPUs other work took.

#include "calibrate/OtherLoad.h"

#include <gtest/gtest.h>

namespace strata::calibrate {
namespace {

TEST(OtherLoad, ParsesProcStatsCpuLine) {
    // user nice system idle iowait irq softirq steal guest guest_nice
    const auto ticks = parseProcStat("cpu  100 40 20 500 10 1 2 3 0 0");
    ASSERT_TRUE(ticks);
    EXPECT_DOUBLE_EQ(ticks->total, 676);
    EXPECT_DOUBLE_EQ(ticks->busy, 166); // idle and iowait left out
    EXPECT_FALSE(parseProcStat("cpu0 1 2 3 4 5 6 7 8"));
    EXPECT_FALSE(parseProcStat("cpu  1 2 3"));
    EXPECT_FALSE(parseProcStat(""));
}

TEST(OtherLoad, ParsesSelfStatAfterANameWithSpacesAndParentheses) {
    // pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime
    EXPECT_EQ(
        parseSelfStatTicks("42 (strata cli (x)) R 1 42 42 0 -1 4194304 10 0 0 0 250 30 0 0 20 0"),
        280.0);
    EXPECT_FALSE(parseSelfStatTicks("42 strata R 1"));
    EXPECT_FALSE(parseSelfStatTicks("42 (strata) R 1 2"));
}

TEST(OtherLoadShare, IsWhatTheRestOfTheMachineTookOfEveryCpu) {
    // 1,000 ticks over all CPUs: 700 busy, 300 of them this process's: others took 40%.
    const CpuTicks before{10'000, 4'000, 100};
    const CpuTicks after{11'000, 4'700, 400};
    EXPECT_DOUBLE_EQ(*otherLoadShare(before, after), 0.4);
    // This process alone: nothing else ran.
    EXPECT_DOUBLE_EQ(*otherLoadShare(before, {11'000, 4'300, 400}), 0.0);
    EXPECT_FALSE(otherLoadShare(before, before));
}

TEST(OtherLoad, ReadsThisMachine) {
    // Linux only: the CI and development machines are; elsewhere nothing is claimed.
    const auto ticks = cpuTicksNow();
#ifdef __linux__
    ASSERT_TRUE(ticks);
    EXPECT_GT(ticks->total, 0);
    EXPECT_GE(ticks->busy, ticks->self);
#else
    (void)ticks;
#endif
}

TEST(OtherLoad, ABusyMachineIsAWarningNamingTheShareAndWhatItMeans) {
    EXPECT_EQ(busyMachineWarning(std::nullopt, "the run", "x"), "");
    EXPECT_EQ(busyMachineWarning(kBusyMachineShare, "the run", "x"), "");
    const std::string busy =
        busyMachineWarning(0.5, "the run", "the measured times are likely slower");
    EXPECT_NE(busy.find("other work took 50% of the CPUs while the run measured"),
              std::string::npos)
        << busy;
    EXPECT_NE(busy.find("; the measured times are likely slower"), std::string::npos) << busy;
}

} // namespace
} // namespace strata::calibrate
