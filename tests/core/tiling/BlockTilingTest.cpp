// Depth-first tiling of a block: halos, recompute, DRAM traffic and working set, checked against
// numbers worked out by hand for a two-conv chain.

#include "tiling/BlockTiling.h"

#include "support/TestModels.h"

#include <gtest/gtest.h>

namespace strata::tiling {
namespace {

// X[1,4,8,8] -> Conv 3x3 pad 1 -> Relu -> Conv 3x3 pad 1 -> Relu -> Y; weights are inputs.
std::shared_ptr<const ir::Graph> convChain() {
    auto m = test::importText(R"(
<ir_version: 8, opset_import: ["" : 17]>
chain (float[1, 4, 8, 8] X, float[4, 4, 3, 3] W1, float[4, 4, 3, 3] W2) => (float[1, 4, 8, 8] Y) {
    A = Conv <pads = [1, 1, 1, 1]> (X, W1)
    B = Relu (A)
    C = Conv <pads = [1, 1, 1, 1]> (B, W2)
    Y = Relu (C)
}
)");
    EXPECT_TRUE(m.ok()) << test::joined(m.diagnostics());
    return m->graph;
}

std::vector<ir::OpId> allOps(const ir::Graph& g) {
    std::vector<ir::OpId> ops;
    for (std::uint32_t i = 0; i < g.ops.size(); ++i)
        ops.push_back(ir::OpId(i));
    return ops;
}

TEST(TileGrid, CountsAndPositions) {
    TileGrid g = makeGrid({1, 4, 8, 10}, {1, 4, 3, 10});
    EXPECT_EQ(g.counts, (std::vector<std::int64_t>{1, 1, 3, 1}));
    EXPECT_EQ(g.tileCount(), 3);
    EXPECT_EQ(g.position(2), (std::vector<std::int64_t>{0, 0, 2, 0}));
}

TEST(BlockTiler, FindsInputsOutputsAndAnchor) {
    auto g = convChain();
    auto ops = allOps(*g);
    BlockTiler tiler(*g, ops);
    EXPECT_EQ(g->value(tiler.anchor()).name, "Y");
    ASSERT_EQ(tiler.blockInputs().size(), 3u); // X, W1, W2
    ASSERT_EQ(tiler.blockOutputs().size(), 1u);

    // A block of the first two ops stores B, the value the rest of the graph reads.
    BlockTiler head(*g, std::vector<ir::OpId>{ops[0], ops[1]});
    EXPECT_EQ(g->value(head.anchor()).name, "B");
}

// Two tiles of 4 rows: conv2 needs rows [0,5) and [3,8) of B (a halo of one row each side,
// clamped at the border), so conv1 and relu1 compute 10 rows instead of 8 and X is read as
// rows [0,6) and [2,8).
TEST(BlockTiler, FusedConvChainHaloRecomputeAndTraffic) {
    auto g = convChain();
    auto ops = allOps(*g);
    BlockTiler tiler(*g, ops);
    TileGrid grid = makeGrid(tiler.anchorShape(), {1, 4, 4, 8});
    BlockCost cost = tiler.evaluate(grid, /*buffering=*/1, /*mp=*/1);

    EXPECT_EQ(cost.tiles(), 2);
    double conv1 = g->ops[0].cost.flops, relu1 = g->ops[1].cost.flops;
    double conv2 = g->ops[2].cost.flops, relu2 = g->ops[3].cost.flops;
    EXPECT_DOUBLE_EQ(cost.unfusedFlops, conv1 + relu1 + conv2 + relu2);
    EXPECT_DOUBLE_EQ(cost.flops, (conv1 + relu1) * 10.0 / 8.0 + conv2 + relu2);
    EXPECT_GT(cost.recomputeRatio(), 0.0);

    const std::uint64_t row = 4 * 8 * 4; // 4 channels x 8 columns x 4 bytes
    const std::uint64_t weights = 4 * 4 * 3 * 3 * 4;
    EXPECT_EQ(cost.dramReadBytes, 12 * row + 2 * weights); // X halos, weights once
    EXPECT_EQ(cost.dramWriteBytes, 8 * row);               // Y once

    // Resident W1 and W2, and a slot where X's 6 rows and A's 5 rows are live together at conv1
    // (B, C and Y reuse their space).
    EXPECT_EQ(cost.sramPeakBytes, 6 * row + 2 * weights + 5 * row);
    // ... reported as its parts: W1 and W2 resident, one slot of X's and A's rows.
    EXPECT_EQ(cost.sramResidentBytes, 2 * weights);
    EXPECT_EQ(cost.sramSlotBytes, 6 * row + 5 * row);
    EXPECT_EQ(cost.sramSlots, 1);
}

TEST(BlockTiler, PlanTileListsLoadsComputesAndStores) {
    auto g = convChain();
    auto ops = allOps(*g);
    BlockTiler tiler(*g, ops);
    TilePlan plan = tiler.planTile(makeGrid(tiler.anchorShape(), {1, 4, 4, 8}), 1); // rows [4,8)
    auto rows = [](std::int64_t b, std::int64_t e) {
        return Region{{0, 1}, {0, 4}, {b, e}, {0, 8}};
    };
    EXPECT_EQ(plan.anchor, rows(4, 8));
    ASSERT_EQ(plan.loads.size(), 3u);
    EXPECT_EQ(g->value(plan.loads[0].first).name, "X");
    EXPECT_EQ(plan.loads[0].second, rows(2, 8));
    EXPECT_EQ(plan.loads[1].second, (Region{{0, 4}, {0, 4}, {0, 3}, {0, 3}}));
    EXPECT_EQ(plan.ops, ops);
    ASSERT_EQ(plan.computed.size(), 4u); // A, B, C, Y
    EXPECT_EQ(plan.computed[0].second, rows(3, 8));
    EXPECT_EQ(plan.computed[3].second, rows(4, 8));
    ASSERT_EQ(plan.stores.size(), 1u);
    EXPECT_EQ(g->value(plan.stores[0].first).name, "Y");
    EXPECT_EQ(plan.stores[0].second, rows(4, 8));
}

TEST(BlockTiler, DoubleBufferingDoublesTheTransferredBuffers) {
    auto g = convChain();
    auto ops = allOps(*g);
    BlockTiler tiler(*g, ops);
    TileGrid grid = makeGrid(tiler.anchorShape(), {1, 4, 4, 8});
    const std::uint64_t row = 4 * 8 * 4, weights = 4 * 4 * 3 * 3 * 4;
    BlockCost single = tiler.evaluate(grid, 1, 1);
    BlockCost twice = tiler.evaluate(grid, 2, 1);
    // The weights are read whole, so they stay resident; everything else of a tile lives in its
    // slot, and double buffering keeps a second slot for the next tile.
    const std::uint64_t slot = single.sramPeakBytes - 2 * weights;
    EXPECT_EQ(twice.sramPeakBytes, single.sramPeakBytes + slot);
    EXPECT_EQ(slot, 6 * row + 5 * row); // X's rows and A's rows are live together at conv1
    // The parts: the same resident weights and slot, two slots instead of one.
    EXPECT_EQ(twice.sramResidentBytes, 2 * weights);
    EXPECT_EQ(twice.sramSlotBytes, slot);
    EXPECT_EQ(twice.sramSlots, 2);
    EXPECT_EQ(twice.sramPeakBytes, twice.sramResidentBytes + 2 * twice.sramSlotBytes);
}

TEST(BlockTiler, WeightsAreLoadedOncePerCore) {
    auto g = convChain();
    auto ops = allOps(*g);
    BlockTiler tiler(*g, ops);
    TileGrid grid = makeGrid(tiler.anchorShape(), {1, 4, 2, 8}); // 4 tiles
    const std::uint64_t weights = 4 * 4 * 3 * 3 * 4;
    BlockCost oneCore = tiler.evaluate(grid, 1, 1);
    BlockCost twoCores = tiler.evaluate(grid, 1, 2);
    EXPECT_EQ(twoCores.dramReadBytes, oneCore.dramReadBytes + 2 * weights);
}

TEST(BlockTiler, UnfusedBlocksHaveNoRecompute) {
    auto g = convChain();
    for (std::uint32_t i = 0; i < g->ops.size(); ++i) {
        BlockTiler tiler(*g, std::vector<ir::OpId>{ir::OpId(i)});
        TileGrid grid = makeGrid(tiler.anchorShape(), {1, 4, 2, 8});
        EXPECT_DOUBLE_EQ(tiler.evaluate(grid, 1, 1).recomputeRatio(), 0.0) << g->ops[i].name;
    }
}

TEST(BlockTiler, ChooseGridFitsTheCapacityWithEnoughTiles) {
    auto g = convChain();
    auto ops = allOps(*g);
    BlockTiler tiler(*g, ops);
    const std::uint64_t whole =
        tiler.evaluate(makeGrid(tiler.anchorShape(), tiler.anchorShape()), 1, 1).sramPeakBytes;

    auto roomy = tiler.chooseGrid(whole, 1, 1);
    ASSERT_TRUE(roomy);
    EXPECT_EQ(roomy->tileCount(), 1);

    auto tight = tiler.chooseGrid(whole * 3 / 4, 1, 1);
    ASSERT_TRUE(tight);
    EXPECT_GT(tight->tileCount(), 1);
    EXPECT_LE(tiler.evaluate(*tight, 1, 1).sramPeakBytes, whole * 3 / 4);

    auto parallel = tiler.chooseGrid(whole, 1, 4);
    ASSERT_TRUE(parallel);
    EXPECT_GE(parallel->tileCount(), 4);

    // In 1 KiB no whole tile fits; the first conv's input channels are sliced. In 64 bytes not
    // even one output channel's weights of the second conv (made in the block, unsliced) fit.
    auto sliced = tiler.chooseGrid(1024, 1, 1);
    ASSERT_TRUE(sliced);
    EXPECT_GT(sliced->sliceChannels, 0);
    EXPECT_LE(tiler.evaluate(*sliced, 1, 1).sramPeakBytes, 1024u);
    EXPECT_FALSE(tiler.chooseGrid(64, 1, 1));
}

} // namespace
} // namespace strata::tiling

