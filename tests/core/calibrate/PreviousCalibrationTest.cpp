// A calibration compared with the one it replaces (calibrate::changesSincePrevious): row costs
// 2x or bandwidths 1.5x apart on the same machine are told, path by path; another machine's or
// an uncalibrated target's figures are not compared.

#include "calibrate/PreviousCalibration.h"

#include <gtest/gtest.h>

namespace strata::calibrate {
namespace {

// The load path with these figures.
target::Target calibrated(double rowCycles, double bytesPerCycle) {
    target::Target t;
    t.name = "host";
    t.calibrated = true;
    t.calibration = target::CalibrationStamp{"AMD EPYC", 2, "2026-11-28T00:20:00Z"};
    target::TransferPath load;
    load.name = "load";
    load.rowOverheadCycles = rowCycles;
    load.bytesPerCycle = bytesPerCycle;
    target::TransferPath store; // the same in every calibration here
    store.name = "store";
    store.rowOverheadCycles = 6;
    store.bytesPerCycle = 36;
    t.paths = {load, store};
    return t;
}

TEST(PreviousCalibration, CloseFiguresSayNothing) {
    EXPECT_TRUE(changesSincePrevious(calibrated(6, 24), calibrated(7.5, 20)).empty());
    EXPECT_TRUE(changesSincePrevious(calibrated(6, 24), calibrated(6, 24)).empty());
}

TEST(PreviousCalibration, RowCostsTwiceApartAreToldEitherWay) {
    for (const auto& [before, now] : {std::pair{6.0, 26.0}, std::pair{26.0, 6.0}}) {
        const auto changes = changesSincePrevious(calibrated(before, 24), calibrated(now, 24));
        ASSERT_EQ(changes.size(), 1u);
        EXPECT_NE(changes[0].find("'load' path"), std::string::npos) << changes[0];
        const std::string figures =
            now > before ? "26.0 cycles against 6.0" : "6.0 cycles against 26.0";
        EXPECT_NE(changes[0].find(figures), std::string::npos) << changes[0];
        EXPECT_NE(changes[0].find("2026-11-28T00:20:00Z"), std::string::npos) << changes[0];
    }
}

TEST(PreviousCalibration, BandwidthsOneAndAHalfApartAreTold) {
    const auto changes = changesSincePrevious(calibrated(6, 24), calibrated(6, 14));
    ASSERT_EQ(changes.size(), 1u);
    EXPECT_NE(changes[0].find("14.0 bytes/cycle against 24.0"), std::string::npos) << changes[0];
}

TEST(PreviousCalibration, AnotherMachineOrNoCalibrationIsNotCompared) {
    target::Target other = calibrated(6, 24);
    other.calibration->cores = 4;
    EXPECT_TRUE(changesSincePrevious(other, calibrated(26, 12)).empty());
    target::Target preset = calibrated(6, 24);
    preset.calibrated = false;
    EXPECT_TRUE(changesSincePrevious(preset, calibrated(26, 12)).empty());
    target::Target unstamped = calibrated(6, 24);
    unstamped.calibration.reset();
    EXPECT_TRUE(changesSincePrevious(unstamped, calibrated(26, 12)).empty());
}

} // namespace
} // namespace strata::calibrate
