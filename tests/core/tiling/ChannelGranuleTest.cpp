// Whole vectors of output channels (BlockTiler's channelGranule): with a host-like granule of 16
// a convolution's tile never has fewer than 16 output channels when the layer has 16 or more,
// and its extent is a multiple of 16 or the whole dimension, while the tile still fits working
// memory. Only where no such grid fits does the tiler go below a vector.

#include "support/TestModels.h"
#include "tiling/BlockTiling.h"

#include <gtest/gtest.h>
#include <string>

namespace strata::tiling {
namespace {

std::vector<ir::OpId> allOps(const ir::Graph& g) {
    std::vector<ir::OpId> ops;
    for (std::uint32_t i = 0; i < g.ops.size(); ++i)
        ops.push_back(ir::OpId(i));
    return ops;
}

// X[1,c,s,s] -> Conv 3x3 pad 1 (c -> k) -> Relu: a ResNet block's conv as `rules` fuses it.
std::shared_ptr<const ir::Graph> convRelu(int c, int k, int s) {
    const std::string n = std::to_string(s), cs = std::to_string(c), ks = std::to_string(k);
    auto m = test::importText("<ir_version: 8, opset_import: [\"\" : 17]>\n"
                              "g (float[1, " +
                              cs + ", " + n + ", " + n + "] X, float[" + ks + ", " + cs +
                              ", 3, 3] W) => (float[1, " + ks + ", " + n + ", " + n +
                              "] Y) {\n"
                              "    A = Conv <pads = [1, 1, 1, 1]> (X, W)\n"
                              "    Y = Relu (A)\n"
                              "}\n");
    EXPECT_TRUE(m.ok()) << test::joined(m.diagnostics());
    return m->graph;
}

void expectWholeVectors(std::int64_t extent, std::int64_t channels, const std::string& where) {
    if (channels < 16) {
        EXPECT_EQ(extent, channels) << where;
        return;
    }
    EXPECT_GE(extent, 16) << where;
    EXPECT_TRUE(extent % 16 == 0 || extent == channels) << where << ": extent " << extent;
}

TEST(ChannelGranule, ConvTilesKeepWholeVectorsAndFit) {
    struct Layer {
        int c, k, s;
    };
    // ResNet-18's 3x3 layers, a stem-like one with 3 input channels, and counts that are not
    // multiples of 16.
    const Layer layers[] = {{64, 64, 56}, {128, 128, 28}, {256, 256, 14}, {512, 512, 7},
                            {3, 24, 56},  {24, 40, 28},   {8, 8, 32}};
    for (const Layer& layer : layers) {
        auto g = convRelu(layer.c, layer.k, layer.s);
        const auto ops = allOps(*g);
        BlockTiler tiler(*g, ops, 16);
        ASSERT_EQ(tiler.channelDim(), std::optional<std::size_t>(1));
        for (std::uint64_t capacity : {256u << 10, 512u << 10, 1u << 20})
            for (int buffering : {1, 2})
                for (std::int64_t cores : {1, 2}) {
                    const std::string where =
                        "c" + std::to_string(layer.c) + " k" + std::to_string(layer.k) + " " +
                        std::to_string(layer.s) + "x" + std::to_string(layer.s) + " in " +
                        std::to_string(capacity >> 10) + " KiB x" + std::to_string(buffering) +
                        " mp " + std::to_string(cores);
                    auto cost = tiler.chooseAndEvaluate(capacity, buffering, cores);
                    if (!cost)
                        continue; // double buffering may not fit: the caller drops to single
                    expectWholeVectors(cost->grid.extents[1], layer.k, where);
                    EXPECT_LE(cost->sramPeakBytes, capacity) << where;
                }
        // Some buffering always fits these layers.
        EXPECT_TRUE(tiler.chooseAndEvaluate(256u << 10, 1, 1)) << layer.c;
    }
}

// Without the granule, the same search cuts ResNet-18's first 3x3 layer into tiles of fewer
// channels than a vector (what made its tiles cost 8x their FLOPs on AVX-512).
TEST(ChannelGranule, WithoutItTheSearchGoesBelowAVector) {
    auto g = convRelu(64, 64, 56);
    const auto ops = allOps(*g);
    auto plain = BlockTiler(*g, ops).chooseAndEvaluate(1u << 20, 2, 1);
    ASSERT_TRUE(plain);
    EXPECT_LT(plain->grid.extents[1], 16);
    auto whole = BlockTiler(*g, ops, 16).chooseAndEvaluate(1u << 20, 2, 1);
    ASSERT_TRUE(whole);
    EXPECT_GE(whole->grid.extents[1], 16);
}

// A transformer's FFN up-projection: the matrix product's columns (the anchor's last dimension)
// are its channels.
TEST(ChannelGranule, MatMulColumnsAreCutInWholeVectors) {
    auto m = test::importText(R"(
<ir_version: 8, opset_import: ["" : 17]>
ffn (float[1, 128, 256] A, float[256, 1000] W) => (float[1, 128, 1000] Y) {
    Y = MatMul (A, W)
}
)");
    ASSERT_TRUE(m.ok()) << test::joined(m.diagnostics());
    const auto ops = allOps(*m->graph);
    BlockTiler tiler(*m->graph, ops, 16);
    ASSERT_EQ(tiler.channelDim(), std::optional<std::size_t>(2));
    for (std::uint64_t capacity : {64u << 10, 256u << 10}) {
        auto cost = tiler.chooseAndEvaluate(capacity, 2, 2);
        ASSERT_TRUE(cost) << capacity;
        expectWholeVectors(cost->grid.extents[2], 1000, std::to_string(capacity));
        EXPECT_LE(cost->sramPeakBytes, capacity);
    }
}

// Relu -> Conv 3x3 (64 -> 32): the conv's input is made in the block, so its input channels
// cannot be sliced, and 16 output channels' weights alone (36 KiB) exceed 16 KiB. Below a
// vector is then the only way to fit, and the tiler takes it rather than fail.
TEST(ChannelGranule, BelowAVectorOnlyWhenNothingElseFits) {
    auto m = test::importText(R"(
<ir_version: 8, opset_import: ["" : 17]>
g (float[1, 64, 16, 16] X, float[32, 64, 3, 3] W) => (float[1, 32, 16, 16] Y) {
    R = Relu (X)
    Y = Conv <pads = [1, 1, 1, 1]> (R, W)
}
)");
    ASSERT_TRUE(m.ok()) << test::joined(m.diagnostics());
    const auto ops = allOps(*m->graph);
    BlockTiler tiler(*m->graph, ops, 16);
    const std::uint64_t capacity = 16u << 10;
    auto cost = tiler.chooseAndEvaluate(capacity, 1, 1);
    ASSERT_TRUE(cost);
    EXPECT_LT(cost->grid.extents[1], 16);
    EXPECT_LE(cost->sramPeakBytes, capacity);
    EXPECT_TRUE(cost->partialVectors); // fuse-max takes no fusion that needs this
    // With room for a vector's weights, whole vectors again.
    auto roomy = tiler.chooseAndEvaluate(128u << 10, 1, 1);
    ASSERT_TRUE(roomy);
    EXPECT_GE(roomy->grid.extents[1], 16);
    EXPECT_FALSE(roomy->partialVectors);
}

TEST(ChannelGranule, NoChannelDimensionWhereTheAnchorLosesIt) {
    auto m = test::importText(R"(
<ir_version: 8, opset_import: ["" : 17]>
g (float[1, 8, 16, 16] X, float[32, 8, 3, 3] W) => (float[1, 32] Y) {
    A = Conv <pads = [1, 1, 1, 1]> (X, W)
    P = GlobalAveragePool (A)
    Y = Flatten (P)
}
)");
    ASSERT_TRUE(m.ok()) << test::joined(m.diagnostics());
    const auto ops = allOps(*m->graph);
    EXPECT_FALSE(BlockTiler(*m->graph, ops, 16).channelDim());
    EXPECT_EQ(BlockTiler(*m->graph, std::vector<ir::OpId>{ops[0], ops[1]}, 16).channelDim(),
              std::optional<std::size_t>(1)); // the pool keeps the channels
}

} // namespace
} // namespace strata::tiling