namespace strata::tiling {
namespace {

// A transformer's FFN up-projection: A[1,128,256] x W[256,1024], W an initializer.
std::shared_ptr<const ir::Graph> ffnUp() {
    auto proto = test::modelProto(R"(
<ir_version: 8, opset_import: ["" : 17]>
ffn (float[1, 128, 256] A, float[256, 1024] W) => (float[1, 128, 1024] Y) {
    Y = MatMul (A, W)
}
)");
    auto* w = proto.mutable_graph()->add_initializer();
    w->set_name("W");
    w->set_data_type(onnx::TensorProto::FLOAT);
    w->add_dims(256);
    w->add_dims(1024);
    w->set_raw_data(std::string(256 * 1024 * 4, '\0'));
    auto m = test::importProto(proto);
    EXPECT_TRUE(m.ok()) << test::joined(m.diagnostics());
    return m->graph;
}

// In 256 KiB with double buffering, [1,64,32] tiles fit (A 64 KiB + W 32 KiB + Y 8 KiB, doubled)
// and read about 6 MiB; thin tiles would re-read A for every column.
TEST(BlockTiler, ChooseGridKeepsMatMulTrafficLow) {
    auto g = ffnUp();
    std::vector<ir::OpId> ops{ir::OpId(0)};
    BlockTiler tiler(*g, ops);
    auto cost = tiler.chooseAndEvaluate(256 * 1024, 2, 8);
    ASSERT_TRUE(cost);
    EXPECT_LE(cost->sramPeakBytes, 256u * 1024);
    EXPECT_GE(cost->tiles(), 8);
    EXPECT_LE(cost->dramReadBytes, 8u << 20) << ir::shapeToString(cost->grid.extents);
}

} // namespace
} // namespace strata::tiling

