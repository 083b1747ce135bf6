// Two cores' copies slowing each other down (target::TransferPath::concurrentSlowdown,
// emulator/ConcurrentSlowdown.h): while the other core moves bytes on a path the factor names,
// a transfer's bytes move at its rate / the factor. Hand-computed on a two-core target: 1 cycle
// = 1 ns; every path moves 16 B/cycle after 100 cycles of latency, so 1600 bytes alone take 200
// cycles; stores beside another core's store move 1.5x slower, loads are not slowed.

#include "EmulatorFixtures.h"
#include "emulator/Emulator.h"

#include <gtest/gtest.h>

namespace strata::emulator {
namespace {

using test::ProgramBuilder;

constexpr std::int64_t kNs = 1000; // ps

target::Target slowdownTarget() {
    target::Target t = test::tinyTarget();
    t.groups = 1;
    t.coresPerGroup = 2;
    t.memories[0].scope = target::Scope::Chip;
    t.resources = {{"membus", target::Scope::Chip, 64, ""}};
    t.paths = {{"load", "DRAM", "SRAM", 16, 100, 4, {"membus"}, false, ""},
               {"store", "SRAM", "DRAM", 16, 100, 4, {"membus"}, false, ""}};
    t.paths[1].concurrentSlowdown = {{"store", 1.5}};
    return t;
}

trace::Trace run(const compiler::Program& program,
                 const target::Target& target = slowdownTarget()) {
    auto trace = emulate(program, target, test::tinyGraph());
    EXPECT_TRUE(trace.ok()) << (trace.ok() ? "" : trace.diagnostics().front().toString());
    return trace.ok() ? *trace : trace::Trace{};
}

// Core 0 issues `firstBytes` on `first`, core 1 `secondBytes` on `second`, at the same time.
trace::Trace twoAtOnce(const std::string& first, std::uint64_t firstBytes,
                       const std::string& second, std::uint64_t secondBytes, compiler::InstrId& a,
                       compiler::InstrId& b, const target::Target& target = slowdownTarget()) {
    ProgramBuilder builder(2);
    a = builder.transfer(0, first, firstBytes, 0);
    b = builder.transfer(1, second, secondBytes, 0);
    builder.wait(0, 0);
    builder.wait(1, 0);
    return run(builder.program(), target);
}

TEST(ConcurrentSlowdown, TwoStoresAtOnceMoveSlowerByTheFactor) {
    compiler::InstrId a = 0, b = 0;
    const trace::Trace t = twoAtOnce("store", 1600, "store", 1600, a, b);
    // 100 latency, then 16 / 1.5 B/cycle each: 1600 x 1.5 / 16 = 150 cycles.
    EXPECT_EQ(t.events[a].endPs, 250 * kNs);
    EXPECT_EQ(t.events[b].endPs, 250 * kNs);
}

TEST(ConcurrentSlowdown, AStoreAloneKeepsItsRate) {
    ProgramBuilder builder(2);
    const compiler::InstrId a = builder.transfer(0, "store", 1600, 0);
    builder.wait(0, 0);
    const trace::Trace t = run(builder.program());
    EXPECT_EQ(t.events[a].endPs, 200 * kNs);
}

TEST(ConcurrentSlowdown, OnlyThePathsTheFactorNamesSlowAStore) {
    compiler::InstrId a = 0, b = 0;
    const trace::Trace t = twoAtOnce("store", 1600, "load", 1600, a, b);
    // The store's factor names stores only; the load has none.
    EXPECT_EQ(t.events[a].endPs, 200 * kNs);
    EXPECT_EQ(t.events[b].endPs, 200 * kNs);
}

TEST(ConcurrentSlowdown, AStoreSpeedsUpWhenTheOtherCoresStoreEnds) {
    compiler::InstrId a = 0, b = 0;
    const trace::Trace t = twoAtOnce("store", 1600, "store", 800, a, b);
    // Both move at 16 / 1.5 from 100: core 1's 800 bytes are done at 100 + 75 = 175, when core
    // 0's store has moved 800 too; its other 800 move at 16: 50 more cycles.
    EXPECT_EQ(t.events[b].endPs, 175 * kNs);
    EXPECT_EQ(t.events[a].endPs, 225 * kNs);
}

TEST(ConcurrentSlowdown, TransfersSmallerThanThePrivateCacheNeitherSlowNorAreSlowed) {
    target::Target target = slowdownTarget();
    target.privateCacheBytes = 1000;
    compiler::InstrId a = 0, b = 0;
    // Both at least the private cache: slowed as before.
    trace::Trace t = twoAtOnce("store", 1600, "store", 1600, a, b, target);
    EXPECT_EQ(t.events[a].endPs, 250 * kNs);
    EXPECT_EQ(t.events[b].endPs, 250 * kNs);
    // Core 1's 800 bytes are below it: 100 + 800 / 16 = 150, and core 0's store keeps its rate.
    t = twoAtOnce("store", 1600, "store", 800, a, b, target);
    EXPECT_EQ(t.events[b].endPs, 150 * kNs);
    EXPECT_EQ(t.events[a].endPs, 200 * kNs);
}

} // namespace
} // namespace strata::emulator
