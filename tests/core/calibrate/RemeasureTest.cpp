// Re-measuring a path whose fit is poor: synthetic measurements of a path with known figures, the
// first caught in a slow spell (the machine's speed changing while calibration measured), fitted
// by the calibration's own fit; the retry policy must measure again, keep the good attempt, stay
// within its limits and say what it did.

#include "calibrate/Remeasure.h"

#include "calibrate/Fit.h"
#include "calibrate/FitQuality.h"

#include <gtest/gtest.h>
#include <random>

namespace strata::calibrate {
namespace {

constexpr double kLatency = 150;
constexpr double kBandwidth = 25; // B/cycle

// Loads of 64 B .. 16 MiB in steps of 2, +-5% noise. A slow spell makes the transfers measured
// during it (sizes from `slowFrom` to `slowTo` bytes: the programs run in order of size)
// `slowdown` x slower.
std::vector<TransferSample> measurePath(unsigned seed, double slowFrom = 0, double slowTo = 0,
                                        double slowdown = 1) {
    std::mt19937 engine(seed);
    std::uniform_real_distribution<double> noise(-0.05, 0.05);
    std::vector<TransferSample> out;
    for (double bytes = 64; bytes <= double(16 << 20); bytes *= 2)
        for (int r = 0; r < 3; ++r) {
            const double slow = bytes >= slowFrom && bytes <= slowTo ? slowdown : 1;
            out.push_back({bytes, slow * (kLatency + bytes / kBandwidth) * (1 + noise(engine))});
        }
    return out;
}

// A path measured first in a slow spell, then (each re-measure) normally.
struct SpellThenQuiet {
    std::vector<TransferFit> fits;
    int calls = 0;
    TransferFit first() {
        fits.push_back(fitTransfer(measurePath(1, 1024, 1 << 20, 4)));
        return fits.back();
    }
    std::optional<double> again() {
        ++calls;
        fits.push_back(fitTransfer(measurePath(100 + calls)));
        return fits.back().shapeRmsRelativeError;
    }
};

TEST(Remeasure, APoorFitIsMeasuredAgainAndTheGoodAttemptKept) {
    SpellThenQuiet path;
    const TransferFit first = path.first();
    ASSERT_GT(first.shapeRmsRelativeError, kPoorFitResidual); // the spell makes it poor
    const RemeasureOutcome out = remeasureWhilePoor("load", first.shapeRmsRelativeError, 2.0, 0.8,
                                                    {}, [&] { return path.again(); });
    EXPECT_EQ(out.retries(), 1);
    EXPECT_EQ(path.calls, 1);
    ASSERT_EQ(out.best, 1u);
    EXPECT_FALSE(out.stillPoor);
    const TransferFit& kept = path.fits[out.best];
    EXPECT_NEAR(kept.latencyCycles, kLatency, 0.15 * kLatency);
    EXPECT_NEAR(kept.bytesPerCycle, kBandwidth, 0.05 * kBandwidth);
    EXPECT_NE(out.note.find("re-measured 'load' once"), std::string::npos) << out.note;
}

TEST(Remeasure, AGoodFitIsNotMeasuredAgain) {
    int calls = 0;
    const TransferFit fit = fitTransfer(measurePath(7));
    ASSERT_LT(fit.shapeRmsRelativeError, kPoorFitResidual);
    const RemeasureOutcome out =
        remeasureWhilePoor("load", fit.shapeRmsRelativeError, 2.0, 0.8, {}, [&] {
            ++calls;
            return std::optional<double>(0.1);
        });
    EXPECT_EQ(calls, 0);
    EXPECT_EQ(out.retries(), 0);
    EXPECT_TRUE(out.note.empty());
}

TEST(Remeasure, AtMostMaxRetriesWhenEveryAttemptIsPoor) {
    int calls = 0;
    const RemeasureOutcome out = remeasureWhilePoor("store", 0.9, 1.0, 0.5, {.maxRetries = 2}, [&] {
        ++calls;
        return std::optional<double>(calls == 1 ? 0.7 : 0.8);
    });
    EXPECT_EQ(calls, 2);
    EXPECT_EQ(out.best, 1u); // the least residual, 0.7
    EXPECT_TRUE(out.stillPoor);
    EXPECT_NE(out.note.find("twice"), std::string::npos) << out.note;
    EXPECT_NE(out.note.find("90% -> 70% -> 80%"), std::string::npos) << out.note;
}

TEST(Remeasure, NoRetryBeyondTheTimeBudget) {
    int calls = 0;
    const auto count = [&] {
        ++calls;
        return std::optional<double>(0.9);
    };
    // 4.5 s spent, a re-measure takes 0.8 s: over the 5 s budget.
    RemeasureOutcome out = remeasureWhilePoor("load", 0.76, 4.5, 0.8, {}, count);
    EXPECT_EQ(calls, 0);
    EXPECT_TRUE(out.stillPoor);
    EXPECT_NE(out.note.find("not re-measured"), std::string::npos) << out.note;
    // 3.5 s spent: one re-measure fits (4.3 s), a second would not (5.1 s).
    out = remeasureWhilePoor("load", 0.76, 3.5, 0.8, {}, count);
    EXPECT_EQ(calls, 1);
    EXPECT_EQ(out.retries(), 1);
    EXPECT_NE(out.note.find("budget"), std::string::npos) << out.note;
}

TEST(Remeasure, AFailedRemeasureEndsTheRetries) {
    int calls = 0;
    const RemeasureOutcome out = remeasureWhilePoor("load", 0.76, 0, 0.5, {}, [&] {
        ++calls;
        return std::optional<double>();
    });
    EXPECT_EQ(calls, 1);
    EXPECT_EQ(out.retries(), 0);
    EXPECT_TRUE(out.stillPoor);
}

// Repeats of each shape scattered over two regimes (a tile in the core's cache or not: 0.3x and
// 3x the typical time), the median typical: the figures fit the shapes exactly, so the fit is
// neither refused nor poor, though its RMS over samples is far above both bounds.
TEST(Remeasure, ScatterWithinAShapeIsNotAPoorFit) {
    std::vector<TransferSample> samples;
    for (double bytes = 64; bytes <= double(16 << 20); bytes *= 2)
        for (const double regime : {0.3, 1.0, 1.0, 1.0, 3.0})
            samples.push_back({bytes, regime * (kLatency + bytes / kBandwidth)});
    const TransferFit fit = fitTransfer(samples);
    EXPECT_GT(fit.rmsRelativeError, kMaxTransferRms);
    EXPECT_LT(fit.shapeRmsRelativeError, 0.01);
    EXPECT_TRUE(trustworthy(fit));
    EXPECT_FALSE(poorFitWarning("load", fit.shapeRmsRelativeError).has_value());
    EXPECT_NEAR(fit.bytesPerCycle, kBandwidth, 0.01 * kBandwidth);
}

} // namespace
} // namespace strata::calibrate