namespace strata::tiling {
namespace {

// FCN's dilated layer-4 convolution on MN-Core 2's 256 KiB: halving output channels first (the
// weights are most of the working set) leaves only 1-channel grids, which need 100,352 tiles of
// 2x2 pixels; a grid of 2 channels x 2x2 pixels fits in 50,176. The tiler finds one under the cap.
TEST(BlockTiler, BalancedCutFitsWhereChannelsFirstNeedsTooManyTiles) {
    auto m = test::importText(R"(
<ir_version: 8, opset_import: ["" : 17]>
g (float[1, 512, 28, 28] X, float[512, 512, 3, 3] W) => (float[1, 512, 28, 28] Y) {
    Y = Conv <dilations = [4, 4], pads = [4, 4, 4, 4]> (X, W)
}
)");
    ASSERT_TRUE(m.ok()) << test::joined(m.diagnostics());
    const auto ops = allOps(*m->graph);
    BlockTiler tiler(*m->graph, ops);
    const std::uint64_t capacity = 256 * 1024;
    auto cost = tiler.chooseAndEvaluate(capacity, 1, 8);
    ASSERT_TRUE(cost);
    EXPECT_LE(cost->tiles(), kMaxTilesPerBlock);
    EXPECT_LE(cost->sramPeakBytes, capacity);
    EXPECT_EQ(tiler.evaluate(cost->grid, 1, 8).sramPeakBytes, cost->sramPeakBytes);
}

} // namespace
} // namespace strata::tiling

