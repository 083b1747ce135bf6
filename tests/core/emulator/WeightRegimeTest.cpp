// Weight reads in the regime the model's weights put them in (paths[].warm_weight_reads,
// emulator/WeightRegime.h): a model whose weights fit warm_weight_bytes reads them at the warm
// figures, a larger one at weight_reads, one within half the private cache at cached_reads'.
// Hand-computed on the tiny target of EmulatorFixtures.h (1 cycle = 1 ns, `load` 16 B/cycle after
// 100 cycles on a 16 B/cycle port).

#include "emulator/WeightRegime.h"

#include "EmulatorFixtures.h"
#include "emulator/Emulator.h"
#include "emulator/ProgramCheck.h"

#include <gtest/gtest.h>

namespace strata::emulator {
namespace {

using test::ProgramBuilder;
constexpr std::int64_t kNs = 1000; // ps
constexpr ir::ValueId kWeight{1};

// tinyGraph plus a constant `w` of 1024 floats (4 KiB) the first op reads, and one of 512 floats
// nothing reads (an initializer a folding left behind: not streamed by a run).
ir::Graph graphWithWeights() {
    ir::Graph g = test::tinyGraph();
    g.values.push_back(test::floatValue("w", {1024}));
    g.values.back().isConstant = true;
    g.values.back().consumers = {ir::OpId{0}};
    g.values.push_back(test::floatValue("unused", {512}));
    g.values.back().isConstant = true;
    return g;
}

// One 400-byte load of w on core 0 out of main memory, waited on.
compiler::Program weightLoad() {
    ProgramBuilder b(1);
    b.transfer(0, "load", 400, 0);
    b.wait(0, 0);
    compiler::Program program = b.program();
    auto& t = std::get<compiler::Transfer>(program.instructions[0].body);
    t.value = kWeight;
    t.source.memory = "DRAM";
    t.destination.memory = "SRAM";
    return program;
}

// Cold weights 4 B/cycle after 300 cycles; warm ones 8 B/cycle after 50, up to `warmBytes`.
target::Target regimes(double warmBytes) {
    target::Target target = test::tinyTarget();
    target.paths[0].weightReads = target::ReadFigures{4, 300};
    target.paths[0].warmWeightReads = target::ReadFigures{8, 50};
    target.paths[0].warmWeightBytes = warmBytes;
    return target;
}

std::int64_t weightReadNs(const target::Target& target) {
    const ir::Graph graph = graphWithWeights();
    auto trace = emulate(weightLoad(), target, graph);
    EXPECT_TRUE(trace.ok()) << (trace.ok() ? "" : trace.diagnostics().front().toString());
    return trace.ok() ? trace->events[0].durationPs() / kNs : -1;
}

TEST(WeightRegime, CountsTheConstantsSomeOpReads) {
    EXPECT_EQ(graphWeightBytes(graphWithWeights()), 4096u);
}

TEST(WeightRegime, WeightsThatFitAreReadWarm) {
    EXPECT_EQ(weightReadNs(regimes(4096)), 100); // 50 + 400 / 8
    EXPECT_EQ(weightReadNs(regimes(1 << 20)), 100);
}

TEST(WeightRegime, WeightsLargerThanTheCacheAreReadCold) {
    EXPECT_EQ(weightReadNs(regimes(4095)), 400); // 300 + 400 / 4
}

TEST(WeightRegime, WithoutWarmFiguresEveryWeightIsReadCold) {
    target::Target target = regimes(1 << 20);
    target.paths[0].warmWeightReads.reset();
    EXPECT_EQ(weightReadNs(target), 400);
}

TEST(WeightRegime, WeightsWithinHalfThePrivateCacheAreReadAsCachedBytes) {
    // Cached reads 20 B/cycle after 30 cycles; the graph's 4 KiB of weights against a private
    // cache of 8 KiB (hot) and of 8 KiB - 1 (warm).
    target::Target target = regimes(1 << 20);
    target.paths[0].cachedReads = target::ReadFigures{20, 30};
    target.privateCacheBytes = 8192;
    EXPECT_TRUE(weightsFitPrivateCache(target, graphWithWeights()));
    // 30 + 400 / 16: a weight read still occupies the path's 16 B/cycle port (a cached read
    // would not), which caps the cached figures' 20.
    EXPECT_EQ(weightReadNs(target), 55);
    target.privateCacheBytes = 8191;
    EXPECT_FALSE(weightsFitPrivateCache(target, graphWithWeights()));
    EXPECT_EQ(weightReadNs(target), 100); // warm
    // Without cached figures hot weights have none to take: warm.
    target.privateCacheBytes = 8192;
    target.paths[0].cachedReads.reset();
    EXPECT_EQ(weightReadNs(target), 100);
}

TEST(WeightRegime, AProgramCheckedApartIsPricedAlike) {
    // Flow checks a program once and emulates it from the check: the same regime both times.
    const ir::Graph graph = graphWithWeights();
    const target::Target target = regimes(4096);
    std::vector<Diagnostic> diagnostics;
    const compiler::Program program = weightLoad();
    const CheckedProgram checked = checkProgram(program, target, graph, diagnostics);
    ASSERT_TRUE(diagnostics.empty());
    auto trace = emulate(program, checked, target, graph);
    ASSERT_TRUE(trace.ok());
    EXPECT_EQ(trace->events[0].durationPs() / kNs, 100);
}

} // namespace
} // namespace strata::emulator
