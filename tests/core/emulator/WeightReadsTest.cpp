// Reads of weights on a path with its own figures for them (paths[].weight_reads), hand-computed
// on the tiny target of EmulatorFixtures.h: 1 cycle = 1 ns, `load` moves 16 B/cycle after 100
// cycles on the group's 16 B/cycle port.

#include "EmulatorFixtures.h"
#include "emulator/Emulator.h"

#include <gtest/gtest.h>

namespace strata::emulator {
namespace {

using test::ProgramBuilder;
constexpr std::int64_t kNs = 1000; // ps

// tinyGraph plus a constant `w` (value 1): x (value 0) is an activation, w a weight.
const ir::Graph& graphWithWeight() {
    static const ir::Graph graph = [] {
        ir::Graph g = test::tinyGraph();
        g.values.push_back(test::floatValue("w", {1024}));
        g.values.back().isConstant = true;
        return g;
    }();
    return graph;
}
constexpr ir::ValueId kActivation{0}, kWeight{1};

// Loads issued together on core 0 out of main memory, each reading `value`, then waited on.
compiler::Program loads(std::initializer_list<std::pair<ir::ValueId, std::uint64_t>> reads) {
    ProgramBuilder b(1);
    int tag = 0;
    for (const auto& read : reads) b.transfer(0, "load", read.second, tag++);
    for (int k = 0; k < tag; ++k) b.wait(0, k);
    compiler::Program program = b.program();
    std::size_t k = 0;
    for (const auto& read : reads) {
        auto& t = std::get<compiler::Transfer>(program.instructions[k++].body);
        t.value = read.first;
        t.source.memory = "DRAM";
        t.destination.memory = "SRAM";
    }
    return program;
}

trace::Trace run(const compiler::Program& program, const target::Target& target) {
    auto trace = emulate(program, target, graphWithWeight());
    EXPECT_TRUE(trace.ok()) << (trace.ok() ? "" : trace.diagnostics().front().toString());
    return trace.ok() ? *trace : trace::Trace{};
}

target::Target slowWeights(double bytesPerCycle, double latencyCycles) {
    target::Target target = test::tinyTarget();
    target.paths[0].weightReads = target::ReadFigures{bytesPerCycle, latencyCycles};
    return target;
}

TEST(WeightReads, AWeightReadTakesTheWeightFiguresAndAnActivationThePaths) {
    const target::Target target = slowWeights(4, 300);
    EXPECT_EQ(run(loads({{kWeight, 400}}), target).events[0].endPs, 400 * kNs);     // 300 + 400 / 4
    EXPECT_EQ(run(loads({{kActivation, 400}}), target).events[0].endPs, 125 * kNs); // 100 + 400 / 16
}

TEST(WeightReads, WithoutTheFiguresAWeightIsReadLikeAnyTensor) {
    EXPECT_EQ(run(loads({{kWeight, 400}}), test::tinyTarget()).events[0].endPs, 125 * kNs);
}

TEST(WeightReads, AWeightReadOutOfAnotherMemoryIsNotOne) {
    compiler::Program program = loads({{kWeight, 400}});
    std::get<compiler::Transfer>(program.instructions[0].body).source.memory = "SRAM";
    EXPECT_EQ(run(program, slowWeights(4, 300)).events[0].endPs, 125 * kNs);
}

TEST(WeightReads, AWeightReadAndAnActivationShareThePortAsTwoFlows) {
    // Both move from cycle 100. The weight read is capped at 4 B/cycle, so the activation gets
    // the port's other 12: the weight's 400 bytes end at 100 + 400 / 4 = 200, when the
    // activation has moved 1,200 of its 1,600; its last 400 at 16 B/cycle end at 225. (Kept in
    // one class with the path's 16 B/cycle, each would get 8: the weight would end at 150.)
    const trace::Trace t = run(loads({{kWeight, 400}, {kActivation, 1600}}), slowWeights(4, 100));
    EXPECT_EQ(t.events[0].endPs, 200 * kNs);
    EXPECT_EQ(t.events[1].endPs, 225 * kNs);
}

TEST(WeightReads, ConcurrentWeightReadsShareTheirClassFairly) {
    // Two weight reads of 400 bytes at 10 B/cycle each need 20 of the port's 16: 8 each, both
    // end at 100 + 400 / 8 = 150.
    const trace::Trace t = run(loads({{kWeight, 400}, {kWeight, 400}}), slowWeights(10, 100));
    EXPECT_EQ(t.events[0].endPs, 150 * kNs);
    EXPECT_EQ(t.events[1].endPs, 150 * kNs);
}

// Loads one after another on `core`s, each waited on at once: (core, w's elements [begin, end)).
compiler::Program
weightTiles(std::initializer_list<std::tuple<int, std::int64_t, std::int64_t>> tiles) {
    ProgramBuilder b(2);
    std::vector<compiler::InstrId> ids;
    for (const auto& [core, begin, end] : tiles) {
        ids.push_back(b.transfer(core, "load", 4 * std::uint64_t(end - begin), 0));
        b.wait(core, 0);
    }
    compiler::Program program = b.program();
    std::size_t k = 0;
    for (const auto& [core, begin, end] : tiles) {
        auto& t = std::get<compiler::Transfer>(program.instructions[ids[k++]].body);
        t.value = kWeight;
        t.region = {{begin, end}};
        t.source.memory = "DRAM";
        t.destination.memory = "SRAM";
    }
    return program;
}

std::int64_t endOf(const trace::Trace& trace, std::size_t transfer) {
    std::size_t seen = 0;
    for (const trace::Event& e : trace.events)
        if (e.kind == trace::EventKind::Transfer && seen++ == transfer)
            return e.durationPs() / kNs;
    return -1;
}

TEST(WeightReads, AWeightTileTheCoreReadAMomentAgoIsReadLikeOtherData) {
    // The next spatial tile of a convolution reloads the same weights: from the core's cache.
    const target::Target target = slowWeights(4, 300);
    const trace::Trace t = run(weightTiles({{0, 0, 100}, {0, 0, 100}}), target);
    EXPECT_EQ(endOf(t, 0), 400); // 300 + 400 / 4: cold
    EXPECT_EQ(endOf(t, 1), 125); // 100 + 400 / 16: the path's figures
}

TEST(WeightReads, AWeightTheOtherCoreReadOrThisCoreReadLongAgoIsCold) {
    const target::Target target = slowWeights(4, 300);
    EXPECT_EQ(endOf(run(weightTiles({{1, 0, 100}, {0, 0, 100}}), target), 1), 400);
    // Another tile of the same weight is not the one read.
    EXPECT_EQ(endOf(run(weightTiles({{0, 0, 100}, {0, 100, 200}}), target), 1), 400);
    // Half of it read: below the 90% that make a read cached.
    EXPECT_EQ(endOf(run(weightTiles({{0, 0, 50}, {0, 0, 100}}), target), 1), 400);
}

} // namespace
} // namespace strata::emulator
