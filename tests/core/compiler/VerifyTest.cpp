// The verifier accepts what the pipeline makes and catches each kind of broken program.

#include "CompilerFixtures.h"
#include "compiler/Pipeline.h"
#include "compiler/passes/Verify.h"
#include "schedule/Strategies.h"
#include "support/TestModels.h"

#include <gtest/gtest.h>

namespace strata::compiler {
namespace {

using test::mentions;

struct VerifyTest : ::testing::Test {
    std::shared_ptr<const ir::Graph> g = test::convChainWithWeights();
    target::Target t = test::presetTarget("mncore2");
    Program program = [this] {
        auto r = compile(*g, t, schedule::makeSchedule(*g, t, schedule::Strategy::PerOp, {.mp = 2}));
        EXPECT_TRUE(r.ok()) << test::joined(r.diagnostics());
        return r->program;
    }();

    // Removes the first instruction of `kind` on core 0 that `pick` accepts.
    template <class Pick> void drop(InstrKind kind, Pick pick) {
        auto& stream = program.streams[0];
        for (auto it = stream.begin(); it != stream.end(); ++it)
            if (program.instructions[*it].kind() == kind && pick(program.instructions[*it])) {
                stream.erase(it);
                return;
            }
        FAIL() << "nothing to drop";
    }
};

TEST_F(VerifyTest, AcceptsThePipelinesProgram) { EXPECT_TRUE(verifyProgram(program, *g, t).empty()); }

TEST_F(VerifyTest, ReadBeforeWait) {
    drop(InstrKind::Wait, [](const Instruction&) { return true; });
    auto found = verifyProgram(program, *g, t);
    EXPECT_TRUE(mentions(found, "before its load was waited")) << test::joined(found);
    EXPECT_TRUE(mentions(found, "transfer never waited"));
}

TEST_F(VerifyTest, TagReusedInFlight) {
    auto& first = std::get<Transfer>(program.instructions[program.streams[0][0]].body);
    auto& second = std::get<Transfer>(program.instructions[program.streams[0][1]].body);
    second.tag = first.tag;
    EXPECT_TRUE(mentions(verifyProgram(program, *g, t), "reused while in flight"));
}

TEST_F(VerifyTest, WorkingMemoryOverflow) {
    for (InstrId id : program.streams[0])
        if (auto* c = std::get_if<Compute>(&program.instructions[id].body)) {
            c->outputs[0].offset = t.workingMemoryBytes() - 16;
            break;
        }
    EXPECT_TRUE(mentions(verifyProgram(program, *g, t), "beyond the working memory"));
}

// Found by running the generated C++: with the DRAM plan reusing space, a block may overwrite
// bytes another core still reads unless a barrier separates them.
TEST(VerifyRaces, MainMemoryRaceBetweenCoresWithoutABarrier) {
    auto g = test::sampleGraph("resnet_tiny.onnx");
    const target::Target host = test::presetTarget("host");
    auto r = compile(*g, host, schedule::makeSchedule(*g, host, schedule::Strategy::PerOp));
    ASSERT_TRUE(r.ok()) << test::joined(r.diagnostics());
    Program p = r->program;
    EXPECT_TRUE(verifyProgram(p, *g, host).empty());
    for (auto& stream : p.streams)
        std::erase_if(stream, [&](InstrId id) { return p.instructions[id].kind() == InstrKind::Barrier; });
    auto found = verifyProgram(p, *g, host);
    EXPECT_TRUE(mentions(found, "with no barrier between")) << test::joined(found);
}

// A broadcast's further cores may read its bytes only after the barrier that follows it.
TEST(VerifyBroadcast, ReadBeforeTheBarrierThatDeliversIt) {
    auto g = test::convChainWithWeights();
    const target::Target t = test::presetTarget("mncore2");
    auto r = compile(*g, t, test::rowTilesOnEveryCore(*g, t));
    ASSERT_TRUE(r.ok()) << test::joined(r.diagnostics());
    Program p = r->program;
    // Core 1 skips the first barrier, the one right after the broadcasts of block 0.
    auto& stream = p.streams[1];
    auto first = std::find_if(stream.begin(), stream.end(),
                              [&](InstrId id) { return p.instructions[id].kind() == InstrKind::Barrier; });
    ASSERT_NE(first, stream.end());
    stream.erase(first);
    auto found = verifyProgram(p, *g, t);
    EXPECT_TRUE(mentions(found, "core 1")) << test::joined(found);
    EXPECT_TRUE(mentions(found, "before its load was waited")) << test::joined(found);
}

TEST_F(VerifyTest, LoadBeforeTheBarrierAfterItsStore) {
    // Without the barriers, block 1 would load A while block 0 may still be storing it.
    for (auto& stream : program.streams)
        std::erase_if(stream, [&](InstrId id) { return program.instructions[id].kind() == InstrKind::Barrier; });
    EXPECT_TRUE(mentions(verifyProgram(program, *g, t), "before the barrier after its store"));
}

TEST_F(VerifyTest, OverwriteWhileATransferIsInFlight) {
    // Move the wait after the first store to the end: the next block's loads overwrite it.
    auto& stream = program.streams[0];
    for (std::size_t i = 0; i + 1 < stream.size(); ++i) {
        const Instruction& in = program.instructions[stream[i]];
        const auto* tr = std::get_if<Transfer>(&in.body);
        if (!tr || tr->destination.memory != "DRAM") continue;
        InstrId wait = stream[i + 1];
        stream.erase(stream.begin() + static_cast<std::ptrdiff_t>(i) + 1);
        stream.push_back(wait);
        break;
    }
    auto found = verifyProgram(program, *g, t);
    EXPECT_FALSE(found.empty());
}

} // namespace
} // namespace strata::compiler
