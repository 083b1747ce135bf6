// The calibration fits on synthetic measurements made from known parameters (with noise): each
// must recover the parameters within tolerance.

#include "calibrate/Fit.h"

#include <gtest/gtest.h>

#include <random>

namespace strata::calibrate {
namespace {

// Multiplicative noise of +-`amount` (uniform), seeded: the same data every run.
class Noise {
  public:
    explicit Noise(double amount) : m_amount(amount) {}
    double operator()(double value) { return value * (1 + m_amount * m_uniform(m_engine)); }

  private:
    double m_amount;
    std::mt19937 m_engine{12345};
    std::uniform_real_distribution<double> m_uniform{-1.0, 1.0};
};

std::vector<double> sizes() {
    std::vector<double> out;
    for (double b = 64; b <= 64.0 * 1024 * 1024; b *= 2) out.push_back(b);
    return out;
}

TEST(FitTransfer, RecoversLatencyAndBandwidth) {
    Noise noise(0.03);
    std::vector<TransferSample> samples;
    for (double bytes : sizes())
        for (int r = 0; r < 3; ++r) samples.push_back({bytes, noise(300 + bytes / 12.5)});
    const TransferFit fit = fitTransfer(samples);
    EXPECT_NEAR(fit.latencyCycles, 300, 300 * 0.05);
    EXPECT_NEAR(fit.bytesPerCycle, 12.5, 12.5 * 0.03);
    EXPECT_LT(fit.rmsRelativeError, 0.03);
    EXPECT_GT(fit.rmsRelativeError, 0.005);
    EXPECT_EQ(fit.samples, samples.size());
}

TEST(FitTransfer, ExactDataIsExact) {
    std::vector<TransferSample> samples;
    for (double bytes : sizes()) samples.push_back({bytes, 40 + bytes / 3});
    const TransferFit fit = fitTransfer(samples);
    EXPECT_NEAR(fit.latencyCycles, 40, 1e-6);
    EXPECT_NEAR(fit.bytesPerCycle, 3, 1e-9);
    EXPECT_LT(fit.rmsRelativeError, 1e-9);
}

TEST(FitTransfer, NegativeInterceptIsClampedToZero) {
    // Pure bandwidth, slightly faster than linear at small sizes: the unconstrained intercept is < 0.
    std::vector<TransferSample> samples;
    for (double bytes : sizes()) samples.push_back({bytes, bytes / 8 * (bytes < 1024 ? 0.8 : 1.0)});
    const TransferFit fit = fitTransfer(samples);
    EXPECT_EQ(fit.latencyCycles, 0);
    EXPECT_GT(fit.bytesPerCycle, 7);
    EXPECT_LT(fit.bytesPerCycle, 10);
}

TEST(FitTransfer, TooFewSamplesGiveNothing) {
    EXPECT_EQ(fitTransfer({{64, 100}}).bytesPerCycle, 0);
    EXPECT_EQ(fitTransfer({}).samples, 0u);
}

TEST(FitSharedBandwidth, RecoversTheResourceBandwidth) {
    // Path 10 B/cycle, latency 200; the shared bus carries 25 B/cycle: two cores get 10 each
    // (uncontended), three and four get 25/3 and 25/4.
    Noise noise(0.02);
    std::vector<ContendedSample> samples;
    for (int k = 1; k <= 4; ++k)
        for (double bytes : sizes()) {
            const double rate = std::min(10.0, 25.0 / k);
            samples.push_back({bytes, k, noise(200 + bytes / rate)});
        }
    const SharedBandwidthFit fit = fitSharedBandwidth(samples, 200, 10);
    EXPECT_NEAR(fit.bytesPerCycle, 25, 25 * 0.03);
    EXPECT_LT(fit.rmsRelativeError, 0.02);
    EXPECT_EQ(fit.samples, sizes().size() * 3);
}

TEST(FitSharedBandwidth, NoContentionGivesAtLeastEveryCoreItsPathRate) {
    std::vector<ContendedSample> samples;
    for (int k = 2; k <= 4; ++k)
        for (double bytes : sizes()) samples.push_back({bytes, k, 100 + bytes / 6});
    const SharedBandwidthFit fit = fitSharedBandwidth(samples, 100, 6);
    EXPECT_GE(fit.bytesPerCycle, 4 * 6 * 0.999);
    EXPECT_LT(fit.rmsRelativeError, 1e-9);
}

TEST(FitCompute, RecoversOverheadAndThroughputPerClass) {
    Noise noise(0.05);
    const double overhead = 120;
    const std::array<double, kOpClasses> throughput{32, 24, 4, 1.5, 3, 2, 0.5, 6, 0};
    std::vector<ComputeSample> samples;
    for (std::size_t c = 0; c + 1 < kOpClasses; ++c)
        for (double work = 256; work <= 4e6; work *= 4) samples.push_back({c, work, noise(overhead + work / throughput[c])});
    const ComputeFit fit = fitCompute(samples);
    EXPECT_NEAR(fit.overheadCycles, overhead, overhead * 0.15);
    for (std::size_t c = 0; c + 1 < kOpClasses; ++c) {
        EXPECT_NEAR(fit.throughputPerCycle[c], throughput[c], throughput[c] * 0.05) << "class " << c;
        EXPECT_LT(fit.rmsRelativeError[c], 0.05) << "class " << c;
        EXPECT_EQ(fit.samples[c], 7u);
    }
    EXPECT_EQ(fit.throughputPerCycle[8], 0); // no samples of class 8 ("other")
    EXPECT_EQ(fit.samples[8], 0u);
    EXPECT_GT(fit.rmsRelativeErrorAll, 0.005);
}

TEST(FitCompute, WorkThatCostsNothingGetsTheLargestThroughput) {
    std::vector<ComputeSample> samples;
    for (double work = 100; work <= 1e5; work *= 10) samples.push_back({2, work, 500});
    const ComputeFit fit = fitCompute(samples);
    EXPECT_NEAR(fit.overheadCycles, 500, 1e-6);
    EXPECT_EQ(fit.throughputPerCycle[2], 1e9);
}

TEST(FitMedian, OddEvenAndEmpty) {
    EXPECT_EQ(median({}), 0);
    EXPECT_EQ(median({5, 1, 3}), 3);
    EXPECT_EQ(median({4, 1, 3, 100}), 3.5);
}

} // namespace
} // namespace strata::calibrate
