#include "analysis/TransferResiduals.h"

#include <cmath>
#include <gtest/gtest.h>

namespace strata::analysis {
namespace {

TEST(TransferResiduals, ModelCyclesAreLatencyPlusBytesOverBandwidth) {
    EXPECT_DOUBLE_EQ((LinearTransferModel{100, 8}).cycles(800), 200);
    EXPECT_DOUBLE_EQ((LinearTransferModel{100, 0}).cycles(800), 100);
}

TEST(TransferResiduals, RmsOfRelativeResiduals) {
    // Model 100 + bytes/8: 800 B -> 200 cycles (measured 100: +100%), 1600 B -> 300 (measured 300: 0).
    const std::vector<SizedDuration> samples{{800, 100}, {1600, 300}, {64, 0}};
    EXPECT_DOUBLE_EQ(rmsRelativeResidual(samples, {100, 8}), std::sqrt(0.5));
    // The exact model has no residual.
    EXPECT_DOUBLE_EQ(rmsRelativeResidual({{800, 200}, {1600, 300}}, {100, 8}), 0);
    EXPECT_DOUBLE_EQ(rmsRelativeResidual({}, {100, 8}), 0);
}

} // namespace
} // namespace strata::analysis
