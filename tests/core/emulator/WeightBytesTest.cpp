// A convolution's or matrix product's compute pays overhead_cycles.weight_byte per byte of the
// constant operands it reads (ComputeCost.h's weightReadCycles), on top of its MACs, and its
// class's far_weight_byte per byte of them beyond the private cache. Numbers
// derived by hand from the tiny target (1 MAC per cycle, no overheads, 1 cycle = 1 ns).

#include "EmulatorFixtures.h"
#include "emulator/ComputeCost.h"
#include "emulator/Emulator.h"

#include <gtest/gtest.h>

namespace strata::emulator {
namespace {

constexpr std::int64_t kNs = 1000; // ps

// x (value 0, [1, 1024], an activation), w (value 1, [1000] weights, a constant), a MatMul (op 0)
// and a Relu (op 1).
const ir::Graph& weightGraph() {
    static const ir::Graph graph = [] {
        ir::Graph g;
        g.name = "weights";
        g.values.push_back(test::floatValue("x", {1, 1024}));
        ir::Value w = test::floatValue("w", {1000});
        w.isConstant = true;
        g.values.push_back(w);
        ir::Op matmul;
        matmul.name = "matmul";
        matmul.type = "MatMul";
        matmul.opClass = ir::OpClass::MatMul;
        ir::Op relu;
        relu.name = "relu";
        relu.type = "Relu";
        relu.opClass = ir::OpClass::Elementwise;
        g.ops = {matmul, relu};
        g.finalize();
        return g;
    }();
    return graph;
}

// Op `op` reading 256 elements of x and `weights` elements of w, writing 64 elements of x: 100
// MACs for the MatMul, 64 output elements for the Relu.
compiler::Compute computeOf(std::uint32_t op, std::int64_t weights) {
    compiler::Compute c;
    c.opType = op == 0 ? "MatMul" : "Relu";
    c.flops = op == 0 ? 200 : 0;
    c.inputs.push_back({ir::ValueId(0), {{0, 1}, {0, 256}}, 0});
    if (weights > 0)
        c.inputs.push_back({ir::ValueId(1), {{0, weights}}, 0});
    c.outputs.push_back({ir::ValueId(0), {{0, 1}, {0, 64}}, 0});
    return c;
}

std::int64_t durationNs(std::uint32_t op, std::int64_t weights, double weightByteCycles,
                        std::uint64_t privateCacheBytes = 0, double farByteCycles = 0) {
    compiler::Program program = test::ProgramBuilder(1).program();
    compiler::Instruction in;
    in.from = {0, ir::OpId(op), 0};
    in.body = computeOf(op, weights);
    program.streams[0].push_back(in.id);
    program.instructions.push_back(std::move(in));
    target::Target t = test::tinyTarget();
    t.overheads.weightByteCycles = weightByteCycles;
    t.privateCacheBytes = privateCacheBytes;
    t.overheads.matmulFarWeightByteCycles = farByteCycles;
    t.overheads.convFarWeightByteCycles = 100 * farByteCycles; // a matrix product's is not this
    auto trace = emulate(program, t, weightGraph());
    EXPECT_TRUE(trace.ok()) << (trace.ok() ? "" : trace.diagnostics().front().toString());
    return trace.ok() && !trace->events.empty() ? trace->events.front().durationPs() / kNs : -1;
}

TEST(WeightBytes, AMatrixProductPaysPerWeightByteOnTopOfItsMacs) {
    // 100 MACs at 1 per cycle, plus 1,000 weights x 4 bytes x 0.5 cycles.
    EXPECT_EQ(durationNs(0, 1000, 0.5), 100 + 2000);
    // A quarter of the weights: a quarter of the cost.
    EXPECT_EQ(durationNs(0, 250, 0.5), 100 + 500);
    // Without the figure (every target before it): the MACs alone.
    EXPECT_EQ(durationNs(0, 1000, 0), 100);
}

TEST(WeightBytes, ActivationsAndOtherClassesPayNothing) {
    // No constant operand: the activation's 256 elements are not weights.
    EXPECT_EQ(durationNs(0, 0, 0.5), 100);
    // A Relu reading a constant is not a weight-streaming kernel: its 64 outputs alone.
    EXPECT_EQ(durationNs(1, 1000, 0.5), 64);
}

TEST(WeightBytes, CountsTheConstantOperandsRegionsOnly) {
    const ir::Graph& g = weightGraph();
    EXPECT_DOUBLE_EQ(weightBytesRead(computeOf(0, 1000), g.ops[0], g), 4000);
    EXPECT_DOUBLE_EQ(weightBytesRead(computeOf(0, 0), g.ops[0], g), 0);
    EXPECT_DOUBLE_EQ(weightBytesRead(computeOf(1, 1000), g.ops[1], g), 0);
    target::Target t = test::tinyTarget();
    t.overheads.weightByteCycles = 0.25;
    EXPECT_DOUBLE_EQ(weightReadCycles(computeOf(0, 1000), g.ops[0], g, t), 1000);
}

TEST(WeightBytes, BytesBeyondThePrivateCachePayTheFarFigureOnTop) {
    // 4,000 weight bytes, 1,000 of them within the cache: 100 MACs + 4,000 x 0.5 + 3,000 x 0.25.
    EXPECT_EQ(durationNs(0, 1000, 0.5, 1000, 0.25), 100 + 2000 + 750);
    // Weights that fit the cache pay the near figure alone.
    EXPECT_EQ(durationNs(0, 250, 0.5, 1000, 0.25), 100 + 500);
    // No probed cache (every target but the host), or no far figure: the near one alone.
    EXPECT_EQ(durationNs(0, 1000, 0.5, 0, 0.25), 100 + 2000);
    EXPECT_EQ(durationNs(0, 1000, 0.5, 1000, 0), 100 + 2000);
    // A Relu reading a constant pays neither.
    EXPECT_EQ(durationNs(1, 1000, 0.5, 1000, 0.25), 64);
}

TEST(WeightBytes, CountsTheFarBytesOfMatrixProductsOnly) {
    const ir::Graph& g = weightGraph();
    EXPECT_DOUBLE_EQ(farWeightBytes(computeOf(0, 1000), g.ops[0], g, 1000), 3000);
    EXPECT_DOUBLE_EQ(farWeightBytes(computeOf(0, 200), g.ops[0], g, 1000), 0);
    EXPECT_DOUBLE_EQ(farWeightBytes(computeOf(1, 1000), g.ops[1], g, 1000), 0);
}

} // namespace
} // namespace strata::emulator
