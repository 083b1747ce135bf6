// A convolution whose tiles do not fit working memory even at one element, computed in slices of
// its input channels (docs/SCHEDULES.md): it compiles, the verifier checks the accumulation, the
// emulator charges every slice's transfers, and the host run matches the reference evaluation.

#include "TwoCoreTarget.h"
#include "compiler/CompileState.h"
#include "compiler/Pipeline.h"
#include "compiler/passes/Verify.h"
#include "emulator/Emulator.h"
#include "reference/Compare.h"
#include "reference/Evaluator.h"
#include "runtime/Runtime.h"
#include "schedule/Strategies.h"
#include "schedule/Validate.h"
#include "support/TestModels.h"

#include <gtest/gtest.h>

namespace strata::test {
namespace {

// Two cores with 4 KiB of working memory each: one output element of the conv below needs
// 64 channels of a 3x3 box and 64 x 3 x 3 weights, 4.5 KiB, before double buffering.
target::Target tinyTarget() {
    return twoCoreTarget("tiny", 4096);
}

// X[1,64,8,8] -> Conv 3x3 pad 1 (64 -> 8, constant weights and bias) -> Relu -> Y.
std::shared_ptr<const ir::Graph> wideConv() {
    auto m =
        importText("<ir_version: 8, opset_import: [\"\" : 17]>\n"
                   "g (float[1, 64, 8, 8] X) => (float[1, 8, 8, 8] Y) <float[8, 64, 3, 3] W = {" +
                   patternValues(8 * 64 * 9, 0.01f) + "}, float[8] B = {" + patternValues(8, 0.1f) +
                   "}> {\n    C = Conv <pads = [1, 1, 1, 1]> (X, W, B)\n    Y = Relu (C)\n}\n");
    EXPECT_TRUE(m) << joined(m.diagnostics());
    return m->graph;
}

std::size_t accumulating(const compiler::Program& p) {
    std::size_t n = 0;
    for (const compiler::Instruction& in : p.instructions)
        if (const auto* c = std::get_if<compiler::Compute>(&in.body))
            n += c->accumulate ? 1 : 0;
    return n;
}

TEST(ChannelSlices, SlicedConvolutionCompilesEmulatesAndMatchesTheReference) {
    auto g = wideConv();
    const target::Target t = tinyTarget();
    const auto inputs = reference::sampleInputs(*g, 7);
    auto expected = reference::evaluate(*g, inputs);
    ASSERT_TRUE(expected) << joined(expected.diagnostics());
    for (auto strategy : {schedule::Strategy::PerOp, schedule::Strategy::FuseMax}) {
        auto compiled = compiler::compile(*g, t, schedule::makeSchedule(*g, t, strategy));
        ASSERT_TRUE(compiled) << joined(compiled.diagnostics());
        EXPECT_GT(accumulating(compiled->program), 0u);
        EXPECT_TRUE(compiler::verifyProgram(compiled->program, *g, t).empty());
        auto emulated = emulator::emulate(compiled->program, t, *g);
        ASSERT_TRUE(emulated) << joined(emulated.diagnostics());
        auto result = runtime::run(compiled->program, t, *g, inputs);
        ASSERT_TRUE(result) << joined(result.diagnostics());
        auto c = reference::compare(result->outputs[0], (*expected)[0], 1e-4, 1e-3);
        EXPECT_TRUE(c.ok) << schedule::strategyName(strategy) << ": " << c.message;
    }
}

TEST(ChannelSlices, VerifierRefusesAnAccumulationWithoutPartialSums) {
    auto g = wideConv();
    const target::Target t = tinyTarget();
    auto compiled =
        compiler::compile(*g, t, schedule::makeSchedule(*g, t, schedule::Strategy::PerOp));
    ASSERT_TRUE(compiled) << joined(compiled.diagnostics());
    compiler::Program p = compiled->program;
    // The first slice of core 0's first tile made to accumulate: nothing is in place yet.
    for (compiler::InstrId id : p.streams[0])
        if (auto* c = std::get_if<compiler::Compute>(&p.instructions[id].body);
            c && c->opType == "Conv") {
            c->accumulate = true;
            break;
        }
    auto found = compiler::verifyProgram(p, *g, t);
    EXPECT_TRUE(mentions(found, "accumulates into 'C'")) << joined(found);
}

// The same grid with half the channels per slice: twice the loads of input and weights, the
// same bytes, so more transfer time (every transfer pays its latency).
TEST(ChannelSlices, MoreSlicesCostMoreTransferTime) {
    auto g = wideConv();
    const target::Target t = tinyTarget();
    const schedule::Schedule s = schedule::makeSchedule(*g, t, schedule::Strategy::PerOp);
    auto transferTime = [&](int halvings, std::size_t& transfers, std::uint64_t& bytes) {
        schedule::ScheduleCheck check = schedule::checkSchedule(s, *g, t);
        EXPECT_TRUE(check.valid()) << joined(check.diagnostics);
        for (schedule::BlockAnalysis& b : check.analysis.blocks)
            if (b.cost.grid.sliceChannels > 0)
                b.cost.grid.sliceChannels >>= halvings;
        compiler::CompileState state{*g, t, s, std::move(check.analysis), {}, {}, {}};
        for (const compiler::Pass& pass : compiler::passes())
            pass.run(state);
        EXPECT_FALSE(state.failed()) << joined(state.diagnostics);
        auto trace = emulator::emulate(state.program, t, *g);
        EXPECT_TRUE(trace) << joined(trace.diagnostics());
        std::int64_t ps = 0;
        transfers = 0;
        bytes = 0;
        for (const trace::Event& e : trace->events)
            if (e.kind == trace::EventKind::Transfer) {
                ps += e.durationPs();
                ++transfers;
                bytes += e.bytes;
            }
        return ps;
    };
    std::size_t fewer = 0, more = 0;
    std::uint64_t fewerBytes = 0, moreBytes = 0;
    const std::int64_t coarse = transferTime(0, fewer, fewerBytes);
    const std::int64_t fine = transferTime(1, more, moreBytes);
    EXPECT_GT(more, fewer);
    EXPECT_EQ(moreBytes, fewerBytes);
    EXPECT_GT(fine, coarse);
}

} // namespace
} // namespace strata::test
