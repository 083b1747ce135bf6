// The cost per weight byte beyond the private cache (ComputeFit::farWeightByteCycles, the
// target's overhead_cycles.conv_far_weight_byte and matmul_far_weight_byte) fitted per class on
// synthetic measurements made from known figures, apart from the figures of near work.

#include "calibrate/Fit.h"

#include <gtest/gtest.h>
#include <random>

namespace strata::calibrate {
namespace {

constexpr double kCache = 1 << 20;      // bytes of private cache

// Convolutions (12 MACs per cycle) and matrix products (20) of varied reuse with weights within
// the cache, paying 0.3 cycles per weight byte, elementwise work setting the overhead (80
// cycles); then thin ones with 2..8 caches of weights, whose bytes past the cache pay
// `convFar` and `matmulFar` more. `noise`: +-that share, seeded.
std::vector<ComputeSample> samples(double convFar, double matmulFar, double noise = 0) {
    std::mt19937 engine(77);
    std::uniform_real_distribution<double> uniform(-1.0, 1.0);
    auto noisy = [&](double cycles) { return cycles * (1 + noise * uniform(engine)); };
    std::vector<ComputeSample> out;
    for (double work = 1e3; work <= 1e7; work *= 10)
        out.push_back({2, work, noisy(80 + work / 3), 0, 0});
    for (double positions : {1.0, 4.0, 16.0, 64.0, 256.0})
        for (double weights : {16384.0, 147456.0}) {
            const double work = positions * weights, bytes = 4 * weights;
            out.push_back({kConvClass, work, noisy(80 + work / 12 + bytes * 0.3), 0, bytes});
            out.push_back({kMatMulClass, work, noisy(80 + work / 20 + bytes * 0.3), 0, bytes});
        }
    for (double caches : {2.0, 4.0, 8.0})
        for (int repeat = 0; repeat < 3; ++repeat) {
            const double bytes = caches * kCache, far = bytes - kCache, work = 4 * bytes / 4;
            out.push_back({kConvClass, work, noisy(80 + work / 12 + bytes * 0.3 + far * convFar), 0,
                           bytes, far});
            out.push_back({kMatMulClass, work / 4,
                           noisy(80 + work / 4 / 20 + bytes * 0.3 + far * matmulFar), 0, bytes,
                           far});
        }
    return out;
}

TEST(FitFarWeightBytes, RecoversEachClassesCostPerFarByte) {
    const ComputeFit fit = fitCompute(samples(0.4, 0.05));
    EXPECT_NEAR(fit.farWeightByteCycles[kConvClass], 0.4, 1e-3);
    EXPECT_NEAR(fit.farWeightByteCycles[kMatMulClass], 0.05, 1e-3);
    // The near figures as without the far samples.
    EXPECT_NEAR(fit.weightByteCycles, 0.3, 1e-3);
    EXPECT_NEAR(fit.throughputPerCycle[kConvClass], 12, 0.05);
    EXPECT_NEAR(fit.throughputPerCycle[kMatMulClass], 20, 0.1);
    EXPECT_NEAR(fit.overheadCycles, 80, 1);
}

TEST(FitFarWeightBytes, SurvivesNoise) {
    const ComputeFit fit = fitCompute(samples(0.4, 0.05, 0.05));
    EXPECT_NEAR(fit.farWeightByteCycles[kConvClass], 0.4, 0.06);
    EXPECT_NEAR(fit.farWeightByteCycles[kMatMulClass], 0.05, 0.03);
    EXPECT_NEAR(fit.weightByteCycles, 0.3, 0.06);
}

TEST(FitFarWeightBytes, FarBytesThatCostNothingMoreGiveNoCost) {
    const ComputeFit fit = fitCompute(samples(0, 0));
    EXPECT_NEAR(fit.farWeightByteCycles[kConvClass], 0, 1e-6);
    EXPECT_NEAR(fit.farWeightByteCycles[kMatMulClass], 0, 1e-6);
    EXPECT_NEAR(fit.weightByteCycles, 0.3, 1e-3);
}

TEST(FitFarWeightBytes, NoFarSamplesNoFigure) {
    std::vector<ComputeSample> near;
    for (const ComputeSample& s : samples(0.4, 0.05))
        if (s.farWeightBytes == 0)
            near.push_back(s);
    const ComputeFit fit = fitCompute(near);
    EXPECT_EQ(fit.farWeightByteCycles[kConvClass], 0);
    EXPECT_EQ(fit.farWeightByteCycles[kMatMulClass], 0);
}

} // namespace
} // namespace strata::calibrate
