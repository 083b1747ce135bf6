// fitTransferWithRamp's spill on synthetic loads made from known figures: past a transfer size
// (the core's cache) the bytes move slower. It must find the spill's start within a step of its
// grid and its rate, keep the ramp before it, and find no spill in loads that have none.

#include "calibrate/Fit.h"

#include <gtest/gtest.h>
#include <random>

namespace strata::calibrate {
namespace {

struct Truth {
    double latency = 300;
    double rampBytes = 0;
    double rampRate = 0;
    double bandwidth = 16;       // B/cycle
    double spillBytes = 1 << 20; // past it:
    double spillRate = 7;        // B/cycle

    double cycles(double bytes) const {
        double t = latency + bytes / bandwidth;
        if (rampBytes > 0)
            t += std::min(bytes, rampBytes) * (1 / rampRate - 1 / bandwidth);
        if (spillBytes > 0 && bytes > spillBytes)
            t += (bytes - spillBytes) * (1 / spillRate - 1 / bandwidth);
        return t;
    }
};

// Contiguous loads of 64 B .. 16 MiB in steps of 2, 3 repeats each, +-`noise` uniform.
std::vector<TransferSample> loads(const Truth& truth, double noise) {
    std::mt19937 engine(34);
    std::uniform_real_distribution<double> uniform(-noise, noise);
    std::vector<TransferSample> out;
    for (double bytes = 64; bytes <= double(16 << 20); bytes *= 2)
        for (int r = 0; r < 3; ++r)
            out.push_back({bytes, truth.cycles(bytes) * (1 + uniform(engine))});
    return out;
}

TEST(SpillFit, ExactLoadsGiveTheSpillBack) {
    const Truth truth;
    const TransferFit fit = fitTransferWithRamp(loads(truth, 0));
    EXPECT_EQ(fit.spillBytes, truth.spillBytes);
    EXPECT_NEAR(fit.spillBytesPerCycle, truth.spillRate, 1e-6);
    EXPECT_NEAR(fit.bytesPerCycle, truth.bandwidth, 1e-6);
    EXPECT_NEAR(fit.latencyCycles, truth.latency, 1e-3);
    EXPECT_EQ(fit.rampBytes, 0);
    EXPECT_LT(fit.shapeRmsRelativeError, 1e-9);
}

TEST(SpillFit, NoisyLoadsWithARampGiveBothBack) {
    Truth truth;
    truth.rampBytes = 16384;
    truth.rampRate = 4;
    const TransferFit fit = fitTransferWithRamp(loads(truth, 0.05));
    EXPECT_GE(fit.spillBytes, truth.spillBytes / 2);
    EXPECT_LE(fit.spillBytes, truth.spillBytes * 2);
    EXPECT_NEAR(fit.spillBytesPerCycle, truth.spillRate, 0.15 * truth.spillRate);
    EXPECT_NEAR(fit.bytesPerCycle, truth.bandwidth, 0.15 * truth.bandwidth);
    EXPECT_GE(fit.rampBytes, truth.rampBytes / 1.42);
    EXPECT_LE(fit.rampBytes, truth.rampBytes * 1.42);
}

TEST(SpillFit, NoSpillInLoadsWithoutOne) {
    Truth truth;
    truth.spillBytes = 0;
    const TransferFit fit = fitTransferWithRamp(loads(truth, 0.05));
    EXPECT_EQ(fit.spillBytes, 0);
    EXPECT_NEAR(fit.bytesPerCycle, truth.bandwidth, 0.05 * truth.bandwidth);
}

TEST(SpillFit, NoSpillWithTooFewShapesPastIt) {
    // Loads up to 2 MiB: two sizes past a spill at 1 MiB, fewer than kMinShapesPerSegment.
    std::vector<TransferSample> few;
    for (const TransferSample& s : loads(Truth{}, 0))
        if (s.bytes <= double(2 << 20))
            few.push_back(s);
    EXPECT_EQ(fitTransferWithRamp(few).spillBytes, 0);
}

} // namespace
} // namespace strata::calibrate
