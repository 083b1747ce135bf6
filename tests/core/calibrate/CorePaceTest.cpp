// Whether the cores ran at the same pace: the probe's program, its reading on hand-made traces
// (priming left out, medians per core), the spread and the warning a user gets. No timing is
// asserted: the run on this machine only has to give every core a time.

#include "calibrate/CorePace.h"

#include "calibrate/BenchPrograms.h"
#include "target/TargetLoader.h"

#include <gtest/gtest.h>

namespace strata::calibrate {
namespace {

target::Target host() {
    auto t = target::resolveTarget("host-uncalibrated"); // this machine's cores and caches
    EXPECT_TRUE(t.ok());
    return t.ok() ? *t : target::Target{};
}

trace::Event transfer(std::uint32_t core, std::int64_t ns, std::int32_t tile = 0) {
    trace::Event e;
    e.kind = trace::EventKind::Transfer;
    e.core = core;
    e.tile = tile;
    e.endPs = ns * 1000;
    return e;
}

TEST(CorePace, ProbeMovesTheSameBytesFromMainMemoryOnEveryCore) {
    const target::Target t = host();
    auto probe = paceProbeProgram(t);
    ASSERT_TRUE(probe.ok()) << probe.diagnostics().front().message;
    EXPECT_EQ(probe->cores, t.cores());
    std::vector<int> measured(static_cast<std::size_t>(t.cores()), 0);
    for (const compiler::Instruction& in : probe->instructions) {
        if (in.kind() != compiler::InstrKind::Transfer || in.from.tile == kPrimingTile)
            continue;
        const auto& copy = std::get<compiler::Transfer>(in.body);
        EXPECT_EQ(copy.source.memory, t.mainMemory);
        ++measured[static_cast<std::size_t>(in.core)];
    }
    for (int count : measured)
        EXPECT_EQ(count, kPaceProbeTransfers);
}

TEST(CorePace, ATargetWithoutALoadPathHasNoProbe) {
    target::Target t = host();
    for (target::TransferPath& path : t.paths)
        path.source = "elsewhere";
    auto probe = paceProbeProgram(t);
    ASSERT_FALSE(probe.ok());
    EXPECT_NE(probe.diagnostics().front().message.find("has no path from"), std::string::npos)
        << probe.diagnostics().front().message;
}

TEST(CorePace, ReadsEachCoresMedianCopyLeavingThePrimingOut) {
    compiler::Program probe;
    probe.cores = 2;
    trace::Trace run;
    // Core 0: 100, 110, 400 ns (median 110); core 1: 150, 160, 170 (median 160); the primings
    // (5,000 ns) and a compute do not count.
    for (std::int64_t ns : {100, 400, 110})
        run.events.push_back(transfer(0, ns));
    for (std::int64_t ns : {170, 150, 160})
        run.events.push_back(transfer(1, ns));
    run.events.push_back(transfer(0, 5000, kPrimingTile));
    run.events.push_back(transfer(1, 5000, kPrimingTile));
    trace::Event compute = transfer(1, 9000);
    compute.kind = trace::EventKind::Compute;
    run.events.push_back(compute);
    const auto pace = paceOf(probe, run, 2e9); // 2 cycles per ns
    ASSERT_TRUE(pace);
    ASSERT_EQ(pace->cycles.size(), 2u);
    EXPECT_DOUBLE_EQ(pace->cycles[0], 220);
    EXPECT_DOUBLE_EQ(pace->cycles[1], 320);
    EXPECT_EQ(pace->slowest(), 1);
    EXPECT_EQ(pace->fastest(), 0);
    EXPECT_NEAR(pace->spread(), 320.0 / 220 - 1, 1e-12);
}

TEST(CorePace, ACoreWithoutAMeasuredCopyHasNoPace) {
    compiler::Program probe;
    probe.cores = 2;
    trace::Trace run;
    run.events.push_back(transfer(0, 100));
    run.events.push_back(transfer(1, 100, kPrimingTile));
    EXPECT_FALSE(paceOf(probe, run, 1e9));
}

TEST(CorePace, OneCoreHasNoSpreadAndTheMedianOfProbesIsPerCore) {
    EXPECT_EQ(CorePace{{500}}.spread(), 0);
    EXPECT_EQ(CorePace{}.spread(), 0);
    // Three probes: one caught core 1 in a preemption (9,000); per core the middle one counts.
    const CorePace typical = medianPace({{{100, 110}}, {{120, 9000}}, {{90, 130}}});
    EXPECT_EQ(typical.cycles, (std::vector<double>{100, 130}));
    EXPECT_TRUE(medianPace({}).cycles.empty());
}

TEST(CorePace, UnevenCoresAreAWarningNamingTheSlowCoreAndHowMuch) {
    EXPECT_EQ(unevenCoresWarning({{100, 109.9}}, "x", "y"), "");
    EXPECT_EQ(unevenCoresWarning({{100}}, "x", "y"), "");
    const std::string w = unevenCoresWarning({{138, 100}}, "calibration", "the figures may be off");
    EXPECT_NE(w.find("while calibration measured: core 0 took 1.38x core 1's time"),
              std::string::npos)
        << w;
    EXPECT_NE(w.find("another program or virtual machine"), std::string::npos) << w;
    EXPECT_NE(w.find("the figures may be off"), std::string::npos) << w;
}

TEST(CorePace, TheProbeRunsOnThisMachine) {
    const target::Target t = host();
    auto pace = measureCorePace(t);
    ASSERT_TRUE(pace.ok()) << pace.diagnostics().front().message;
    ASSERT_EQ(pace->cycles.size(), static_cast<std::size_t>(t.cores()));
    for (double cycles : pace->cycles)
        EXPECT_GT(cycles, 0);
}

} // namespace
} // namespace strata::calibrate
