// Operands the compiled instruction carries (tiling/FoldedOperands.h): a Pad's pads and value, a
// Clip's bounds, a Slice's starts, ends and axes, a Reshape's shape, reductions' and Unsqueeze's
// axes, a Resize's scales. No program loads them, whatever the strategy, and the host run still
// matches the reference, on fast kernels and on the reference evaluator's fallback (a reflecting
// Pad).

#include "tiling/FoldedOperands.h"

#include "RunMatchesReference.h"
#include "TwoCoreTarget.h"
#include "compiler/Pipeline.h"
#include "schedule/Strategies.h"
#include "support/TestModels.h"

#include <gtest/gtest.h>

namespace strata::test {
namespace {

std::shared_ptr<const ir::Graph> graphWithShapeOperands() {
    auto m = importText(R"(<ir_version: 8, opset_import: ["" : 17]>
g (float[1, 4, 6, 6] X) => (float[1, 4, 6] Y)
<int64[8] pads = {0, 0, 1, 1, 0, 0, 1, 1}, float value = {0.25}, float lo = {-0.5},
 float hi = {0.75}, int64[1] starts = {1}, int64[1] ends = {7}, int64[1] sliced = {2},
 int64[3] shape = {1, 4, 48}, int64[1] summed = {2}, int64[1] added = {3},
 float[4] scales = {1.0, 1.0, 0.5, 0.5}> {
    A = Pad <mode = "reflect"> (X, pads)
    B = Clip (A, lo, hi)
    C = Slice (B, starts, ends, sliced)
    D = Reshape (C, shape)
    E = ReduceSum <keepdims = 1> (D, summed)
    F = Unsqueeze (E, added)
    G = Add (B, F)
    H = Resize <mode = "nearest"> (G, , scales)
    P = Pad (H, pads, value)
    Y = ReduceL2 <axes = [3], keepdims = 0> (P)
}
)");
    EXPECT_TRUE(m) << joined(m.diagnostics());
    return m ? m->graph : nullptr;
}

// The constants whose every use is one the instruction carries.
std::vector<ir::ValueId> foldedConstants(const ir::Graph& g) {
    std::vector<ir::ValueId> out;
    for (std::uint32_t v = 0; v < g.values.size(); ++v) {
        const ir::Value& value = g.values[v];
        if (!value.isConstant || value.consumers.empty())
            continue;
        bool folded = true;
        for (ir::OpId reader : value.consumers) {
            const ir::Op& op = g.op(reader);
            for (std::size_t i = 0; i < op.inputs.size(); ++i)
                if (op.inputs[i].index == v && !tiling::isFoldedOperand(g, op, i))
                    folded = false;
        }
        if (folded)
            out.push_back(ir::ValueId{v});
    }
    return out;
}

class FoldedOperands : public ::testing::TestWithParam<schedule::Strategy> {};

TEST_P(FoldedOperands, AreNeverLoadedAndTheRunMatchesTheReference) {
    auto g = graphWithShapeOperands();
    ASSERT_TRUE(g);
    const std::vector<ir::ValueId> folded = foldedConstants(*g);
    EXPECT_EQ(folded.size(), 11u); // every initializer above
    const target::Target t = twoCoreTarget("hostlike", 256 * 1024);
    auto compiled = compiler::compile(*g, t, schedule::makeSchedule(*g, t, GetParam(), {.mp = 2}));
    ASSERT_TRUE(compiled) << joined(compiled.diagnostics());
    std::size_t loads = 0;
    for (const compiler::Instruction& in : compiled->program.instructions) {
        const auto* transfer = std::get_if<compiler::Transfer>(&in.body);
        if (!transfer)
            continue;
        ++loads;
        EXPECT_EQ(std::count(folded.begin(), folded.end(), transfer->value), 0)
            << "loads " << g->value(transfer->value).name;
    }
    EXPECT_GT(loads, 0u);
    test::expectRunMatchesReference(compiled->program, t, *g);
}

INSTANTIATE_TEST_SUITE_P(Strategies, FoldedOperands,
                         ::testing::Values(schedule::Strategy::PerOp, schedule::Strategy::Rules,
                                           schedule::Strategy::FuseMax));

} // namespace
} // namespace strata::test