namespace strata::tiling {
namespace {

// X[1,64,8,8] -> Conv 3x3 pad 1 (64 -> 8, bias) -> Y: one output element reads 64 channels of a
// 3x3 box and 64 x 3 x 3 weights, 4.5 KiB, more than a 4 KiB working memory holds.
std::shared_ptr<const ir::Graph> wideConv() {
    auto m = test::importText(R"(
<ir_version: 8, opset_import: ["" : 17]>
g (float[1, 64, 8, 8] X, float[8, 64, 3, 3] W, float[8] B) => (float[1, 8, 8, 8] Y) {
    Y = Conv <pads = [1, 1, 1, 1]> (X, W, B)
}
)");
    EXPECT_TRUE(m.ok()) << test::joined(m.diagnostics());
    return m->graph;
}

TEST(BlockTiler, SlicesInputChannelsWhenNoTileFits) {
    auto g = wideConv();
    const auto ops = allOps(*g);
    BlockTiler tiler(*g, ops);
    ASSERT_EQ(tiler.slicedOp(), ops[0]);
    const std::uint64_t capacity = 4096;
    ASSERT_GT(tiler.elementTileFootprint(2), capacity); // unsliced, not even 1-element tiles fit

    auto cost = tiler.chooseAndEvaluate(capacity, 2, 1);
    ASSERT_TRUE(cost);
    const std::int64_t slice = cost->grid.sliceChannels;
    EXPECT_GT(slice, 0);
    EXPECT_LT(slice, 64);
    EXPECT_LE(cost->sramPeakBytes, capacity);
    // Every channel of X and of W is read at least once, slices or not.
    EXPECT_GE(cost->dramReadBytes, g->value(g->inputs[0]).bytes() + g->value(g->inputs[1]).bytes());

    const TilePlan plan = tiler.planTile(cost->grid, 0);
    EXPECT_EQ(plan.slicedOp, ops[0]);
    EXPECT_EQ(plan.slices(), (64 + slice - 1) / slice);
    for (const auto& [value, region] : plan.loads)
        if (value == g->inputs[0] || value == g->inputs[1]) {
            EXPECT_EQ(region[1], (Interval{0, slice}));
        }

    // Where whole tiles fit, nothing is sliced.
    auto roomy = tiler.chooseAndEvaluate(1 << 20, 2, 1);
    ASSERT_TRUE(roomy);
    EXPECT_EQ(roomy->grid.sliceChannels, 0);
}

// Slices are the last resort: where whole 1-element tiles fit single-buffered (4.5 KiB), double
// buffering gives nothing and the caller drops to single buffering, unsliced.
TEST(BlockTiler, NoSlicesWhereSingleBufferingFits) {
    auto g = wideConv();
    const auto ops = allOps(*g);
    BlockTiler tiler(*g, ops);
    const std::uint64_t capacity = 5 * 1024;
    EXPECT_FALSE(tiler.chooseAndEvaluate(capacity, 2, 1));
    auto single = tiler.chooseAndEvaluate(capacity, 1, 1);
    ASSERT_TRUE(single);
    EXPECT_EQ(single->grid.sliceChannels, 0);
}

TEST(BlockTiler, ChannelSliceCutsDimensionOne) {
    const Region r{{0, 1}, {0, 10}, {2, 5}, {0, 3}};
    EXPECT_EQ(channelSlice(r, 4, 0, 10)[1], (Interval{0, 4}));
    EXPECT_EQ(channelSlice(r, 4, 2, 10)[1], (Interval{8, 10})); // the last slice is shorter
    EXPECT_EQ(channelSlice(r, 4, 2, 10)[2], (Interval{2, 5}));
    EXPECT_EQ(channelSlice(r, 0, 1, 10), r);
}

} // namespace
} // namespace strata::tiling

