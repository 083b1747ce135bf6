// A path's ramp (target::Ramp): the first bytes of a transfer move at the ramp's rate, the rest
// at the path's bandwidth, hand-computed on the tiny target of EmulatorFixtures.h (1 cycle =
// 1 ns, `load` moves 16 B/cycle after 100 cycles on the group's 16 B/cycle port).

#include "EmulatorFixtures.h"
#include "emulator/Emulator.h"

#include <gtest/gtest.h>

namespace strata::emulator {
namespace {

using test::ProgramBuilder;
constexpr std::int64_t kNs = 1000; // ps

// tinyGraph plus a constant `w` (value 1).
const ir::Graph& graphWithWeight() {
    static const ir::Graph graph = [] {
        ir::Graph g = test::tinyGraph();
        g.values.push_back(test::floatValue("w", {1 << 20}));
        g.values.back().isConstant = true;
        return g;
    }();
    return graph;
}
constexpr ir::ValueId kActivation{0}, kWeight{1};

// Loads of `value` out of main memory issued together on core 0, then waited on.
compiler::Program loads(ir::ValueId value, std::initializer_list<std::uint64_t> sizes) {
    ProgramBuilder b(1);
    int tag = 0;
    for (std::uint64_t bytes : sizes)
        b.transfer(0, "load", bytes, tag++);
    for (int k = 0; k < tag; ++k)
        b.wait(0, k);
    compiler::Program program = b.program();
    for (int k = 0; k < tag; ++k) {
        auto& t = std::get<compiler::Transfer>(program.instructions[std::size_t(k)].body);
        t.value = value;
        t.source.memory = "DRAM";
        t.destination.memory = "SRAM";
    }
    return program;
}

std::int64_t endOfFirst(const compiler::Program& program, const target::Target& target) {
    auto trace = emulate(program, target, graphWithWeight());
    EXPECT_TRUE(trace.ok()) << (trace.ok() ? "" : trace.diagnostics().front().toString());
    return trace.ok() ? trace->events[0].endPs : -1;
}

target::Target ramped(target::Ramp ramp) {
    target::Target target = test::tinyTarget();
    target.paths[0].ramp = ramp;
    return target;
}

TEST(TransferRamp, TheFirstBytesMoveAtTheRampsRate) {
    const target::Target target = ramped({800, 4});
    // Shorter than the ramp: 100 + 400 / 4.
    EXPECT_EQ(endOfFirst(loads(kActivation, {400}), target), 200 * kNs);
    // Longer: 100 + 800 / 4 + (1600 - 800) / 16.
    EXPECT_EQ(endOfFirst(loads(kActivation, {1600}), target), 350 * kNs);
    // Without a ramp: 100 + 1600 / 16.
    EXPECT_EQ(endOfFirst(loads(kActivation, {1600}), test::tinyTarget()), 200 * kNs);
}

TEST(TransferRamp, BytesPastTheSpillMoveAtItsRate) {
    // 100 + 1600 / 16, and the 800 bytes past the spill at 8 instead of 16 B/cycle: + 50.
    EXPECT_EQ(endOfFirst(loads(kActivation, {1600}), ramped({0, 0, 800, 8})), 250 * kNs);
    // A load no larger than the spill's start is not slowed.
    EXPECT_EQ(endOfFirst(loads(kActivation, {800}), ramped({0, 0, 800, 8})), 150 * kNs);
}

TEST(TransferRamp, TheRampIsNotAShareOfTheBandwidth) {
    // Two 1,600-byte loads at once: each ramps for 800 / 4 - 800 / 16 = 150 cycles past its
    // latency, then both move 1,600 bytes at 8 B/cycle of the shared port: 100 + 150 + 200.
    const compiler::Program two = loads(kActivation, {1600, 1600});
    EXPECT_EQ(endOfFirst(two, ramped({800, 4})), 450 * kNs);
}

TEST(TransferRamp, AWeightReadTakesItsOwnFiguresRamp) {
    target::Target target = ramped({800, 4});
    target.paths[0].weightReads = target::ReadFigures{8, 50, {400, 2}};
    // 50 + 400 / 2 + 1200 / 8.
    EXPECT_EQ(endOfFirst(loads(kWeight, {1600}), target), 400 * kNs);
    // Weight figures without a ramp: none for weights, whatever the path's.
    target.paths[0].weightReads = target::ReadFigures{8, 50};
    EXPECT_EQ(endOfFirst(loads(kWeight, {1600}), target), 250 * kNs);
}

} // namespace
} // namespace strata::emulator
