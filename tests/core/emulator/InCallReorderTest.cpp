// A dense convolution on oneDNN's direct kernel pays for reordering its boxes that are not
// channels-last (ComputeCost.h's inCallReorderCycles) at the data_movement figure, as the
// emulator times it. Numbers derived by hand from the tiny target (1 MAC per cycle, 1 element per
// cycle for every other class, no overheads, 1 cycle = 1 ns). A reorder compute pays
// overhead_cycles.reorder_far_byte per byte of its boxes beyond the private cache.

#include "EmulatorFixtures.h"
#include "emulator/ComputeCost.h"
#include "emulator/Emulator.h"

#include <gtest/gtest.h>

namespace strata::emulator {
namespace {

// x (value 0, [1, 2, 4, 4]), w (value 1, [4, 2, 3, 3] constant weights), y (value 2,
// [1, 4, 4, 4]); a 3x3 Conv with unit padding (op 0).
const ir::Graph& convGraph() {
    static const ir::Graph graph =
        test::convGraph("reorders", {1, 2, 4, 4}, {4, 2, 3, 3}, {1, 4, 4, 4},
                        {{"pads", std::vector<std::int64_t>{1, 1, 1, 1}}});
    return graph;
}

// The whole convolution as one compute: 64 outputs x 18 MACs = 1,152 MACs, of which the taps
// inside the 4 x 4 input are 10 of 12 per dim (ConvTaps.h): 800; input box 32 elements, output
// box 64, in the given layouts.
std::int64_t durationNs(int inputLayout, int outputLayout) {
    compiler::Compute c;
    c.opType = "Conv";
    c.flops = 2 * 1152;
    c.inputs.push_back({ir::ValueId(0), tiling::fullRegion({1, 2, 4, 4}), 0, inputLayout});
    c.inputs.push_back({ir::ValueId(1), tiling::fullRegion({4, 2, 3, 3}), 4096});
    c.outputs.push_back({ir::ValueId(2), tiling::fullRegion({1, 4, 4, 4}), 8192, outputLayout});
    return test::computeDurationNs(std::move(c), convGraph());
}

TEST(InCallReorder, RowMajorBoxesOfADenseConvCostWhatTheirReorderWould) {
    const int nhwc = compiler::kChannelsLast;
    EXPECT_EQ(durationNs(nhwc, nhwc), 800);   // the MACs alone
    EXPECT_EQ(durationNs(0, nhwc), 800 + 32); // the input box reordered in
    EXPECT_EQ(durationNs(nhwc, 0), 800 + 64); // the output box reordered out
    EXPECT_EQ(durationNs(0, 0), 800 + 32 + 64);
}

// A reorder (compiler::kReorderOp) of y's box into channels-last, in place: it reads and writes
// 64 floats, 512 bytes of boxes.
compiler::Compute reorderOfY() {
    compiler::Compute c;
    c.opType = compiler::kReorderOp;
    c.inputs.push_back({ir::ValueId(2), tiling::fullRegion({1, 4, 4, 4}), 8192, 0});
    c.outputs.push_back(
        {ir::ValueId(2), tiling::fullRegion({1, 4, 4, 4}), 8192, compiler::kChannelsLast});
    return c;
}

TEST(InCallReorder, AReordersBoxesBeyondThePrivateCachePayTheFarCostPerByte) {
    target::Target target = test::tinyTarget();
    // 64 elements at 1 per cycle, whatever the cache.
    EXPECT_EQ(test::computeDurationNs(reorderOfY(), convGraph(), target), 64);
    target.overheads.reorderFarByteCycles = 0.5;
    EXPECT_EQ(test::computeDurationNs(reorderOfY(), convGraph(), target), 64); // no cache known
    // A private cache of 256 bytes: 512 - 256 bytes beyond it at 0.5 cycles each.
    target.privateCacheBytes = 256;
    EXPECT_EQ(test::computeDurationNs(reorderOfY(), convGraph(), target), 64 + 128);
    // Boxes that fit the cache pay nothing more.
    target.privateCacheBytes = 512;
    EXPECT_EQ(test::computeDurationNs(reorderOfY(), convGraph(), target), 64);
    EXPECT_DOUBLE_EQ(reorderFarBytes(512, target), 0);
    target.privateCacheBytes = 100;
    EXPECT_DOUBLE_EQ(reorderFarBytes(512, target), 412);
}

} // namespace
} // namespace strata::emulator
