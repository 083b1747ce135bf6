// The figures issue 20 added, recovered from synthetic ground truth by the fits calibration uses:
// the row overhead of resident rows (fitTransfer over the own-primed shapes: contiguous and
// strided boxes of rows of 1024, 256 and 64 bytes, as measurePath runs them) and the copy and
// grouped-convolution throughputs (fitCompute classes kCopyClass, kGroupedConvClass).

#include "calibrate/BenchPrograms.h"
#include "calibrate/Calibrate.h"
#include "calibrate/Fit.h"

#include <gtest/gtest.h>

namespace strata::calibrate {
namespace {

TEST(NewFiguresFit, ResidentRowOverheadFromTheOwnPrimedShapes) {
    // Ground truth: 150 cycles, 5 per resident row, 20 B/cycle; shapes as measurePath builds them.
    std::vector<TransferSample> samples;
    for (std::uint64_t bytes = 64; bytes <= (1u << 20); bytes *= 4)
        for (std::uint64_t run : {0u, 1024u, 256u, 64u}) {
            if (run && run * 2 > bytes)
                continue;
            const double moved = double(transferBoxBytes(bytes, run));
            const double rows = run ? moved / double(run) : 1;
            samples.push_back({moved, 150 + 5 * rows + moved / 20, rows});
        }
    const TransferFit fit = fitTransfer(samples);
    EXPECT_NEAR(fit.rowOverheadCycles, 5, 1e-6);
    EXPECT_NEAR(fit.latencyCycles, 150, 1e-3);
    EXPECT_NEAR(fit.bytesPerCycle, 20, 1e-6);
}

TEST(NewFiguresFit, CopyAndGroupedConvGetTheirOwnThroughputs) {
    // Ground truth: overhead 80 cycles; Concats copy 3 elements per cycle, Transposes 0.8; grouped
    // convolutions 9 MACs per cycle, dense ones 22 (no per-output cost).
    std::vector<ComputeSample> samples;
    for (double scale : {1.0, 2.0, 4.0, 8.0}) {
        const double elements = scale * 2 * 32 * 28 * 28;
        samples.push_back({kCopyClass, elements, 80 + elements / 3, 0});
        samples.push_back({static_cast<std::size_t>(ir::OpClass::DataMovement), elements,
                           80 + elements / 0.8, 0});
        const double macs = scale * 64 * 16 * 9 * 28 * 28;
        samples.push_back({kGroupedConvClass, macs, 80 + macs / 9, 0});
        samples.push_back({kConvClass, 4 * macs, 80 + 4 * macs / 22, 0});
    }
    const ComputeFit fit = fitCompute(samples);
    EXPECT_NEAR(fit.overheadCycles, 80, 1e-3);
    EXPECT_NEAR(fit.throughputPerCycle[kCopyClass], 3, 1e-6);
    EXPECT_NEAR(fit.throughputPerCycle[static_cast<std::size_t>(ir::OpClass::DataMovement)], 0.8,
                1e-6);
    EXPECT_NEAR(fit.throughputPerCycle[kGroupedConvClass], 9, 1e-6);
    EXPECT_NEAR(fit.throughputPerCycle[kConvClass], 22, 1e-6);
    EXPECT_EQ(computeClassName(kCopyClass), "copy");
    EXPECT_EQ(computeClassName(kGroupedConvClass), "grouped_conv");
}

} // namespace
} // namespace strata::calibrate
