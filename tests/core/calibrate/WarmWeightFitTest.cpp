// fitWarmWeightLatency on synthetic warm weight reads: the latency of the latency-bound shapes
// recovered at the cold bandwidth, whatever the large reads do.

#include "calibrate/WarmWeightFit.h"

#include <gtest/gtest.h>
#include <random>

namespace strata::calibrate {
namespace {

TransferFit coldFit() {
    TransferFit cold;
    cold.latencyCycles = 900;
    cold.bytesPerCycle = 8;
    cold.rowOverheadCycles = 5;
    return cold;
}

// Five repeats per size, +-5% noise: `latency` + bytes / 8 (+ 5 a row) up to 4 KiB; the large
// ones at twice the cold rate (the warm chains' own bandwidth, which the fit must not take).
std::vector<TransferSample> warmReads(double latency) {
    std::mt19937 random(7);
    std::uniform_real_distribution<double> noise(0.95, 1.05);
    std::vector<TransferSample> out;
    for (const double bytes : {4.0, 64.0, 256.0, 1024.0, 4096.0, 65536.0, 1048576.0})
        for (int k = 0; k < 5; ++k) {
            const double rate = bytes > 4096 ? 16 : 8;
            out.push_back({bytes, (latency + 5 + bytes / rate) * noise(random), 1});
        }
    return out;
}

TEST(WarmWeightFit, RecoversTheLatencyAtTheColdBandwidth) {
    const TransferFit fit = fitWarmWeightLatency(warmReads(200), coldFit());
    EXPECT_NEAR(fit.latencyCycles, 200, 20);
    EXPECT_EQ(fit.bytesPerCycle, 8);
    EXPECT_EQ(fit.samples, 25u); // the five latency-bound sizes: bytes / 8 < 900
    EXPECT_LT(fit.shapeRmsRelativeError, 0.1);
}

TEST(WarmWeightFit, KeepsTheColdRampAndSpill) {
    TransferFit cold = coldFit();
    cold.rampBytes = 512;
    cold.rampBytesPerCycle = 2;
    cold.spillBytes = 1 << 20;
    cold.spillBytesPerCycle = 4;
    std::vector<TransferSample> samples;
    for (const double bytes : {4.0, 128.0, 512.0, 2048.0})
        samples.push_back({bytes, 100 + 5 + bytes / 8 + std::min(bytes, 512.0) * (0.5 - 0.125), 1});
    const TransferFit fit = fitWarmWeightLatency(samples, cold);
    EXPECT_NEAR(fit.latencyCycles, 100, 1e-6);
    EXPECT_EQ(fit.rampBytes, 512);
    EXPECT_EQ(fit.spillBytesPerCycle, 4);
}

TEST(WarmWeightFit, TooFewLatencyBoundShapesFitNothing) {
    const std::vector<TransferSample> samples = {
        {4, 300, 1}, {64, 310, 1}, {65536, 9000, 1}, {1048576, 130000, 1}};
    EXPECT_EQ(fitWarmWeightLatency(samples, coldFit()).samples, 0u);
}

TEST(WarmWeightFit, ALatencyBelowZeroIsZero) {
    std::vector<TransferSample> samples;
    for (const double bytes : {4.0, 64.0, 256.0, 1024.0})
        samples.push_back({bytes, 5 + bytes / 8 * 0.5, 1});
    EXPECT_EQ(fitWarmWeightLatency(samples, coldFit()).latencyCycles, 0);
}

} // namespace
} // namespace strata::calibrate
