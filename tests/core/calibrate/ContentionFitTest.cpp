// A path's own contention (fitPathContention) from synthetic contention programs: transfers on
// one core against the same on two cores at once, read against the emulator's figures.

#include "calibrate/Calibrate.h"
#include "calibrate/Fit.h"
#include "target/TargetLoader.h"
#include "target/TargetWriter.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <random>

namespace strata::calibrate {
namespace {

constexpr double kLatency = 200, kRowOverhead = 10, kRate = 9; // the path's emulator figures

double emulatedAlone(double bytes, double rows) {
    return kLatency + rows * kRowOverhead + bytes / kRate;
}

// Two flows on a resource of `shared` B/cycle only they use, as the emulator shares it.
double emulatedTwoAtOnce(double bytes, double rows, double shared) {
    return kLatency + rows * kRowOverhead + bytes / std::min(kRate, shared / 2);
}

// Samples whose alone time is `aloneScale` x the emulator's (another regime than the figures'
// programs: the fit reads only slowdowns), up to 64 KiB slowed by `smallSlowdown`, from 256
// KiB by the sharing of `shared`, with multiplicative noise of +-`noise`.
std::vector<SlowdownSample> samples(double shared, double smallSlowdown, double aloneScale,
                                    double noise) {
    std::mt19937 engine(7);
    std::uniform_real_distribution<double> jitter(-noise, noise);
    std::vector<SlowdownSample> out;
    for (int core = 0; core < 2; ++core)
        for (double bytes : {4096.0, 65536.0, 262144.0, 524288.0, 1048576.0}) {
            const double alone = aloneScale * emulatedAlone(bytes, 1) * (1 + jitter(engine));
            const double slowdown =
                bytes <= kContentionSmallBytes
                    ? smallSlowdown
                    : emulatedTwoAtOnce(bytes, 1, shared) / emulatedAlone(bytes, 1);
            out.push_back({bytes, 1, alone, alone * slowdown * (1 + jitter(engine)), 2});
        }
    return out;
}

TEST(FitPathContention, RecoversTheSharedBandwidthFromTheLargeSizesSlowdowns) {
    // Two stores at once each get 5.5 B/cycle of 11, not their 9: 1.6x in the bytes' part.
    const PathContentionFit fit =
        fitPathContention(samples(11, 0.75, 0.7, 0.03), kLatency, kRowOverhead, kRate);
    EXPECT_NEAR(fit.bytesPerCycle, 11, 11 * 0.06);
    EXPECT_NEAR(fit.smallSlowdown, 0.75, 0.75 * 0.06);
    EXPECT_GT(fit.largeSlowdown, 1.5);
    EXPECT_EQ(fit.samples, 6u); // 256 KiB, 512 KiB and 1 MiB on both cores
}

TEST(FitPathContention, OneSampleByHand) {
    // Alone 0.5 x the emulator's 200 + 10 + 262144 / 8 = 32978 cycles; slowed 1.5x: the emulator's
    // time two at once is 1.5 x 32978 = 49467, its bytes' part 49257, so each flow moved at
    // 262144 / 49257 B/cycle and the resource R = 2 x that = 10.644.
    const std::vector<SlowdownSample> s{{4096, 1, 500, 500, 2}, {262144, 1, 16489, 1.5 * 16489, 2}};
    const PathContentionFit fit = fitPathContention(s, 200, 10, 8);
    EXPECT_NEAR(fit.bytesPerCycle, 2 * 262144 / (1.5 * 32978 - 210), 1e-9);
    EXPECT_DOUBLE_EQ(fit.smallSlowdown, 1);
    EXPECT_DOUBLE_EQ(fit.largeSlowdown, 1.5);
}

TEST(FitPathContention, ASlowdownAsLargeOnAPageAsOnHalfAMebibyteIsNotBandwidth) {
    std::vector<SlowdownSample> flat;
    for (double bytes : {4096.0, 65536.0, 524288.0})
        flat.push_back({bytes, 1, emulatedAlone(bytes, 1), 1.7 * emulatedAlone(bytes, 1), 2});
    const PathContentionFit fit = fitPathContention(flat, kLatency, kRowOverhead, kRate);
    EXPECT_EQ(fit.bytesPerCycle, 0);
    EXPECT_DOUBLE_EQ(fit.smallSlowdown, 1.7);
    EXPECT_DOUBLE_EQ(fit.largeSlowdown, 1.7);
}

TEST(FitPathContention, NoSlowdownNoResource) {
    EXPECT_EQ(
        fitPathContention(samples(1e9, 1.0, 1.0, 0.0), kLatency, kRowOverhead, kRate).bytesPerCycle,
        0);
    EXPECT_EQ(fitPathContention({}, kLatency, kRowOverhead, kRate).bytesPerCycle, 0);
    // Large sizes only: nothing to tell latency from bandwidth.
    std::vector<SlowdownSample> large{{524288, 1, 1000, 2000, 2}};
    EXPECT_EQ(fitPathContention(large, kLatency, kRowOverhead, kRate).bytesPerCycle, 0);
}

} // namespace
} // namespace strata::calibrate

namespace strata::calibrate {
namespace {

TEST(SetPathContention, AddsAResourceOnlyThatPathListsAndRemovesItWhenNoneIsFitted) {
    auto loaded = target::resolveTarget("host-uncalibrated");
    ASSERT_TRUE(loaded.ok());
    target::Target t = *loaded;
    const std::size_t resources = t.resources.size();
    PathContentionFit fit;
    fit.bytesPerCycle = 11;
    fit.largeSlowdown = 1.6;
    setPathContention(t, "store", fit);
    setPathContention(t, "store", fit); // once, however often
    ASSERT_EQ(t.resources.size(), resources + 1);
    const target::SharedResource* r = t.findResource("store_contention");
    ASSERT_NE(r, nullptr);
    EXPECT_EQ(r->scope, target::Scope::Chip);
    EXPECT_EQ(r->bytesPerCycle, 11);
    for (const target::TransferPath& p : t.paths)
        EXPECT_EQ(std::count(p.resources.begin(), p.resources.end(), "store_contention"),
                  p.name == "store" ? 1 : 0)
            << p.name;
    // Written and read back as a target the other commands accept.
    auto reread = target::parseTarget(target::targetToJson(t), "calibrated");
    ASSERT_TRUE(reread.ok()) << reread.diagnostics().front().toString();
    ASSERT_NE(reread->findResource("store_contention"), nullptr);
    EXPECT_EQ(reread->findResource("store_contention")->bytesPerCycle, 11);

    setPathContention(t, "store", PathContentionFit{});
    EXPECT_EQ(t.findResource("store_contention"), nullptr);
    EXPECT_EQ(t.resources.size(), resources);
    for (const target::TransferPath& p : t.paths)
        EXPECT_EQ(std::count(p.resources.begin(), p.resources.end(), "store_contention"), 0);
    setPathContention(t, "teleport", fit); // no such path: nothing added
    EXPECT_EQ(t.resources.size(), resources);
}

} // namespace
} // namespace strata::calibrate
