#include "analysis/TransferResiduals.h"

#include <cmath>
#include <gtest/gtest.h>

namespace strata::analysis {
namespace {

TEST(TransferResiduals, ModelCyclesAreLatencyPlusBytesOverBandwidth) {
    EXPECT_DOUBLE_EQ((LinearTransferModel{100, 8}).cycles(800), 200);
    EXPECT_DOUBLE_EQ((LinearTransferModel{100, 0}).cycles(800), 100);
    // 16 rows of 50 bytes at 2 cycles per row: 100 + 32 + 100.
    EXPECT_DOUBLE_EQ((LinearTransferModel{100, 8, 2}).cycles(800, 16), 232);
}

TEST(TransferResiduals, ARampsFirstBytesMoveAtItsRate) {
    // The first 400 bytes at 4 B/cycle, the rest at 8: 100 + 400 / 4 + 400 / 8.
    EXPECT_DOUBLE_EQ((LinearTransferModel{100, 8, 0, 400, 4}).cycles(800), 250);
    // Shorter than the ramp: all of it at the ramp's rate.
    EXPECT_DOUBLE_EQ((LinearTransferModel{100, 8, 0, 400, 4}).cycles(200), 150);
}

TEST(TransferResiduals, RmsOfRelativeResiduals) {
    // Model 100 + bytes/8: 800 B -> 200 cycles (measured 100: +100%), 1600 B -> 300 (measured 300: 0).
    const std::vector<SizedDuration> samples{{800, 100}, {1600, 300}, {64, 0}};
    EXPECT_DOUBLE_EQ(rmsRelativeResidual(samples, {100, 8}), std::sqrt(0.5));
    // The exact model has no residual.
    EXPECT_DOUBLE_EQ(rmsRelativeResidual({{800, 200}, {1600, 300}}, {100, 8}), 0);
    EXPECT_DOUBLE_EQ(rmsRelativeResidual({}, {100, 8}), 0);
    // The row overhead counts per sample: 800 B in 4 rows at 25 cycles a row -> 300 cycles, exact.
    EXPECT_DOUBLE_EQ(rmsRelativeResidual({{800, 300, 4}, {800, 225, 1}}, {100, 8, 25}), 0);
}

} // namespace
} // namespace strata::analysis
