// A path's own contention resource (calibration's `<path>_contention`, docs/CALIBRATION.md):
// two cores' transfers on that path share it, a transfer on another path does not. Hand-computed
// on a two-core target: 1 cycle = 1 ns; every path moves 16 B/cycle after 100 cycles of
// latency, so 1600 bytes alone take 200 cycles.

#include "EmulatorFixtures.h"
#include "emulator/Emulator.h"

#include <gtest/gtest.h>

namespace strata::emulator {
namespace {

using test::ProgramBuilder;

constexpr std::int64_t kNs = 1000; // ps

// One chip-wide bus both paths use, wide enough for two of them (64 B/cycle); the store path
// lists its own resource too, 16 B/cycle: two stores at once get 8 each.
target::Target storeContentionTarget() {
    target::Target t = test::tinyTarget();
    t.groups = 1;
    t.coresPerGroup = 2;
    t.memories[0].scope = target::Scope::Chip;
    t.resources = {{"membus", target::Scope::Chip, 64, ""},
                   {"store_contention", target::Scope::Chip, 16, ""}};
    t.paths = {{"load", "DRAM", "SRAM", 16, 100, 4, {"membus"}, false, ""},
               {"store", "SRAM", "DRAM", 16, 100, 4, {"membus", "store_contention"}, false, ""}};
    return t;
}

trace::Trace run(const compiler::Program& program) {
    auto trace = emulate(program, storeContentionTarget(), test::tinyGraph());
    EXPECT_TRUE(trace.ok()) << (trace.ok() ? "" : trace.diagnostics().front().toString());
    return trace.ok() ? *trace : trace::Trace{};
}

// Core 0 issues 1600 bytes on `first`, core 1 on `second`, at the same time; returns the trace.
trace::Trace twoAtOnce(const std::string& first, const std::string& second, compiler::InstrId& a,
                       compiler::InstrId& b) {
    ProgramBuilder builder(2);
    a = builder.transfer(0, first, 1600, 0);
    b = builder.transfer(1, second, 1600, 0);
    builder.wait(0, 0);
    builder.wait(1, 0);
    return run(builder.program());
}

TEST(PathContention, TwoStoresAtOnceShareTheStorePathsOwnResource) {
    compiler::InstrId a = 0, b = 0;
    const trace::Trace t = twoAtOnce("store", "store", a, b);
    // 100 latency, then 16 / 2 = 8 B/cycle each: 1600 / 8 = 200 more cycles.
    EXPECT_EQ(t.events[a].endPs, 300 * kNs);
    EXPECT_EQ(t.events[b].endPs, 300 * kNs);
}

TEST(PathContention, AStoreBesideALoadKeepsItsRate) {
    compiler::InstrId a = 0, b = 0;
    const trace::Trace t = twoAtOnce("store", "load", a, b);
    // The bus carries both at 16 (32 of 64); the store's own resource has one flow.
    EXPECT_EQ(t.events[a].endPs, 200 * kNs);
    EXPECT_EQ(t.events[b].endPs, 200 * kNs);
}

TEST(PathContention, TwoLoadsAtOnceKeepTheirRate) {
    compiler::InstrId a = 0, b = 0;
    const trace::Trace t = twoAtOnce("load", "load", a, b);
    EXPECT_EQ(t.events[a].endPs, 200 * kNs);
    EXPECT_EQ(t.events[b].endPs, 200 * kNs);
}

} // namespace
} // namespace strata::emulator
