// The factor a path's bytes move slower by beside the other core's transfers
// (fitConcurrentSlowdown) from synthetic contention programs with a known factor: each sample's
// time alone and on two cores at once as the emulator prices them, the alone time scaled (the
// programs run in another regime than the figures' own: only slowdowns are read), with noise.

#include "calibrate/ConcurrentSlowdownFit.h"

#include <gtest/gtest.h>
#include <random>

namespace strata::calibrate {
namespace {

target::TransferPath figures() {
    target::TransferPath p;
    p.latencyCycles = 200;
    p.rowOverheadCycles = 10;
    p.bytesPerCycle = 20;
    p.ramp = {0, 0, 262144, 12}; // past 256 KiB the bytes spill at 12 B/cycle
    return p;
}

// Fixed part (latency, row, spill) and bytes' part of one contiguous transfer alone.
double fixedOf(const target::TransferPath& p, double bytes) {
    return p.fixedCyclesFor(target::ReadKind::Other, bytes) + p.rowOverheadCycles;
}

std::vector<SlowdownSample> samples(double factor, double aloneScale, double noise) {
    const target::TransferPath p = figures();
    std::mt19937 engine(11);
    std::uniform_real_distribution<double> jitter(-noise, noise);
    std::vector<SlowdownSample> out;
    for (int core = 0; core < 2; ++core)
        for (double bytes : {4096.0, 65536.0, 524288.0, 1048576.0}) {
            const double fixed = fixedOf(p, bytes), moving = bytes / p.bytesPerCycle;
            const double slowdown = (fixed + factor * moving) / (fixed + moving);
            const double alone = aloneScale * (fixed + moving) * (1 + jitter(engine));
            out.push_back({bytes, 1, alone, alone * slowdown * (1 + jitter(engine)), 2});
        }
    return out;
}

TEST(ConcurrentSlowdownFit, RecoversTheFactorFromSlowdowns) {
    EXPECT_NEAR(fitConcurrentSlowdown(samples(1.6, 1.0, 0), figures()), 1.6, 1e-9);
    // The programs' own regime (alone 1.4x the figures') does not move it.
    EXPECT_NEAR(fitConcurrentSlowdown(samples(1.6, 1.4, 0), figures()), 1.6, 1e-9);
}

TEST(ConcurrentSlowdownFit, RecoversTheFactorWithinNoise) {
    EXPECT_NEAR(fitConcurrentSlowdown(samples(1.4, 1.2, 0.03), figures()), 1.4, 0.1);
}

TEST(ConcurrentSlowdownFit, NoSlowdownIsOne) {
    EXPECT_EQ(fitConcurrentSlowdown(samples(1.0, 1.0, 0.01), figures()), 1.0);
    EXPECT_EQ(fitConcurrentSlowdown({}, figures()), 1.0);
}

TEST(ConcurrentSlowdownFit, PagesDoNotJudgeIt) {
    // A page's slowdown is latency the factor does not touch: only the large sizes count.
    std::vector<SlowdownSample> s = samples(1.0, 1.0, 0);
    for (SlowdownSample& sample : s)
        if (sample.bytes < kConcurrentSlowdownMinBytes)
            sample.contendedCycles *= 3;
    EXPECT_EQ(fitConcurrentSlowdown(s, figures()), 1.0);
}

} // namespace
} // namespace strata::calibrate
