// Which rate a convolution runs at: pointwise (any dense 1x1 window) ones at the target's
// pointwise_conv figure, depthwise ones at depthwise_conv, the rest at conv; each optional figure
// defaulting to conv's. What a dense convolution pays to reorder boxes that are not channels-last.

#include "emulator/ComputeCost.h"

#include "EmulatorFixtures.h"
#include "emulator/CopyRuns.h"

#include <gtest/gtest.h>

namespace strata::emulator {
namespace {

using test::floatValue;

ir::Op conv(const char* name, std::uint32_t weights, std::vector<ir::Attribute> attributes = {}) {
    ir::Op op;
    op.name = name;
    op.type = "Conv";
    op.opClass = ir::OpClass::Conv;
    op.inputs = {ir::ValueId(0), ir::ValueId(weights)};
    op.attributes = std::move(attributes);
    return op;
}

ir::Attribute ints(const char* name, std::vector<std::int64_t> v) { return {name, std::move(v)}; }

// Values: x [1,8,16,16], 1x1 weights [16,8,1,1], 3x3 weights [16,8,3,3], depthwise 1x1 [8,1,1,1].
// Ops: pointwise, 3x3, strided 1x1, padded 1x1, depthwise 1x1, a 1x1 with explicit unit strides.
const ir::Graph& convs() {
    static const ir::Graph graph = [] {
        ir::Graph g;
        g.name = "convs";
        g.values = {floatValue("x", {1, 8, 16, 16}), floatValue("w1", {16, 8, 1, 1}), floatValue("w3", {16, 8, 3, 3}),
                    floatValue("wdw", {8, 1, 1, 1})};
        g.ops = {conv("pointwise", 1),
                 conv("dense3x3", 2, {ints("pads", {1, 1, 1, 1})}),
                 conv("strided1x1", 1, {ints("strides", {2, 2})}),
                 conv("padded1x1", 1, {ints("pads", {1, 1, 1, 1})}),
                 conv("depthwise1x1", 3, {{"group", std::int64_t{8}}}),
                 conv("unitStrides1x1", 1, {ints("strides", {1, 1}), ints("pads", {0, 0, 0, 0})})};
        g.finalize();
        return g;
    }();
    return graph;
}

TEST(ComputeCost, PointwiseConvIsAnyDense1x1Window) {
    const ir::Graph& g = convs();
    EXPECT_TRUE(isPointwiseConv(g.ops[0], g));
    EXPECT_FALSE(isPointwiseConv(g.ops[1], g)); // 3x3
    // Strided and padded 1x1 windows run the same matrix product (over a gathered input).
    EXPECT_TRUE(isPointwiseConv(g.ops[2], g));
    EXPECT_TRUE(isPointwiseConv(g.ops[3], g));
    EXPECT_FALSE(isPointwiseConv(g.ops[4], g)); // depthwise wins
    EXPECT_TRUE(isDepthwiseConv(g.ops[4], g));
    EXPECT_TRUE(isPointwiseConv(g.ops[5], g));
    EXPECT_FALSE(isPointwiseConv(test::tinyGraph().ops[0], test::tinyGraph())); // no weights
}

TEST(ComputeCost, EachConvKindRunsAtItsFigureOrConvs) {
    const ir::Graph& g = convs();
    target::Target t = test::tinyTarget();
    t.throughput.of(ir::OpClass::Conv) = 10;
    for (const ir::Op& op : g.ops) EXPECT_EQ(throughputOf(op, g, t), 10) << op.name; // no optional figures
    t.throughput.pointwiseConvPerCycle = 17;
    t.throughput.depthwiseConvPerCycle = 0.5;
    EXPECT_EQ(throughputOf(g.ops[0], g, t), 17);
    EXPECT_EQ(throughputOf(g.ops[1], g, t), 10);
    EXPECT_EQ(throughputOf(g.ops[2], g, t), 17); // strided 1x1: the matrix product's figure
    EXPECT_EQ(throughputOf(g.ops[3], g, t), 17); // padded 1x1: the same
    EXPECT_EQ(throughputOf(g.ops[4], g, t), 0.5);
    EXPECT_EQ(throughputOf(g.ops[5], g, t), 17);
}

TEST(ComputeCost, ADenseConvReordersItsBoxesThatAreNotChannelsLast) {
    // The 3x3 convolution on a tile of 8 output rows: input box 1x8x10x16 (1,280 elements),
    // output box 1x16x8x16 (2,048), weights 16x8x3x3 (never reordered: packed once).
    const ir::Graph& g = convs();
    compiler::Compute tile;
    tile.inputs = {{ir::ValueId(0), {{0, 1}, {0, 8}, {0, 10}, {0, 16}}, 0},
                   {ir::ValueId(2), tiling::fullRegion({16, 8, 3, 3}), 0}};
    tile.outputs = {{ir::ValueId(0), {{0, 1}, {0, 16}, {0, 8}, {0, 16}}, 0}};
    EXPECT_DOUBLE_EQ(inCallReorderElements(tile, g.ops[1], g), 1280.0 + 2048.0); // both row-major
    tile.inputs[0].channelBlock = compiler::kChannelsLast;
    EXPECT_DOUBLE_EQ(inCallReorderElements(tile, g.ops[1], g), 2048.0); // the output only
    tile.outputs[0].channelBlock = 16; // channel-blocked: reordered too
    EXPECT_DOUBLE_EQ(inCallReorderElements(tile, g.ops[1], g), 2048.0);
    tile.outputs[0].channelBlock = compiler::kChannelsLast;
    EXPECT_DOUBLE_EQ(inCallReorderElements(tile, g.ops[1], g), 0.0); // read and written as is
    // 1x1 windows run sgemm: no reorder.
    tile.inputs[0].channelBlock = tile.outputs[0].channelBlock = 0;
    EXPECT_DOUBLE_EQ(inCallReorderElements(tile, g.ops[0], g), 0.0);
    EXPECT_DOUBLE_EQ(inCallReorderElements(tile, g.ops[2], g), 0.0);
    // A depthwise one over a row-major input box copies its planes (the input box's elements);
    // over a channels-last one it transposes each output row it writes into a row-major box, and
    // into a channels-last one it writes the rows as they are.
    EXPECT_DOUBLE_EQ(inCallReorderElements(tile, g.ops[4], g), 1280.0);
    tile.inputs[0].channelBlock = compiler::kChannelsLast;
    EXPECT_DOUBLE_EQ(inCallReorderElements(tile, g.ops[4], g), 2048.0);
    tile.outputs[0].channelBlock = compiler::kChannelsLast;
    EXPECT_DOUBLE_EQ(inCallReorderElements(tile, g.ops[4], g), 0.0);
    tile.inputs[0].channelBlock = tile.outputs[0].channelBlock = 0;
    // At the data_movement figure, as an explicit reorder of the same boxes: 3,328 / 0.5.
    target::Target t = test::tinyTarget();
    t.throughput.of(ir::OpClass::DataMovement) = 0.5;
    EXPECT_DOUBLE_EQ(inCallReorderCycles(tile, g.ops[1], g, t), 3328.0 / 0.5);
    t.throughput.of(ir::OpClass::DataMovement) = 0;
    EXPECT_DOUBLE_EQ(inCallReorderCycles(tile, g.ops[1], g, t), 0.0); // no figure, no cost
}

TEST(ComputeCost, AReductionsWorkIsTheElementsItReads) {
    // A global average pool over 7 x 7 planes of 64 channels: 3,136 elements read, 64 written. Its
    // time follows what it reads; costing it per output made a figure fitted on 56 x 56 planes
    // 64x too slow on these (issue 19).
    compiler::Compute pool;
    pool.inputs = {{ir::ValueId(0), tiling::fullRegion({1, 64, 7, 7}), 0}};
    pool.outputs = {{ir::ValueId(1), tiling::fullRegion({1, 64, 1, 1}), 0}};
    EXPECT_DOUBLE_EQ(computeWork(pool, ir::OpClass::Reduction), 64.0 * 49.0);
    EXPECT_DOUBLE_EQ(computeWork(pool, ir::OpClass::Pooling), 64.0); // other classes: per output
    target::Target t = test::tinyTarget();
    t.throughput.of(ir::OpClass::Reduction) = 8;
    EXPECT_DOUBLE_EQ(computeCycles(pool, ir::OpClass::Reduction, t),
                     t.overheads.computeCycles + 64.0 * 49.0 / 8);
}

TEST(ComputeCost, AReductionsRateJoinsItsCostPerOutput) {
    // ReduceMean over [1, 8, 16, 16] planes: 256 reads per output. At 4 reads per cycle and 64
    // cycles per output: 1 / rate = 1 / 4 + 64 / 256.
    ir::Graph g;
    g.values = {floatValue("x", {1, 8, 16, 16}), floatValue("y", {1, 8, 1, 1})};
    ir::Op mean;
    mean.type = "ReduceMean";
    mean.opClass = ir::OpClass::Reduction;
    mean.inputs = {ir::ValueId(0)};
    mean.outputs = {ir::ValueId(1)};
    g.ops = {mean};
    g.finalize();
    target::Target t = test::tinyTarget();
    t.throughput.of(ir::OpClass::Reduction) = 4;
    EXPECT_DOUBLE_EQ(reductionInputsPerOutput(g.ops[0], g), 256.0);
    EXPECT_DOUBLE_EQ(throughputOf(g.ops[0], g, t), 4.0); // no per-output cost: the figure
    t.overheads.reductionOutputCycles = 64;
    EXPECT_DOUBLE_EQ(throughputOf(g.ops[0], g, t), 1 / (1.0 / 4 + 64.0 / 256));
}

TEST(ComputeCost, GlobalPoolsAreCostedPerElementRead) {
    // A global average pool over 16 x 16 planes: 256 reads per output. Its figure counts elements
    // read; its instructions' work counts outputs, so the rate per output is figure / 256.
    ir::Graph g;
    g.values = {floatValue("x", {1, 8, 16, 16}), floatValue("y", {1, 8, 1, 1})};
    ir::Op pool;
    pool.type = "GlobalAveragePool";
    pool.opClass = ir::OpClass::Pooling;
    pool.inputs = {ir::ValueId(0)};
    pool.outputs = {ir::ValueId(1)};
    g.ops = {pool};
    g.finalize();
    target::Target t = test::tinyTarget();
    t.throughput.of(ir::OpClass::Pooling) = 1000;
    t.throughput.of(ir::OpClass::Reduction) = 4;
    EXPECT_DOUBLE_EQ(globalPoolInputsPerOutput(g.ops[0], g), 256.0);
    EXPECT_EQ(reductionInputsPerOutput(g.ops[0], g), 0); // not a reduction's figure
    // No global_pool figure: pooling's, per element read, reported as a fallback.
    EXPECT_DOUBLE_EQ(throughputOf(g.ops[0], g, t), 1000.0 / 256);
    const CostFigure fallback = costFigureOf(g.ops[0], g, t);
    EXPECT_EQ(fallback.name, "pooling");
    EXPECT_TRUE(fallback.fallback);
    EXPECT_EQ(fallback.fallbackFrom, "global_pool");
    // Its own figure: 8 outputs of 256 reads each at 0.25 reads per cycle take 8,192 cycles.
    t.throughput.globalPoolPerCycle = 0.25;
    t.overheads.computeCycles = 10;
    EXPECT_DOUBLE_EQ(throughputOf(g.ops[0], g, t), 0.25 / 256);
    EXPECT_DOUBLE_EQ(cyclesAtThroughput(8, throughputOf(g.ops[0], g, t), t), 10 + 8 * 256 / 0.25);
    const CostFigure own = costFigureOf(g.ops[0], g, t);
    EXPECT_EQ(own.name, "global_pool");
    EXPECT_FALSE(own.fallback);
    // A GlobalMaxPool is one too; a windowed MaxPool is not, and keeps pooling's rate per output.
    g.ops[0].type = "GlobalMaxPool";
    EXPECT_DOUBLE_EQ(throughputOf(g.ops[0], g, t), 0.25 / 256);
    g.ops[0].type = "MaxPool";
    EXPECT_DOUBLE_EQ(throughputOf(g.ops[0], g, t), 1000.0);
    EXPECT_EQ(globalPoolInputsPerOutput(g.ops[0], g), 0);
    EXPECT_FALSE(costFigureOf(g.ops[0], g, t).fallback);
}

TEST(ComputeCost, CostFigureNamesTheFallbacks) {
    const ir::Graph& g = convs();
    target::Target t = test::tinyTarget();
    t.throughput.depthwiseConvPerCycle = 0;
    t.throughput.pointwiseConvPerCycle = 4;
    const CostFigure dense = costFigureOf(g.ops[1], g, t);
    EXPECT_EQ(dense.name, "conv");
    EXPECT_FALSE(dense.fallback);
    EXPECT_EQ(costFigureOf(g.ops[0], g, t).name, "pointwise_conv");
    EXPECT_FALSE(costFigureOf(g.ops[0], g, t).fallback);
    const CostFigure depthwise = costFigureOf(g.ops[4], g, t); // no depthwise_conv figure: conv's
    EXPECT_TRUE(depthwise.fallback);
    EXPECT_EQ(depthwise.name, "conv");
    EXPECT_EQ(depthwise.fallbackFrom, "depthwise_conv");
    ir::Op resize;
    resize.type = "Resize";
    resize.opClass = ir::OpClass::Elementwise;
    const CostFigure r = costFigureOf(resize, g, t);
    EXPECT_TRUE(r.fallback);
    EXPECT_EQ(r.name, "elementwise");
    EXPECT_EQ(r.fallbackFrom, "resize");
    ir::Op other;
    other.type = "NonMaxSuppression";
    other.opClass = ir::OpClass::Other;
    EXPECT_TRUE(costFigureOf(other, g, t).fallback);
    ir::Op relu;
    relu.type = "Relu";
    relu.opClass = ir::OpClass::Elementwise;
    EXPECT_FALSE(costFigureOf(relu, g, t).fallback);
}

TEST(ComputeCost, GroupedConvsRunAtTheirFigureBeforeThePointwiseTest) {
    ir::Graph g;
    g.values = {floatValue("x", {1, 8, 16, 16}), floatValue("w3", {16, 4, 3, 3}),
                floatValue("w1", {16, 4, 1, 1}), floatValue("wdw", {8, 1, 3, 3})};
    g.ops = {conv("grouped3x3", 1, {ints("pads", {1, 1, 1, 1}), {"group", std::int64_t{2}}}),
             conv("grouped1x1", 2, {{"group", std::int64_t{2}}}),
             conv("depthwise3x3", 3, {ints("pads", {1, 1, 1, 1}), {"group", std::int64_t{8}}}),
             conv("dense", 1)};
    g.finalize();
    EXPECT_TRUE(isGroupedConv(g.ops[0], g));
    EXPECT_TRUE(isGroupedConv(g.ops[1], g));  // a grouped 1x1 is grouped, not pointwise
    EXPECT_FALSE(isGroupedConv(g.ops[2], g)); // one group per channel: depthwise
    EXPECT_FALSE(isGroupedConv(g.ops[3], g));
    target::Target t = test::tinyTarget();
    t.throughput.of(ir::OpClass::Conv) = 12;
    t.throughput.pointwiseConvPerCycle = 20;
    EXPECT_EQ(throughputOf(g.ops[0], g, t), 12); // without the figure: conv's, as a fallback
    EXPECT_TRUE(costFigureOf(g.ops[0], g, t).fallback);
    EXPECT_EQ(costFigureOf(g.ops[0], g, t).fallbackFrom, "grouped_conv");
    t.throughput.groupedConvPerCycle = 4;
    EXPECT_EQ(throughputOf(g.ops[0], g, t), 4);
    EXPECT_EQ(throughputOf(g.ops[1], g, t), 4);
    EXPECT_EQ(costFigureOf(g.ops[1], g, t).name, "grouped_conv");
    // 1200 MACs at 4 per cycle: 300 cycles (no compute overhead on the tiny target).
    EXPECT_EQ(cyclesAtThroughput(1200, throughputOf(g.ops[0], g, t), t), 300);
}

// A grouped convolution runs on a kernel that reorders its input and output planes: it pays per
// element of both on top of its MACs, so a strided one (four input elements per output position)
// pays more per MAC than the same product at stride 1.
TEST(ComputeCost, GroupedConvsPayPerPlaneElement) {
    auto grouped = [](std::int64_t side, std::int64_t stride) {
        ir::Graph g;
        // 16 channels in 4 groups of 4 onto 14 x 14: 36 MACs per output.
        g.values = {floatValue("x", {1, 16, side, side}), floatValue("w", {16, 4, 3, 3}),
                    floatValue("y", {1, 16, 14, 14})};
        g.ops = {conv("grouped", 1,
                      {ints("pads", {1, 1, 1, 1}),
                       ints("strides", {stride, stride}),
                       {"group", std::int64_t{4}}})};
        g.ops[0].outputs = {ir::ValueId(2)};
        g.finalize();
        return g;
    };
    const ir::Graph g = grouped(14, 1), strided = grouped(28, 2);
    // 16 x 196 x 36 MACs over 2 x 16 x 196 elements; strided over 16 x 784 + 16 x 196.
    EXPECT_DOUBLE_EQ(groupedConvMacsPerElement(g.ops[0], g), 18);
    EXPECT_DOUBLE_EQ(groupedConvMacsPerElement(strided.ops[0], strided), 7.2);
    EXPECT_EQ(groupedConvMacsPerElement(convs().ops[1], convs()), 0); // a dense convolution
    target::Target t = test::tinyTarget();
    t.throughput.groupedConvPerCycle = 28;
    EXPECT_DOUBLE_EQ(throughputOf(g.ops[0], g, t), 28); // no element cost: the figure itself
    // 2 cycles per element: 1 / 28 + 2 / 18 cycles per MAC.
    t.overheads.groupedConvElementCycles = 2;
    EXPECT_DOUBLE_EQ(throughputOf(g.ops[0], g, t), 1 / (1.0 / 28 + 2.0 / 18));
    EXPECT_LT(throughputOf(strided.ops[0], strided, t), throughputOf(g.ops[0], g, t));
    // The whole strided op: its MACs at the figure plus its elements at 2 cycles.
    const double macs = 16 * 196 * 36, elements = 16 * 784 + 16 * 196;
    EXPECT_NEAR(cyclesAtThroughput(macs, throughputOf(strided.ops[0], strided, t), t),
                macs / 28 + elements * 2, 1e-6);
}

// A batched matrix product (an attention's) pays per matrix pair; one whose right-hand matrix has
// no batch (the host folds its rows into one product) and a Gemm do not. An Einsum counts its
// pairs over its batch labels.
TEST(ComputeCost, BatchedMatrixProductsPayPerPair) {
    ir::Graph g;
    g.values = {floatValue("q", {1, 4, 49, 32}),  floatValue("k", {1, 4, 32, 49}),
                floatValue("s", {1, 4, 49, 49}),  floatValue("w", {32, 49}),
                floatValue("qk", {1, 4, 49, 49}), floatValue("xw", {1, 4, 49, 49})};
    auto matmul = [](const char* type, std::vector<std::uint32_t> in, std::uint32_t out) {
        ir::Op op;
        op.type = type;
        op.opClass = ir::OpClass::MatMul;
        for (std::uint32_t i : in)
            op.inputs.push_back(ir::ValueId(i));
        op.outputs = {ir::ValueId(out)};
        return op;
    };
    g.ops = {matmul("MatMul", {0, 1}, 4), matmul("MatMul", {0, 3}, 5), matmul("Einsum", {0, 0}, 2)};
    g.ops[2].attributes = {{"equation", std::string("bgid,bgjd->bgij")}};
    g.finalize();
    EXPECT_DOUBLE_EQ(matmulMacsPerProduct(g.ops[0], g), 49 * 49 * 32);
    EXPECT_EQ(matmulMacsPerProduct(g.ops[1], g), 0); // one weight matrix: the rows fold
    EXPECT_DOUBLE_EQ(matmulMacsPerProduct(g.ops[2], g), 49 * 49 * 32);
    target::Target t = test::tinyTarget();
    const double figure = t.throughput.of(ir::OpClass::MatMul);
    EXPECT_DOUBLE_EQ(throughputOf(g.ops[0], g, t), figure); // no per-pair cost: the figure
    t.overheads.matmulProductCycles = 2000;
    const double pairMacs = 49 * 49 * 32;
    EXPECT_DOUBLE_EQ(throughputOf(g.ops[0], g, t), 1 / (1 / figure + 2000 / pairMacs));
    EXPECT_DOUBLE_EQ(throughputOf(g.ops[1], g, t), figure);
    // The whole op: four pairs.
    EXPECT_NEAR(cyclesAtThroughput(4 * pairMacs, throughputOf(g.ops[0], g, t), t),
                t.overheads.computeCycles + 4 * pairMacs / figure + 4 * 2000, 1e-6);
}

// A Resize's figure counts the taps it weighs: one per output for nearest, two per resized dim for
// linear; the cost per output row joins it per output.
TEST(ComputeCost, ResizesPayPerTapAndPerRow) {
    ir::Graph g;
    g.values = {floatValue("x", {1, 8, 7, 7}), floatValue("y", {1, 8, 14, 14})};
    auto resize = [](const char* mode) {
        ir::Op op;
        op.type = "Resize";
        op.opClass = ir::OpClass::Elementwise;
        op.inputs = {ir::ValueId(0)};
        op.outputs = {ir::ValueId(1)};
        op.attributes = {{"mode", std::string(mode)}};
        return op;
    };
    g.ops = {resize("nearest"), resize("linear"), resize("cubic")};
    g.finalize();
    EXPECT_EQ(resizeTapsPerOutput(g.ops[0], g), 1);
    EXPECT_EQ(resizeTapsPerOutput(g.ops[1], g), 4); // bilinear: H and W resized
    EXPECT_EQ(resizeTapsPerOutput(g.ops[2], g), 16);
    EXPECT_EQ(resizeOutputsPerRow(g.ops[1], g), 14);
    target::Target t = test::tinyTarget();
    t.throughput.resizePerCycle = 2;
    EXPECT_DOUBLE_EQ(throughputOf(g.ops[0], g, t), 2);
    EXPECT_DOUBLE_EQ(throughputOf(g.ops[1], g, t), 0.5);
    t.overheads.resizeRowCycles = 28; // 2 cycles per output of a row of 14
    EXPECT_DOUBLE_EQ(throughputOf(g.ops[0], g, t), 1 / (0.5 + 2));
    EXPECT_DOUBLE_EQ(throughputOf(g.ops[1], g, t), 1 / (2 + 2.0));
}

// A Sigmoid runs at its own figure, else at the transcendental one; an Erf stays transcendental.
TEST(ComputeCost, SigmoidsRunAtTheirOwnFigure) {
    const ir::Graph& g = convs();
    ir::Op sigmoid, erf;
    sigmoid.type = "Sigmoid";
    erf.type = "Erf";
    sigmoid.opClass = erf.opClass = ir::OpClass::Elementwise;
    target::Target t = test::tinyTarget();
    t.throughput.transcendentalPerCycle = 0.5;
    EXPECT_TRUE(isSigmoid(sigmoid));
    EXPECT_FALSE(isSigmoid(erf));
    EXPECT_EQ(throughputOf(sigmoid, g, t), 0.5);
    EXPECT_EQ(costFigureOf(sigmoid, g, t).name, "transcendental");
    t.throughput.sigmoidPerCycle = 2;
    EXPECT_EQ(throughputOf(sigmoid, g, t), 2);
    EXPECT_EQ(costFigureOf(sigmoid, g, t).name, "sigmoid");
    EXPECT_FALSE(costFigureOf(sigmoid, g, t).fallback);
    EXPECT_EQ(throughputOf(erf, g, t), 0.5);
    // A HardSwish runs at the elementwise figure (vectorised on the host like a Relu), not the
    // transcendental one.
    ir::Op hardSwish;
    hardSwish.type = "HardSwish";
    hardSwish.opClass = ir::OpClass::Elementwise;
    EXPECT_FALSE(isTranscendental(hardSwish));
    EXPECT_EQ(throughputOf(hardSwish, g, t), t.throughput.of(ir::OpClass::Elementwise));
    EXPECT_NE(throughputOf(hardSwish, g, t), 0.5);
}

TEST(ComputeCost, BoxMovesRunAtTheCopyFigure) {
    const ir::Graph& g = convs();
    target::Target t = test::tinyTarget();
    t.throughput.of(ir::OpClass::DataMovement) = 0.5;
    auto op = [](const char* type) {
        ir::Op o;
        o.type = type;
        o.opClass = ir::OpClass::DataMovement;
        return o;
    };
    for (const char* type : {"Concat", "Reshape", "Flatten", "Split", "Slice"})
        EXPECT_TRUE(isCopy(op(type), g)) << type;
    // A Transpose without a perm reverses the dims (its last one gathered across the input).
    for (const char* type : {"Transpose", "DepthToSpace", "Gather", "Expand"})
        EXPECT_FALSE(isCopy(op(type), g)) << type;
    // Without the figure: data_movement's, reported as a fallback.
    EXPECT_EQ(throughputOf(op("Concat"), g, t), 0.5);
    EXPECT_TRUE(costFigureOf(op("Concat"), g, t).fallback);
    EXPECT_EQ(costFigureOf(op("Concat"), g, t).fallbackFrom, "copy");
    // With it: 1000 output elements at 4 per cycle take 250 cycles plus the compute overhead (0).
    t.throughput.copyPerCycle = 4;
    EXPECT_EQ(throughputOf(op("Concat"), g, t), 4);
    EXPECT_EQ(cyclesAtThroughput(1000, throughputOf(op("Concat"), g, t), t), 250);
    EXPECT_EQ(throughputOf(op("Transpose"), g, t), 0.5); // a gather keeps data_movement's
    EXPECT_EQ(costFigureOf(op("Concat"), g, t).name, "copy");
    EXPECT_FALSE(costFigureOf(op("Concat"), g, t).fallback);
}

} // namespace
} // namespace strata::emulator
