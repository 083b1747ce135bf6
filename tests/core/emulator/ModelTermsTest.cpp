// How the emulator uses the terms calibration fits (emulator::throughputOf): a convolution's
// per-output and per-row costs join its rate by its MACs per output and per row, transcendental
// elementwise ops run at their own figure, and without these fields every rate is as before.

#include "EmulatorFixtures.h"
#include "emulator/ComputeCost.h"

#include <gtest/gtest.h>

namespace strata::emulator {
namespace {

using test::floatValue;

ir::Op op(const char* type, ir::OpClass opClass, std::vector<std::uint32_t> inputs, std::uint32_t output,
          std::vector<ir::Attribute> attributes = {}) {
    ir::Op o;
    o.name = type;
    o.type = type;
    o.opClass = opClass;
    for (std::uint32_t i : inputs) o.inputs.push_back(ir::ValueId(i));
    o.outputs = {ir::ValueId(output)};
    o.attributes = std::move(attributes);
    return o;
}

// Ops: pointwise 32 -> 64 on 56 x 56 (K = 32), dense 3x3 32 -> 32 (K = 288), depthwise 3x3 on
// 14 x 14 (9 MACs per output, 126 per row), Erf, Add, a Conv whose weights are not in the graph.
const ir::Graph& graph() {
    static const ir::Graph g = [] {
        ir::Graph graph;
        graph.name = "terms";
        graph.values = {floatValue("x", {1, 32, 56, 56}),  floatValue("w1", {64, 32, 1, 1}), floatValue("y1", {1, 64, 56, 56}),
                        floatValue("w3", {32, 32, 3, 3}),  floatValue("y3", {1, 32, 56, 56}), floatValue("xs", {1, 32, 14, 14}),
                        floatValue("wdw", {32, 1, 3, 3}),  floatValue("ydw", {1, 32, 14, 14}), floatValue("e", {1, 32, 56, 56}),
                        floatValue("s", {1, 32, 56, 56}), floatValue("yq", {1, 32, 56, 56})};
        graph.ops = {op("Conv", ir::OpClass::Conv, {0, 1}, 2),
                     op("Conv", ir::OpClass::Conv, {0, 3}, 4, {{"pads", std::vector<std::int64_t>{1, 1, 1, 1}}}),
                     op("Conv", ir::OpClass::Conv, {5, 6}, 7, {{"pads", std::vector<std::int64_t>{1, 1, 1, 1}}, {"group", std::int64_t{32}}}),
                     op("Erf", ir::OpClass::Elementwise, {0}, 8),
                     op("Add", ir::OpClass::Elementwise, {0, 0}, 9),
                     op("Conv", ir::OpClass::Conv, {0}, 10)};
        graph.finalize();
        return graph;
    }();
    return g;
}

target::Target target() {
    target::Target t;
    t.name = "t";
    t.clockHz = 1e9;
    t.throughput.of(ir::OpClass::Conv) = 10;
    t.throughput.of(ir::OpClass::Elementwise) = 2;
    t.throughput.pointwiseConvPerCycle = 20;
    t.throughput.depthwiseConvPerCycle = 0.5;
    return t;
}

TEST(ModelTerms, MacsPerOutputAndPerRowComeFromTheShapes) {
    const ir::Graph& g = graph();
    EXPECT_EQ(emulator::convMacsPerOutput(g.ops[0], g), 32);
    EXPECT_EQ(emulator::convMacsPerOutput(g.ops[1], g), 288);
    EXPECT_EQ(emulator::convMacsPerOutput(g.ops[2], g), 9);
    EXPECT_EQ(emulator::convMacsPerOutputRow(g.ops[2], g), 126);
    EXPECT_EQ(emulator::convMacsPerOutput(g.ops[3], g), 0);  // not a convolution
    EXPECT_EQ(emulator::convMacsPerOutput(g.ops[5], g), 0);  // no weights
}

TEST(ModelTerms, WithoutTheFieldsEveryRateIsItsFigure) {
    const ir::Graph& g = graph();
    const target::Target t = target();
    EXPECT_EQ(emulator::throughputOf(g.ops[0], g, t), 20);
    EXPECT_EQ(emulator::throughputOf(g.ops[1], g, t), 10);
    EXPECT_EQ(emulator::throughputOf(g.ops[2], g, t), 0.5);
    EXPECT_EQ(emulator::throughputOf(g.ops[3], g, t), 2); // Erf at elementwise's figure
    EXPECT_EQ(emulator::throughputOf(g.ops[4], g, t), 2);
    EXPECT_EQ(emulator::throughputOf(g.ops[5], g, t), 10);
}

TEST(ModelTerms, UnitCostsJoinTheRatePerMac) {
    const ir::Graph& g = graph();
    target::Target t = target();
    t.overheads.convOutputCycles = 1.6;
    t.overheads.depthwiseRowCycles = 63;
    // 1 / rate = 1 / figure + cost / MACs per unit.
    EXPECT_DOUBLE_EQ(emulator::throughputOf(g.ops[0], g, t), 1 / (1 / 20.0 + 1.6 / 32));   // 10
    EXPECT_DOUBLE_EQ(emulator::throughputOf(g.ops[1], g, t), 1 / (1 / 10.0 + 1.6 / 288));
    EXPECT_DOUBLE_EQ(emulator::throughputOf(g.ops[2], g, t), 1 / (1 / 0.5 + 63.0 / 126)); // 0.4
    EXPECT_EQ(emulator::throughputOf(g.ops[4], g, t), 2);  // not a convolution
    EXPECT_EQ(emulator::throughputOf(g.ops[5], g, t), 10); // shapes unknown: the figure
}

TEST(ModelTerms, TranscendentalOpsRunAtTheirFigure) {
    const ir::Graph& g = graph();
    target::Target t = target();
    t.throughput.transcendentalPerCycle = 0.0625;
    EXPECT_TRUE(emulator::isTranscendental(g.ops[3]));
    EXPECT_FALSE(emulator::isTranscendental(g.ops[4]));
    EXPECT_EQ(emulator::throughputOf(g.ops[3], g, t), 0.0625);
    EXPECT_EQ(emulator::throughputOf(g.ops[4], g, t), 2);
}

TEST(ModelTerms, LayerNormsRunAtTheirFigureBatchNormsAtNormalizations) {
    const ir::Graph& g = graph();
    target::Target t = target();
    t.throughput.of(ir::OpClass::Normalization) = 1.5;
    ir::Op layerNorm, batchNorm;
    layerNorm.type = "LayerNormalization";
    batchNorm.type = "BatchNormalization";
    layerNorm.opClass = batchNorm.opClass = ir::OpClass::Normalization;
    EXPECT_TRUE(emulator::isLayerNorm(layerNorm));
    EXPECT_FALSE(emulator::isLayerNorm(batchNorm));
    EXPECT_EQ(emulator::throughputOf(layerNorm, g, t), 1.5); // no figure: normalization's
    t.throughput.layerNormPerCycle = 0.25;
    EXPECT_EQ(emulator::throughputOf(layerNorm, g, t), 0.25);
    EXPECT_EQ(emulator::throughputOf(batchNorm, g, t), 1.5);
}

} // namespace
} // namespace strata::emulator