namespace strata::tiling {
namespace {

// X[1,8,4] -> Transpose -> T[1,4,8] -> MatMul W[8,16] -> Y[1,4,16]: tiles of 4 output columns
// each need all of T, so the Transpose (no FLOPs) is recomputed whole by each of the 4 tiles.
TEST(BlockTiler, ElementRecomputeCountsOpsWithoutFlops) {
    auto m = test::importText(R"(
<ir_version: 8, opset_import: ["" : 17]>
t (float[1, 8, 4] X, float[8, 16] W) => (float[1, 4, 16] Y) {
    T = Transpose <perm = [0, 2, 1]> (X)
    Y = MatMul (T, W)
}
)");
    ASSERT_TRUE(m.ok()) << test::joined(m.diagnostics());
    const ir::Graph& g = *m->graph;
    BlockTiler tiler(g, allOps(g));
    const BlockCost cost = tiler.evaluate(makeGrid(tiler.anchorShape(), {1, 4, 4}), 1, 1);
    EXPECT_DOUBLE_EQ(cost.unfusedElements, 32.0 + 64.0);
    EXPECT_DOUBLE_EQ(cost.elements, 4 * 32.0 + 64.0); // T four times, Y once
    EXPECT_DOUBLE_EQ(cost.elementRecomputeRatio(), (4 * 32.0 + 64.0) / 96.0 - 1.0);
    EXPECT_LT(cost.recomputeRatio(), cost.elementRecomputeRatio());

    const BlockCost whole = tiler.evaluate(makeGrid(tiler.anchorShape(), {1, 4, 16}), 1, 1);
    EXPECT_DOUBLE_EQ(whole.elementRecomputeRatio(), 0.0);
}

} // namespace
} // namespace strata::tiling

namespace strata::tiling {
namespace {

// ShuffleNet's unit in small: Y = Concat(X1, convs(X2)). Cutting Y's channels in two adds no
// traffic (each half reads its own input) but leaves one tile a copy and the other every
// convolution; with two cores to feed, the grid must give each core about half the work.
TEST(BlockTiler, ChooseGridKeepsTheCoresWorkEven) {
    auto m = test::importText(R"(
<ir_version: 8, opset_import: ["" : 17]>
unit (float[1, 4, 8, 8] X1, float[1, 4, 8, 8] X2, float[4, 4, 1, 1] W1, float[4, 1, 3, 3] W2)
    => (float[1, 8, 8, 8] Y) {
    A = Conv (X2, W1)
    B = Relu (A)
    C = Conv <pads = [1, 1, 1, 1], group = 4> (B, W2)
    Y = Concat <axis = 1> (X1, C)
}
)");
    ASSERT_TRUE(m.ok()) << test::joined(m.diagnostics());
    const ir::Graph& g = *m->graph;
    BlockTiler tiler(g, allOps(g));
    const int cores = 2;
    for (const std::uint64_t capacity : {std::uint64_t{1} << 20, std::uint64_t{4096}}) {
        auto grid = tiler.chooseGrid(capacity, 1, cores);
        ASSERT_TRUE(grid);
        // Tiles go to the cores in contiguous runs (DistributeTiles).
        std::vector<double> flops(cores, 0.0);
        const std::int64_t tiles = grid->tileCount();
        for (std::int64_t t = 0; t < tiles; ++t)
            flops[static_cast<std::size_t>(t * cores / tiles)] += tiler.planTile(*grid, t).flops;
        const double total = flops[0] + flops[1];
        ASSERT_GT(total, 0.0);
        EXPECT_LE(std::max(flops[0], flops[1]) * cores / total, kMaxCoreImbalance)
            << "capacity " << capacity << ": " << flops[0] << " vs " << flops[1] << " FLOPs";
    }
}

} // namespace
} // namespace strata::tiling
