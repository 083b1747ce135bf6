// The cost per weight byte (ComputeFit::weightByteCycles, overhead_cycles.weight_byte) fitted
// with the throughputs on synthetic measurements made from known figures.

#include "calibrate/Fit.h"

#include <gtest/gtest.h>
#include <random>

namespace strata::calibrate {
namespace {

constexpr std::size_t kMatMulClass = 1; // ir::OpClass::MatMul

// Convolutions and matrix products whose tiles reuse each 4-byte weight `positions` times
// (work = positions x weights), at 12 and 20 MACs per cycle, paying `perByte` per weight byte,
// with plain elementwise work setting the overhead (80 cycles). `noise`: +-that share, seeded.
std::vector<ComputeSample> weightSamples(double perByte, double noise = 0) {
    std::mt19937 engine(4242);
    std::uniform_real_distribution<double> uniform(-1.0, 1.0);
    auto noisy = [&](double cycles) { return cycles * (1 + noise * uniform(engine)); };
    std::vector<ComputeSample> samples;
    for (double work = 1e3; work <= 1e7; work *= 10)
        samples.push_back({2, work, noisy(80 + work / 3), 0, 0});
    for (double positions : {1.0, 4.0, 16.0, 64.0, 256.0})
        for (double weights : {16384.0, 147456.0}) {
            const double work = positions * weights, bytes = 4 * weights;
            samples.push_back(
                {kConvClass, work, noisy(80 + work / 12 + bytes * perByte), 0, bytes});
            samples.push_back(
                {kMatMulClass, work, noisy(80 + work / 20 + bytes * perByte), 0, bytes});
        }
    return samples;
}

TEST(FitWeightBytes, RecoversTheCostPerWeightByteWithTheThroughputs) {
    const ComputeFit fit = fitCompute(weightSamples(0.3));
    EXPECT_NEAR(fit.weightByteCycles, 0.3, 1e-3);
    EXPECT_NEAR(fit.throughputPerCycle[kConvClass], 12, 0.05);
    EXPECT_NEAR(fit.throughputPerCycle[kMatMulClass], 20, 0.1);
    EXPECT_NEAR(fit.overheadCycles, 80, 1);
}

TEST(FitWeightBytes, SurvivesNoise) {
    const ComputeFit fit = fitCompute(weightSamples(0.3, 0.05));
    EXPECT_NEAR(fit.weightByteCycles, 0.3, 0.06);
    EXPECT_NEAR(fit.throughputPerCycle[kConvClass], 12, 1.5);
    EXPECT_NEAR(fit.throughputPerCycle[kMatMulClass], 20, 2.5);
}

TEST(FitWeightBytes, WeightsThatCostNothingGiveNoCost) {
    const ComputeFit fit = fitCompute(weightSamples(0));
    EXPECT_NEAR(fit.weightByteCycles, 0, 1e-6);
    EXPECT_NEAR(fit.throughputPerCycle[kConvClass], 12, 1e-3);
}

TEST(FitWeightBytes, WeightsInProportionToWorkCannotBeToldApartAndCostNothing) {
    // Every tile reuses each weight 64 times: a cost per byte is a slower rate.
    std::vector<ComputeSample> samples;
    for (double work = 1e3; work <= 1e7; work *= 10) {
        samples.push_back({2, work, 80 + work / 3, 0, 0});
        samples.push_back({kConvClass, work, 80 + work / 12 + work / 16 * 0.3, 0, work / 16});
    }
    const ComputeFit fit = fitCompute(samples);
    EXPECT_EQ(fit.weightByteCycles, 0);
    EXPECT_NEAR(fit.throughputPerCycle[kConvClass], 1 / (1.0 / 12 + 0.3 / 16), 1e-6);
}

} // namespace
} // namespace strata::calibrate
