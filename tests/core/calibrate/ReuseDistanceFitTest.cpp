// fitReuseDistanceRates on synthetic cached reads: the rate of each band of reuse distance
// recovered against the kind's own figures, never rising with distance, no faster than the
// bandwidth, kept from the last band within the private cache on, and nothing from samples that
// cannot tell.

#include "calibrate/ReuseDistanceFit.h"

#include <gtest/gtest.h>
#include <random>

namespace strata::calibrate {
namespace {

constexpr double kKiB = 1024, kMiB = 1024 * 1024;
constexpr double kPrivate = 256 * kKiB; // the core's private cache

TransferFit nearFit() {
    TransferFit near;
    near.latencyCycles = 300;
    near.rowOverheadCycles = 10;
    near.bytesPerCycle = 20;
    return near;
}

// Eight reads per (size, distance), +-3% noise: 300 + 10 + bytes / rate(distance).
std::vector<TransferSample> reads(double (*rate)(double distance)) {
    std::mt19937 random(11);
    std::uniform_real_distribution<double> noise(0.97, 1.03);
    std::vector<TransferSample> out;
    for (const double distance : {0.0, 300 * kKiB, 600 * kKiB, 2 * kMiB, 5 * kMiB})
        for (const double bytes : {32 * kKiB, 128 * kKiB})
            for (int k = 0; k < 4; ++k)
                out.push_back(
                    {bytes, (310 + bytes / rate(distance)) * noise(random), 1, 0, distance});
    return out;
}

double steps(double distance) {
    return distance < 256 * kKiB ? 20 : distance < kMiB ? 10 : 5;
}

TEST(ReuseDistanceFit, RecoversEachBandsRate) {
    const auto points = fitReuseDistanceRates(reads(steps), nearFit(), kPrivate);
    // Bins of distance 0 (below 128 KiB), [256, 512) KiB, [512, 1024) KiB, [2, 4) MiB, [4, 8) MiB.
    ASSERT_EQ(points.size(), 5u);
    EXPECT_NEAR(points[0].bytesPerCycle, 20, 1);
    EXPECT_NEAR(points[1].bytesPerCycle, 10, 0.5);
    EXPECT_NEAR(points[2].bytesPerCycle, 10, 0.5);
    EXPECT_NEAR(points[3].bytesPerCycle, 5, 0.25);
    EXPECT_NEAR(points[4].bytesPerCycle, 5, 0.25);
    // Each at its bin's geometric centre: 600 KiB lies in [512, 1024) KiB.
    EXPECT_NEAR(points[2].bytes, 512 * kKiB * std::sqrt(2.0), 1);
    for (std::size_t i = 1; i < points.size(); ++i)
        EXPECT_GT(points[i].bytes, points[i - 1].bytes);
}

TEST(ReuseDistanceFit, KeepsTheLastBandWithinThePrivateCacheAndThoseBeyond) {
    // A private cache of 1 MiB: the bands at 90 and 362 KiB go, the one at 724 KiB stays (where
    // the rates past the cache start from).
    const auto points = fitReuseDistanceRates(reads(steps), nearFit(), kMiB);
    ASSERT_EQ(points.size(), 3u);
    EXPECT_NEAR(points[0].bytes, 512 * kKiB * std::sqrt(2.0), 1);
    EXPECT_NEAR(points[0].bytesPerCycle, 10, 0.5);
    EXPECT_NEAR(points[2].bytesPerCycle, 5, 0.25);
}

// A band measured faster than a nearer one (a quiet moment) is pooled with it: the curve never
// rises with distance, and no point beats the kind's own bandwidth.
double bump(double distance) {
    return distance < 256 * kKiB ? 20 : distance < 512 * kKiB ? 40 : distance < kMiB ? 8 : 12;
}

TEST(ReuseDistanceFit, NeverFasterFartherBackNorThanTheBandwidth) {
    const auto points = fitReuseDistanceRates(reads(bump), nearFit(), kPrivate);
    ASSERT_EQ(points.size(), 5u);
    // The 40 B/cycle band pooled with the 20 before it, held to the bandwidth.
    EXPECT_DOUBLE_EQ(points[0].bytesPerCycle, 20);
    EXPECT_DOUBLE_EQ(points[1].bytesPerCycle, 20);
    // The 8 and 12 B/cycle bands pooled: one rate between them for all three.
    EXPECT_DOUBLE_EQ(points[2].bytesPerCycle, points[3].bytesPerCycle);
    EXPECT_DOUBLE_EQ(points[3].bytesPerCycle, points[4].bytesPerCycle);
    EXPECT_GT(points[2].bytesPerCycle, 8.5);
    EXPECT_LT(points[2].bytesPerCycle, 11.5);
    for (std::size_t i = 1; i < points.size(); ++i)
        EXPECT_LE(points[i].bytesPerCycle, points[i - 1].bytesPerCycle);
}

TEST(ReuseDistanceFit, NothingFromOneBandOrFromSmallReads) {
    std::vector<TransferSample> one;
    for (const TransferSample& s : reads(steps))
        if (s.reuseBytes == 2 * kMiB)
            one.push_back(s);
    EXPECT_TRUE(fitReuseDistanceRates(one, nearFit(), kPrivate).empty());
    std::vector<TransferSample> small = reads(steps);
    for (TransferSample& s : small)
        s.bytes = 4096; // latency-bound: they tell nothing of a rate
    EXPECT_TRUE(fitReuseDistanceRates(small, nearFit(), kPrivate).empty());
    // Three reads a band are too few.
    std::vector<TransferSample> few;
    int index = 0;
    for (const TransferSample& s : reads(steps))
        if (s.bytes == 32 * kKiB && index++ % 4 != 3)
            few.push_back(s);
    EXPECT_TRUE(fitReuseDistanceRates(few, nearFit(), kPrivate).empty());
}

} // namespace
} // namespace strata::calibrate
