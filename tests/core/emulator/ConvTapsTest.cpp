// A convolution's taps that fall in the padding are skipped by the host's kernels, so the emulator
// charges a compute the MACs of the taps that land inside the input (emulator/ConvTaps.h).
// Shares worked out by hand: along one dim, each output position counts the kernel taps whose
// input index o x stride - pad + k x dilation lies in [0, in).

#include "emulator/ConvTaps.h"

#include "EmulatorFixtures.h"
#include "emulator/Emulator.h"

#include <gtest/gtest.h>

namespace strata::emulator {
namespace {

// x [1, 8, 14, 14] -> a 3x3 Conv with the given dilation, padded to keep 14 x 14 -> y.
ir::Graph dilatedConv(std::int64_t dilation) {
    return test::convGraph("dilated", {1, 8, 14, 14}, {8, 8, 3, 3}, {1, 8, 14, 14},
                           {{"pads", std::vector<std::int64_t>(4, dilation)},
                            {"dilations", std::vector<std::int64_t>{dilation, dilation}}});
}

compiler::Compute outputBox(tiling::Interval rows, tiling::Interval columns) {
    compiler::Compute c;
    c.opType = "Conv";
    c.outputs.push_back({ir::ValueId(2), {{0, 1}, {0, 8}, rows, columns}, 0});
    return c;
}

TEST(ConvTaps, OnlyTheCentreTapOfAWideDilationReadsTheInput) {
    // Dilation 24 on 14 x 14: the outer taps of every position lie outside.
    const ir::Graph g = dilatedConv(24);
    EXPECT_DOUBLE_EQ(inBoundsTapShare(outputBox({0, 14}, {0, 14}), g.ops[0], g), 1.0 / 9);
}

TEST(ConvTaps, DilationTwelveKeepsTheOuterTapsOfTheEdgePositions) {
    // Per dim: 14 centre taps, and the +12 / -12 taps of positions 0-1 / 12-13: 18 of 42.
    const ir::Graph g = dilatedConv(12);
    const double perDim = 18.0 / 42;
    EXPECT_DOUBLE_EQ(inBoundsTapShare(outputBox({0, 14}, {0, 14}), g.ops[0], g), perDim * perDim);
}

TEST(ConvTaps, AnEdgeTileSkipsMoreThanAMiddleOne) {
    // Unit padding: the first row's top taps fall outside, the middle rows' do not.
    const ir::Graph g = dilatedConv(1);
    const double top = inBoundsTapShare(outputBox({0, 2}, {0, 14}), g.ops[0], g);
    const double middle = inBoundsTapShare(outputBox({6, 8}, {0, 14}), g.ops[0], g);
    EXPECT_DOUBLE_EQ(middle, 40.0 / 42);            // every row's taps in; the columns' edges not
    EXPECT_DOUBLE_EQ(top, (5.0 / 6) * (40.0 / 42)); // row 0 loses one of its three
}

TEST(ConvTaps, OtherOpsAndUnpaddedWindowsApplyEveryTap) {
    const ir::Graph g = dilatedConv(24);
    ir::Op transpose = g.ops[0];
    transpose.type = "ConvTranspose";
    EXPECT_DOUBLE_EQ(inBoundsTapShare(outputBox({0, 14}, {0, 14}), transpose, g), 1.0);
    EXPECT_DOUBLE_EQ(inBoundsTapShare(compiler::Compute{}, g.ops[0], g), 1.0); // no box
}

TEST(ConvTaps, TheEmulatorChargesADilatedConvolutionItsTapsInside) {
    // The tiny target: 1 MAC per cycle, no overheads, 1 cycle = 1 ns. 196 x 8 outputs x 72 MACs.
    auto durationNs = [](std::int64_t dilation) {
        const ir::Graph g = dilatedConv(dilation);
        compiler::Compute c = outputBox({0, 14}, {0, 14});
        c.flops = 2.0 * 196 * 8 * 72;
        return test::computeDurationNs(std::move(c), g);
    };
    EXPECT_EQ(durationNs(24), 196 * 8 * 72 / 9);
    EXPECT_EQ(durationNs(1), 196 * 8 * 72 * 40 * 40 / (42 * 42));
}

} // namespace
} // namespace strata::emulator
