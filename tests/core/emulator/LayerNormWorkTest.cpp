// A layer norm's compute costs (3 x elements read + elements written) / 4 at its figure
// (ComputeCost.h's layerNormWork): the host kernel's three passes over each row it reads and one
// over the part it writes. Numbers derived by hand from the tiny target (normalization at 1
// element per cycle, no overheads, 1 cycle = 1 ns).

#include "EmulatorFixtures.h"
#include "emulator/ComputeCost.h"
#include "emulator/Emulator.h"

#include <gtest/gtest.h>

namespace strata::emulator {
namespace {

constexpr std::int64_t kNs = 1000; // ps

// x (value 0, [8, 64]), its scale (value 1, [64], a constant), y (value 2, [8, 64]); op 0 a
// LayerNormalization over the last axis, op 1 a BatchNormalization (the same class, not a layer
// norm).
const ir::Graph& normGraph() {
    static const ir::Graph graph = [] {
        ir::Graph g;
        g.name = "norms";
        g.values.push_back(test::floatValue("x", {8, 64}));
        ir::Value scale = test::floatValue("scale", {64});
        scale.isConstant = true;
        g.values.push_back(scale);
        g.values.push_back(test::floatValue("y", {8, 64}));
        ir::Op layerNorm;
        layerNorm.name = "ln";
        layerNorm.type = "LayerNormalization";
        layerNorm.opClass = ir::OpClass::Normalization;
        ir::Op batchNorm = layerNorm;
        batchNorm.name = "bn";
        batchNorm.type = "BatchNormalization";
        g.ops = {layerNorm, batchNorm};
        g.finalize();
        return g;
    }();
    return graph;
}

// Rows [0, rows) of x read whole (64 each) with the scale's columns [lo, lo + columns), writing
// columns [lo, lo + columns) of those rows of y.
compiler::Compute tileOf(std::uint32_t op, std::int64_t rows, std::int64_t lo,
                         std::int64_t columns) {
    compiler::Compute c;
    c.opType = op == 0 ? "LayerNormalization" : "BatchNormalization";
    c.inputs.push_back({ir::ValueId(0), {{0, rows}, {0, 64}}, 0});
    c.inputs.push_back({ir::ValueId(1), {{lo, lo + columns}}, 0});
    c.outputs.push_back({ir::ValueId(2), {{0, rows}, {lo, lo + columns}}, 0});
    return c;
}

std::int64_t durationNs(const compiler::Compute& compute, std::uint32_t op) {
    compiler::Program program = test::ProgramBuilder(1).program();
    compiler::Instruction in;
    in.from = {0, ir::OpId(op), 0};
    in.body = compute;
    program.streams[0].push_back(in.id);
    program.instructions.push_back(std::move(in));
    auto trace = emulate(program, test::tinyTarget(), normGraph());
    EXPECT_TRUE(trace.ok()) << (trace.ok() ? "" : trace.diagnostics().front().toString());
    return trace.ok() && !trace->events.empty() ? trace->events.front().durationPs() / kNs : -1;
}

TEST(LayerNormWork, WholeRowsCostTheirOutputs) {
    // 8 rows of 64: (3 x 512 + 512) / 4 = 512, the outputs (what calibration fits on).
    EXPECT_DOUBLE_EQ(layerNormWork(tileOf(0, 8, 0, 64)), 512);
    EXPECT_EQ(durationNs(tileOf(0, 8, 0, 64), 0), 512);
}

TEST(LayerNormWork, ASliceOfTheNormalizedAxisReadsWholeRows) {
    // A quarter of each row written, all of it read: (3 x 512 + 128) / 4 = 416, 3.25x its 128
    // outputs.
    EXPECT_DOUBLE_EQ(layerNormWork(tileOf(0, 8, 16, 16)), 416);
    EXPECT_EQ(durationNs(tileOf(0, 8, 16, 16), 0), 416);
    // Half the rows: half the work.
    EXPECT_EQ(durationNs(tileOf(0, 4, 16, 16), 0), 208);
}

TEST(LayerNormWork, OtherNormalizationsCostTheirOutputs) {
    // A batch norm's tile: its 128 outputs, whatever it reads.
    EXPECT_EQ(durationNs(tileOf(1, 8, 16, 16), 1), 128);
}

} // namespace
} // namespace strata::emulator
