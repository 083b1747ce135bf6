// fitTransferWithRamp on synthetic loads made from known figures (latency, a ramp of R bytes at
// one rate, then the bandwidth), with noise and outliers: it must recover them, and find no
// ramp in loads that have none.

#include "calibrate/Fit.h"

#include <gtest/gtest.h>
#include <random>

namespace strata::calibrate {
namespace {

struct Truth {
    double latency = 200;
    double rampBytes = 32768;
    double rampRate = 4;   // B/cycle
    double bandwidth = 16; // B/cycle
    double rowOverhead = 0;

    double cycles(double bytes, double rows = 1) const {
        const double ramped = std::min(bytes, rampBytes);
        return latency + rows * rowOverhead + ramped / rampRate + (bytes - ramped) / bandwidth;
    }
};

// Contiguous loads of 64 B .. 4 MiB in steps of 2, `repeats` each, with uniform multiplicative
// noise of +-`noise`; every `outlierEvery`-th sample (0: none) 4x slower, a preempted thread.
std::vector<TransferSample> loads(const Truth& truth, double noise, int repeats = 5,
                                  int outlierEvery = 0) {
    std::mt19937 engine(2026);
    std::uniform_real_distribution<double> uniform(-noise, noise);
    std::vector<TransferSample> out;
    int n = 0;
    for (double bytes = 64; bytes <= double(4 << 20); bytes *= 2)
        for (int r = 0; r < repeats; ++r, ++n) {
            const double slow = outlierEvery && n % outlierEvery == 0 ? 4 : 1;
            out.push_back({bytes, slow * truth.cycles(bytes) * (1 + uniform(engine))});
        }
    return out;
}

void expectRecovered(const TransferFit& fit, const Truth& truth) {
    // R within one step of the grid (sqrt 2), the rates within 10%, the latency within 15%.
    EXPECT_GE(fit.rampBytes, truth.rampBytes / 1.42);
    EXPECT_LE(fit.rampBytes, truth.rampBytes * 1.42);
    EXPECT_NEAR(fit.rampBytesPerCycle, truth.rampRate, 0.10 * truth.rampRate);
    EXPECT_NEAR(fit.bytesPerCycle, truth.bandwidth, 0.10 * truth.bandwidth);
    EXPECT_NEAR(fit.latencyCycles, truth.latency, 0.15 * truth.latency);
}

TEST(RampFit, ExactLoadsGiveTheFiguresBack) {
    const Truth truth;
    const TransferFit fit = fitTransferWithRamp(loads(truth, 0, 1));
    EXPECT_EQ(fit.rampBytes, truth.rampBytes);
    EXPECT_NEAR(fit.rampBytesPerCycle, 4, 1e-6);
    EXPECT_NEAR(fit.bytesPerCycle, 16, 1e-6);
    EXPECT_NEAR(fit.latencyCycles, 200, 1e-3);
    EXPECT_LT(fit.rmsRelativeError, 1e-9);
}

TEST(RampFit, RecoversTheFiguresThroughNoiseAndOutliers) {
    const Truth truth;
    expectRecovered(fitTransferWithRamp(loads(truth, 0.05)), truth);
    expectRecovered(fitTransferWithRamp(loads(truth, 0.05, 5, 7)), truth);
    // A longer ramp, a slower start, a shorter latency.
    const Truth other{.latency = 80, .rampBytes = 131072, .rampRate = 6, .bandwidth = 30};
    expectRecovered(fitTransferWithRamp(loads(other, 0.05, 5, 9)), other);
}

TEST(RampFit, BeatsOneLatencyAndOneBandwidth) {
    // The single-segment fit of the same loads is far off at both ends; the ramp's is not.
    const Truth truth;
    const std::vector<TransferSample> samples = loads(truth, 0.05);
    const TransferFit plain = fitTransfer(samples);
    const TransferFit ramp = fitTransferWithRamp(samples);
    EXPECT_EQ(plain.rampBytes, 0);
    EXPECT_LT(ramp.rmsRelativeError, 0.5 * plain.rmsRelativeError);
}

TEST(RampFit, NoRampInLoadsWithoutOne) {
    // One latency and one bandwidth: the ramp gains nothing, none is fitted, and the figures are
    // fitTransfer's.
    const Truth flat{.latency = 300, .rampBytes = 0, .rampRate = 12.5, .bandwidth = 12.5};
    const std::vector<TransferSample> samples = loads(flat, 0.03);
    const TransferFit fit = fitTransferWithRamp(samples);
    const TransferFit plain = fitTransfer(samples);
    EXPECT_EQ(fit.rampBytes, 0);
    EXPECT_EQ(fit.rampBytesPerCycle, 0);
    EXPECT_EQ(fit.latencyCycles, plain.latencyCycles);
    EXPECT_EQ(fit.bytesPerCycle, plain.bytesPerCycle);
}

TEST(RampFit, TooFewShapesOnOneSideFitNoRamp) {
    // Sizes only above the ramp's end: it cannot be told from the latency.
    const Truth truth;
    std::vector<TransferSample> samples;
    for (const TransferSample& s : loads(truth, 0.02))
        if (s.bytes >= 65536)
            samples.push_back(s);
    EXPECT_EQ(fitTransferWithRamp(samples).rampBytes, 0);
}

TEST(RampFit, WithAKnownRowOverhead) {
    // Strided loads (rows of 256 bytes) beside contiguous ones, the row overhead given.
    Truth truth;
    truth.rowOverhead = 10;
    std::vector<TransferSample> samples;
    std::mt19937 engine(7);
    std::uniform_real_distribution<double> uniform(-0.03, 0.03);
    for (double bytes = 64; bytes <= double(4 << 20); bytes *= 2)
        for (double run : {0.0, 256.0}) {
            const double rows = run > 0 && bytes >= 2 * run ? bytes / run : 1;
            for (int r = 0; r < 3; ++r)
                samples.push_back({bytes, truth.cycles(bytes, rows) * (1 + uniform(engine)), rows});
        }
    const TransferFit fit = fitTransferWithRamp(samples, 10);
    EXPECT_EQ(fit.rowOverheadCycles, 10);
    expectRecovered(fit, truth);
}

TEST(RampFit, GridSpansHalfAKibToAMib) {
    const std::vector<double> grid = rampGrid();
    ASSERT_FALSE(grid.empty());
    EXPECT_EQ(grid.front(), kMinRampBytes);
    EXPECT_NEAR(grid.back(), kMaxRampBytes, 1);
    for (std::size_t i = 1; i < grid.size(); ++i)
        EXPECT_GT(grid[i], grid[i - 1]);
}

} // namespace
} // namespace strata::calibrate
