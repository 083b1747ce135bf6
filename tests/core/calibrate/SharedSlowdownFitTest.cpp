// The shared resource's bandwidth fitted from slowdowns against the same shapes measured alone
// (calibrate::fitSharedBandwidth with alone samples), synthetic ground truth.
#include "calibrate/Fit.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <vector>

namespace strata::calibrate {
namespace {

constexpr double kPathLatency = 200, kPathBandwidth = 10; // the path's (compiled) figures
constexpr double kBus = 15;                               // the true shared bandwidth

std::vector<double> sizes() {
    std::vector<double> out;
    for (double b = 64; b <= 16.0 * 1024 * 1024; b *= 4)
        out.push_back(b);
    return out;
}

// The emulator's slowdown of one of `k` transfers sharing `bus`, at the path's figures.
double slowdown(double bytes, int k, double bus) {
    const double alone = kPathLatency + bytes / kPathBandwidth;
    return (kPathLatency + bytes / std::min(kPathBandwidth, bus / k)) / alone;
}

// Copies measured alone in another regime than the path's figures (slower per byte, a higher
// latency: the isolated programs against the compiled ones), and on two cores at once slowed
// down exactly as the emulator would slow them on a bus of kBus.
struct Copies {
    std::vector<TransferSample> alone;
    std::vector<ContendedSample> contended;
};

Copies copiesInAnotherRegime() {
    Copies out;
    for (double bytes : sizes()) {
        const double alone = 500 + bytes / 6;
        out.alone.push_back({bytes, alone});
        out.contended.push_back({bytes, 2, alone * slowdown(bytes, 2, kBus)});
    }
    return out;
}

TEST(SharedSlowdownFit, RecoversTheBusFromSlowdownsInAnotherRegime) {
    const Copies copies = copiesInAnotherRegime();
    const SharedBandwidthFit fit =
        fitSharedBandwidth(copies.contended, copies.alone, kPathLatency, kPathBandwidth);
    EXPECT_NEAR(fit.bytesPerCycle, kBus, kBus * 0.01);
    EXPECT_LT(fit.rmsRelativeError, 0.01);
    EXPECT_EQ(fit.samples, copies.contended.size());
}

TEST(SharedSlowdownFit, AgainstThePathsFiguresTheRegimeIsBlamedOnTheBus) {
    // What the fit did before it took the alone samples: the copies' own slowness (6 B/cycle
    // against the path's 10) reads as sharing, and the bus comes out far too narrow.
    const Copies copies = copiesInAnotherRegime();
    const SharedBandwidthFit fit =
        fitSharedBandwidth(copies.contended, kPathLatency, kPathBandwidth);
    EXPECT_LT(fit.bytesPerCycle, kBus * 0.8);
}

TEST(SharedSlowdownFit, NoSlowdownMeansNoNarrowBus) {
    // Two cores each as fast as alone: every core keeps its path rate, however slow the copies.
    std::vector<TransferSample> alone;
    std::vector<ContendedSample> contended;
    for (double bytes : sizes()) {
        alone.push_back({bytes, 500 + bytes / 6});
        contended.push_back({bytes, 2, 500 + bytes / 6});
    }
    const SharedBandwidthFit fit =
        fitSharedBandwidth(contended, alone, kPathLatency, kPathBandwidth);
    EXPECT_GE(fit.bytesPerCycle, 2 * kPathBandwidth * 0.999);
}

TEST(SharedSlowdownFit, ShapesNotMeasuredAloneAreJudgedByThePathsFigures) {
    // No alone sample of the same rows: the contended times are the path's figures on the bus.
    std::vector<TransferSample> alone;
    std::vector<ContendedSample> contended;
    for (double bytes : sizes()) {
        alone.push_back({bytes, 500 + bytes / 6, 4}); // other rows than the contended ones
        contended.push_back({bytes, 2, kPathLatency + bytes / std::min(kPathBandwidth, kBus / 2)});
    }
    const SharedBandwidthFit fit =
        fitSharedBandwidth(contended, alone, kPathLatency, kPathBandwidth);
    EXPECT_NEAR(fit.bytesPerCycle, kBus, kBus * 0.01);
}

} // namespace
} // namespace strata::calibrate
