// A reorder's cost per byte of its boxes beyond the private cache (fitReorderFarByteCycles,
// the target's overhead_cycles.reorder_far_byte) recovered from synthetic measurements made from
// known figures.

#include "calibrate/ReorderFit.h"

#include <gtest/gtest.h>
#include <random>

namespace strata::calibrate {
namespace {

constexpr double kCache = 2 << 20; // bytes of private cache
constexpr double kOverhead = 400;  // cycles per compute
constexpr double kPerCycle = 1.5;  // data-movement elements per cycle

// Reorders of boxes of 0.25 .. 8 caches (elements: a quarter of the box bytes, the output half
// of floats), each measured `repeats` times at +-`noise` around overhead + elements / rate + its
// bytes past the cache x `far`.
std::vector<ReorderSample> reorders(double far, double noise, int repeats = 5) {
    std::mt19937 engine(29);
    std::uniform_real_distribution<double> uniform(-1.0, 1.0);
    std::vector<ReorderSample> out;
    for (double caches : {0.25, 0.5, 1.5, 3.0, 8.0})
        for (int r = 0; r < repeats; ++r) {
            const double bytes = caches * kCache, elements = bytes / 8;
            const double cycles =
                kOverhead + elements / kPerCycle + std::max(0.0, bytes - kCache) * far;
            out.push_back({elements, bytes, cycles * (1 + noise * uniform(engine))});
        }
    return out;
}

TEST(ReorderFit, RecoversTheFarCostFromNoisyReorders) {
    for (double far : {0.05, 0.2}) {
        const double fitted =
            fitReorderFarByteCycles(reorders(far, 0.05), kOverhead, kPerCycle, kCache);
        EXPECT_NEAR(fitted, far, 0.25 * far + 0.01) << far;
    }
    // Without noise, exactly.
    EXPECT_NEAR(fitReorderFarByteCycles(reorders(0.1, 0), kOverhead, kPerCycle, kCache), 0.1, 1e-9);
}

TEST(ReorderFit, TooFewFarShapesOrNoCacheOrRateFitNothingAndNeverBelowZero) {
    std::vector<ReorderSample> nearOnly;
    for (const ReorderSample& s : reorders(0.1, 0))
        if (s.boxBytes <= kCache)
            nearOnly.push_back(s);
    EXPECT_EQ(fitReorderFarByteCycles(nearOnly, kOverhead, kPerCycle, kCache), 0);
    std::vector<ReorderSample> oneFar = nearOnly;
    oneFar.push_back({3 * kCache / 8, 3 * kCache, 1e6});
    EXPECT_EQ(fitReorderFarByteCycles(oneFar, kOverhead, kPerCycle, kCache), 0);
    EXPECT_EQ(fitReorderFarByteCycles(reorders(0.1, 0), kOverhead, kPerCycle, 0), 0);
    EXPECT_EQ(fitReorderFarByteCycles(reorders(0.1, 0), kOverhead, 0, kCache), 0);
    // Far reorders no slower than near ones: 0, not a negative cost.
    EXPECT_EQ(fitReorderFarByteCycles(reorders(0, 0), kOverhead + 100, kPerCycle, kCache), 0);
}

} // namespace
} // namespace strata::calibrate
