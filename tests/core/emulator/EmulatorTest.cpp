// Hand-computed timelines on the tiny target (EmulatorFixtures.h): 1 cycle = 1 ns = 1000 ps;
// load/store/aux move 16 B/cycle after a 100-cycle latency, so 1600 bytes alone take 200 cycles.

#include "emulator/Emulator.h"

#include "EmulatorFixtures.h"

#include <cmath>
#include <gtest/gtest.h>

namespace strata::emulator {
namespace {

using test::ProgramBuilder;

constexpr std::int64_t kNs = 1000; // ps

trace::Trace run(const compiler::Program& program, const target::Target& target = test::tinyTarget()) {
    auto trace = emulate(program, target, test::tinyGraph());
    EXPECT_TRUE(trace.ok()) << (trace.ok() ? "" : trace.diagnostics().front().toString());
    return trace.ok() ? *trace : trace::Trace{};
}

void expectSpan(const trace::Trace& t, compiler::InstrId id, std::int64_t startNs, std::int64_t endNs) {
    EXPECT_EQ(t.events[id].startPs, startNs * kNs) << "start of i" << id;
    EXPECT_EQ(t.events[id].endPs, endNs * kNs) << "end of i" << id;
}

TEST(Emulator, OneTransferTakesLatencyPlusBytesOverBandwidth) {
    ProgramBuilder b(1);
    auto load = b.transfer(0, "load", 1600, 0);
    auto wait = b.wait(0, 0);
    auto t = run(b.program());
    // 100 latency + 1600 / 16 = 200 cycles; the wait blocks until then.
    expectSpan(t, load, 0, 200);
    expectSpan(t, wait, 0, 200);
    EXPECT_EQ(t.endPs(), 200 * kNs);
    EXPECT_EQ(t.events[load].bytes, 1600u);
    EXPECT_EQ(t.events[wait].link, static_cast<std::int32_t>(load));
}

TEST(Emulator, TwoTransfersOnOneResourceShareItsBandwidthAndOverlapTheirLatency) {
    ProgramBuilder b(1);
    auto first = b.transfer(0, "load", 1600, 0);
    auto second = b.transfer(0, "load", 1600, 1);
    b.wait(0, 0);
    b.wait(0, 1);
    auto t = run(b.program());
    // Both latencies overlap (0..100), then 8 B/cycle each: 1600 / 8 = 200 more cycles.
    // 300 = 100 + 3200 / 16, not 2 x 200.
    expectSpan(t, first, 0, 300);
    expectSpan(t, second, 0, 300);
}

TEST(Emulator, TransfersJoiningAndLeavingAPortAtDifferentTimesShareItFairly) {
    // Three loads on one port, issued 50 cycles apart, so each joins the others mid-flight and
    // they finish in another order than they started (C, A, B).
    ProgramBuilder b(1);
    auto a = b.transfer(0, "load", 1600, 0); // moves from 100
    b.relu(0, 50);
    auto bb = b.transfer(0, "load", 1200, 1); // moves from 150
    b.relu(0, 50);
    auto c = b.transfer(0, "load", 200, 2); // moves from 200
    b.wait(0, 0);
    b.wait(0, 1);
    b.wait(0, 2);
    auto t = run(b.program());
    // 100..150 A alone at 16: 800 B left. 150..200 A and B at 8: A 400 left, B 800.
    // From 200 three at 16/3: C's 200 B take 37.5 cycles (237.5); A has 200 left, B 600.
    // Then A and B at 8: A done at 262.5 with B at 400 left, alone at 16: 287.5.
    EXPECT_EQ(t.events[c].endPs, 237'500);
    EXPECT_EQ(t.events[a].endPs, 262'500);
    EXPECT_EQ(t.events[bb].endPs, 287'500);
    EXPECT_EQ(t.endPs(), 287'500); // the port was busy from 100 on: 3000 B / 16 = 187.5 cycles
}

TEST(Emulator, TransfersOnDisjointPathsRunInParallel) {
    ProgramBuilder b(2);
    auto load = b.transfer(0, "load", 1600, 0);
    auto aux = b.transfer(0, "aux", 1600, 1);
    auto otherGroup = b.transfer(1, "load", 1600, 0); // group 1's own port
    b.wait(0, 0);
    b.wait(0, 1);
    b.wait(1, 0);
    auto t = run(b.program());
    expectSpan(t, load, 0, 200);
    expectSpan(t, aux, 0, 200);
    expectSpan(t, otherGroup, 0, 200);
}

TEST(Emulator, WaitBlocksItsStreamAndChargesOverheads) {
    auto target = test::tinyTarget();
    target.overheads = {3, 2, 1, 10}; // compute, transfer issue, wait, barrier
    ProgramBuilder b(1);
    auto load = b.transfer(0, "load", 1600, 0);
    auto early = b.relu(0, 50);
    auto wait = b.wait(0, 0);
    auto late = b.relu(0, 50);
    auto t = run(b.program(), target);
    expectSpan(t, load, 0, 200);   // starts at issue; the stream is busy 2 cycles issuing it
    expectSpan(t, early, 2, 55);   // 3 + 50 elements at 1 per cycle
    expectSpan(t, wait, 55, 201);  // blocked until 200, then 1 cycle
    expectSpan(t, late, 201, 254);
}

// A block on one core of two runs its computes' work (beyond the overhead) at the target's
// one-core factor; a block on both cores, and the overhead, as fitted.
TEST(Emulator, ABlockOnOneCoreRunsItsWorkAtTheOneCoreFactor) {
    auto target = test::tinyTarget();
    target.overheads.computeCycles = 100;
    ProgramBuilder b(2);
    auto alone = b.relu(0, 1000, 0);
    b.barrier();
    auto first = b.relu(0, 1000, 1);
    auto second = b.relu(1, 1000, 1);
    compiler::Program program = b.program();
    program.blocks = {{0, {}, 1, {0}, 0}, {1, {}, 2, {0, 1}, 0}};
    auto same = run(program, target);
    EXPECT_EQ(same.events[alone].durationPs(), 1100 * kNs);
    target.oneCoreWorkFactor = 0.5;
    auto t = run(program, target);
    EXPECT_EQ(t.events[alone].durationPs(), 600 * kNs); // 100 + 1000 x 0.5
    EXPECT_EQ(t.events[first].durationPs(), 1100 * kNs);
    EXPECT_EQ(t.events[second].durationPs(), 1100 * kNs);
}

TEST(Emulator, DoubleBufferingHidesALoadBehindCompute) {
    ProgramBuilder b(1);
    auto load0 = b.transfer(0, "load", 1600, 0);
    b.wait(0, 0);
    auto load1 = b.transfer(0, "load", 1600, 1); // next tile's load before this tile's compute
    auto compute0 = b.conv(0, 300);
    auto wait1 = b.wait(0, 1);
    auto compute1 = b.conv(0, 300);
    auto t = run(b.program());
    expectSpan(t, load0, 0, 200);
    expectSpan(t, load1, 200, 400);
    expectSpan(t, compute0, 200, 500);
    expectSpan(t, wait1, 500, 500); // load 1 landed at 400: no stall
    expectSpan(t, compute1, 500, 800);
    // Single buffered it would be 200 + 300 + 200 + 300 = 1000.
    EXPECT_EQ(t.endPs(), 800 * kNs);
}

// accuracy's 'at speed' (EmulateOptions::computeSpeed): computes take their cycles over the
// speed, transfers keep theirs. The double-buffered program above at twice the speed: its
// computes take 150, so the second waits for its load.
TEST(Emulator, ComputeSpeedScalesComputesAndLeavesTransfers) {
    ProgramBuilder b(1);
    auto load0 = b.transfer(0, "load", 1600, 0);
    b.wait(0, 0);
    auto load1 = b.transfer(0, "load", 1600, 1);
    auto compute0 = b.conv(0, 300);
    auto wait1 = b.wait(0, 1);
    auto compute1 = b.conv(0, 300);
    auto t = emulate(b.program(), test::tinyTarget(), test::tinyGraph(), {.computeSpeed = 2});
    ASSERT_TRUE(t.ok()) << t.diagnostics().front().toString();
    expectSpan(*t, load0, 0, 200);
    expectSpan(*t, load1, 200, 400);
    expectSpan(*t, compute0, 200, 350);
    expectSpan(*t, wait1, 350, 400);
    expectSpan(*t, compute1, 400, 550);
    for (double bad : {0.0, -1.0, std::nan("")}) {
        auto refused =
            emulate(b.program(), test::tinyTarget(), test::tinyGraph(), {.computeSpeed = bad});
        ASSERT_FALSE(refused.ok()) << bad;
        EXPECT_NE(refused.diagnostics().front().message.find("compute speed"), std::string::npos);
    }
}

TEST(Emulator, BarrierReleasesEveryCoreWhenTheLastArrives) {
    auto target = test::tinyTarget();
    target.overheads.barrierCycles = 10;
    ProgramBuilder b(2);
    b.conv(0, 100);
    b.conv(1, 300);
    b.barrier();
    auto after0 = b.conv(0, 50);
    auto after1 = b.conv(1, 50);
    auto t = run(b.program(), target);
    expectSpan(t, 2, 100, 310); // core 0's barrier (i2): arrived 100, released 300 + 10
    expectSpan(t, 3, 300, 310);             // core 1's barrier (i3)
    expectSpan(t, after0, 310, 360);
    expectSpan(t, after1, 310, 360);
    EXPECT_EQ(t.events[2].link, 0);
}

// Cores given equal work do not finish together: the last working core is expected the join
// skew after their mean arrival (target::JoinSkew), 2 * sqrt(work) cycles here. A block only one
// core worked in has no race; one whose own work is uneven by more keeps its emulated arrival.
TEST(Emulator, JoinSkewDelaysTheLastOfCoresThatAllWorked) {
    auto target = test::tinyTarget();
    target.overheads.barrierCycles = 10;
    target.joinSkew = {2, 0.5};
    ProgramBuilder b(2);
    b.conv(0, 400);
    b.conv(1, 400);
    b.barrier(); // i2, i3: both arrive at 400, work 400: skew 40, release 400 + 40 + 10
    b.conv(0, 100);
    b.barrier(); // i5, i6: core 0 alone worked (arrives 550): released at 560
    b.conv(0, 100);
    b.conv(1, 300);
    b.barrier(); // i9, i10: arrivals 660 and 860, mean 760 + 2 sqrt(200) = 788 < 860: 870
    auto last = b.conv(0, 50);
    auto t = run(b.program(), target);
    expectSpan(t, 2, 400, 450);
    expectSpan(t, 3, 400, 450);
    expectSpan(t, 5, 550, 560);
    expectSpan(t, 6, 450, 560);
    expectSpan(t, 9, 660, 870);
    expectSpan(t, 10, 860, 870);
    expectSpan(t, last, 870, 920);

    target.joinSkew = {}; // none: the barriers release at the last arrival + 10
    auto plain = run(b.program(), target);
    expectSpan(plain, 2, 400, 410);
    expectSpan(plain, last, 830, 880);
}

// The stretch after a barrier with nothing in flight is timed from the barrier's release, to the
// picosecond the same as on its own (the search sums stretches: search/StretchTimes.h); a barrier
// that a transfer crosses restarts nothing. A 3 GHz clock makes picoseconds fractional per cycle.
TEST(Emulator, TheClockRestartsAtABarrierWithNothingInFlight) {
    auto target = test::tinyTarget();
    target.clockHz = 3e9;
    target.overheads.barrierCycles = 7;
    auto stretch = [](ProgramBuilder& b) {
        b.transfer(0, "load", 1000, 1);
        b.transfer(1, "load", 777, 1);
        b.wait(0, 1);
        b.wait(1, 1);
        b.conv(0, 1234.5);
        b.relu(1, 333);
    };
    ProgramBuilder alone(2);
    stretch(alone);
    const trace::Trace a = run(alone.program(), target);

    ProgramBuilder after(2);
    after.conv(0, 999.25);
    after.transfer(1, "load", 1601, 0);
    after.wait(1, 0);
    after.barrier();
    stretch(after);
    std::vector<std::uint32_t> restarts;
    EmulateOptions options;
    options.restarts = &restarts;
    auto b = emulate(after.program(), target, test::tinyGraph(), options);
    ASSERT_TRUE(b.ok());
    EXPECT_EQ(restarts, std::vector<std::uint32_t>{0});
    const std::int64_t release = b->events[3].endPs; // core 0's barrier (i3)
    EXPECT_EQ(b->endPs() - release, a.endPs());

    ProgramBuilder crossing(2);
    crossing.transfer(0, "load", 1600, 0);
    crossing.barrier();
    crossing.wait(0, 0);
    restarts.clear();
    ASSERT_TRUE(emulate(crossing.program(), target, test::tinyGraph(), options).ok());
    EXPECT_TRUE(restarts.empty());
}

TEST(Emulator, BroadcastOccupiesEveryGroupsResources) {
    ProgramBuilder b(2);
    auto broadcast = b.transfer(0, "bcast", 3200, 0);
    auto load = b.transfer(1, "load", 1600, 0); // group 1: shares port.1 with half the broadcast
    b.wait(0, 0);
    b.wait(1, 0);
    auto t = run(b.program());
    // From 100: port.1 carries 0.5 x broadcast + load <= 16; max-min fair gives both 32/3 B/cycle
    // (port.0 carries 0.5 x 32/3, not full). The load's 1600 B take 150 cycles: done at 250.
    // The broadcast has moved 1600 B by then; alone again at 32 B/cycle the rest takes 50: 300.
    expectSpan(t, load, 0, 250);
    expectSpan(t, broadcast, 0, 300);
}

TEST(Emulator, BroadcastAloneRunsAtItsCombinedRate) {
    ProgramBuilder b(2);
    auto broadcast = b.transfer(0, "bcast", 3200, 0);
    b.wait(0, 0);
    auto t = run(b.program());
    // 32 B/cycle: 16 on each group's port. 100 + 3200 / 32 = 200.
    expectSpan(t, broadcast, 0, 200);
}

TEST(Emulator, FullPathStallsIssueUntilASlotFrees) {
    auto target = test::tinyTarget();
    target.paths[0].maxInFlight = 2;
    ProgramBuilder b(1);
    auto first = b.transfer(0, "load", 1600, 0);
    auto second = b.transfer(0, "load", 1600, 1);
    auto third = b.transfer(0, "load", 1600, 2);
    b.wait(0, 0);
    b.wait(0, 1);
    b.wait(0, 2);
    auto t = run(b.program(), target);
    expectSpan(t, first, 0, 300);
    expectSpan(t, second, 0, 300);
    expectSpan(t, third, 300, 500); // issued when a slot frees at 300, then alone: 200
}

TEST(Emulator, ZeroByteTransferTakesItsLatency) {
    ProgramBuilder b(1);
    auto load = b.transfer(0, "load", 0, 0);
    b.wait(0, 0);
    auto t = run(b.program());
    expectSpan(t, load, 0, 100);
}

TEST(Emulator, ContentionComesFromTheTargetFile) {
    // Give aux the port too: the two transfers that ran in parallel now share it.
    auto target = test::tinyTarget();
    target.paths[2].resources = {"port"};
    ProgramBuilder b(1);
    auto load = b.transfer(0, "load", 1600, 0);
    auto aux = b.transfer(0, "aux", 1600, 1);
    b.wait(0, 0);
    b.wait(0, 1);
    auto t = run(b.program(), target);
    expectSpan(t, load, 0, 300);
    expectSpan(t, aux, 0, 300);
}

TEST(Emulator, EventsCarryProvenanceAndCounters) {
    ProgramBuilder b(1);
    b.transfer(0, "load", 1600, 0, 3);
    b.wait(0, 0, 3);
    auto relu = b.relu(0, 64, 3);
    auto t = run(b.program());
    EXPECT_EQ(t.events[relu].kind, trace::EventKind::Compute);
    EXPECT_EQ(t.events[relu].block, 3);
    EXPECT_EQ(t.opName(t.events[relu]), "relu");
    EXPECT_EQ(t.events[relu].bytes, 64u * 4); // its output region, float
    EXPECT_EQ(t.pathName(t.events[0]), "load");
    EXPECT_EQ(t.target, "tiny");
    EXPECT_EQ(t.clockHz, 1e9);
    // load's bandwidth: 0, then 16 GB/s from 100 to 200 ns, then 0.
    const trace::Counter* bandwidth = nullptr;
    for (const auto& c : t.counters)
        if (c.kind == trace::Counter::Kind::PathBandwidth) bandwidth = &c;
    ASSERT_NE(bandwidth, nullptr);
    EXPECT_EQ(bandwidth->samples, (std::vector<trace::CounterSample>{{0, 0}, {100 * kNs, 16}, {200 * kNs, 0}}));
}

TEST(Emulator, IssuerBusyTransfersRunBackToBackAndHoldTheStream) {
    auto target = test::tinyTarget();
    target.paths[0].issuerBusy = true; // load: the core copies the bytes itself
    target.overheads = {3, 2, 1, 10};  // compute, transfer issue, wait, barrier
    ProgramBuilder b(1);
    auto first = b.transfer(0, "load", 1600, 0);
    auto second = b.transfer(0, "load", 1600, 1);
    auto relu = b.relu(0, 50);
    auto wait0 = b.wait(0, 0);
    auto wait1 = b.wait(0, 1);
    auto t = run(b.program(), target);
    // Each alone: 100 latency + 1600 / 16 = 200 cycles; the stream is held until the end, so
    // the second starts at 200, not at 2, and the compute only when the second is done.
    expectSpan(t, first, 0, 200);
    expectSpan(t, second, 200, 400);
    expectSpan(t, relu, 400, 453); // 3 + 50 elements
    expectSpan(t, wait0, 453, 454); // already complete: only the wait overhead
    expectSpan(t, wait1, 454, 455);
}

TEST(Emulator, IssuerBusyTransferStillSharesBandwidth) {
    auto target = test::tinyTarget();
    target.paths[0].issuerBusy = true; // load, on the port; store stays asynchronous
    ProgramBuilder b(1);
    auto store = b.transfer(0, "store", 1600, 0);
    auto load = b.transfer(0, "load", 1600, 1);
    auto relu = b.relu(0, 50);
    b.wait(0, 0);
    auto t = run(b.program(), target);
    // Both issued at 0, latencies overlap, then 8 B/cycle each on the port: 100 + 200 = 300.
    expectSpan(t, store, 0, 300);
    expectSpan(t, load, 0, 300);
    expectSpan(t, relu, 300, 350);
}

const trace::Counter* sramCounter(const trace::Trace& t, std::uint32_t core) {
    for (const auto& c : t.counters)
        if (c.kind == trace::Counter::Kind::SramBytes && c.index == core) return &c;
    return nullptr;
}

TEST(Emulator, SramCounterCountsBroadcastDeliveries) {
    ProgramBuilder b(2);
    b.relu(0, 50, 0);
    auto broadcast = b.transfer(0, "bcast", 3200, 0, 1); // block 1's weights, to core 1 too
    b.wait(0, 0, 1);
    b.relu(1, 30, 0);
    b.barrier();
    b.relu(0, 10, 1);
    b.relu(1, 10, 1);
    compiler::Program program = b.program();
    std::get<compiler::Transfer>(program.instructions[broadcast].body).alsoTo = {1};
    program.blocks.resize(2);
    program.blocks[0].block = 0;
    program.blocks[0].sramBytes = 1000;
    program.blocks[1].block = 1;
    program.blocks[1].sramBytes = 3000;
    auto t = run(program);
    // Broadcast issued at 50, done at 100 + 3200 / 32 = 250, barrier released then.
    expectSpan(t, broadcast, 50, 250);
    const trace::Counter* core0 = sramCounter(t, 0);
    const trace::Counter* core1 = sramCounter(t, 1);
    ASSERT_TRUE(core0 && core1);
    using Samples = std::vector<trace::CounterSample>;
    EXPECT_EQ(core0->samples, (Samples{{0, 1000}, {50 * kNs, 3000}, {260 * kNs, 0}}));
    // Core 1, done with block 0 at 30, holds block 1's working memory once its weights land at
    // 50, not only from its own first block-1 instruction at 250.
    EXPECT_EQ(core1->samples, (Samples{{0, 1000}, {50 * kNs, 3000}, {260 * kNs, 0}}));
}

// From 20,000 instructions the program is checked in two halves on two threads: every step of
// the second half must be described as in the first.
TEST(Emulator, LargeProgramIsTimedAlikeInBothHalvesOfItsCheck) {
    constexpr int kPairs = 15000; // 30,000 instructions
    ProgramBuilder b(1);
    for (int i = 0; i < kPairs; ++i) {
        b.transfer(0, "load", 1600, i % 2);
        b.relu(0, 100);
        b.wait(0, i % 2);
    }
    auto t = run(b.program());
    ASSERT_EQ(t.events.size(), 3u * kPairs);
    // Each pair: the load (100 + 1600 / 16 = 200 cycles) with the relu (100) behind it, back to back.
    for (int i : {0, kPairs / 2 - 1, kPairs / 2, kPairs - 1}) {
        const auto id = static_cast<compiler::InstrId>(3 * i);
        expectSpan(t, id, 200 * i, 200 * (i + 1));
        expectSpan(t, id + 1, 200 * i, 200 * i + 100);
        EXPECT_EQ(t.events[id + 2].link, static_cast<std::int32_t>(id)) << "wait of pair " << i;
    }
    EXPECT_EQ(t.endPs(), std::int64_t(200) * kPairs * kNs);
}

TEST(EmulatorErrors, ProblemsInBothHalvesOfALargeProgramAreReportedInIdOrder) {
    ProgramBuilder b(1);
    for (int i = 0; i < 15000; ++i) {
        b.transfer(0, (i == 3 || i == 12000) ? "nowhere" : "load", 16, 0);
        b.wait(0, 0);
    }
    auto t = emulate(b.program(), test::tinyTarget(), test::tinyGraph());
    ASSERT_FALSE(t.ok());
    ASSERT_EQ(t.diagnostics().size(), 2u);
    EXPECT_NE(t.diagnostics()[0].message.find("i000006: target 'tiny' has no path 'nowhere'"), std::string::npos)
        << t.diagnostics()[0].message;
    EXPECT_NE(t.diagnostics()[1].message.find("i024000: target 'tiny' has no path 'nowhere'"), std::string::npos)
        << t.diagnostics()[1].message;
}

TEST(EmulatorErrors, BroadcastToACoreOutsideTheProgram) {
    ProgramBuilder b(2);
    auto broadcast = b.transfer(0, "bcast", 64, 0);
    b.wait(0, 0);
    compiler::Program program = b.program();
    std::get<compiler::Transfer>(program.instructions[broadcast].body).alsoTo = {1, 5};
    auto t = emulate(program, test::tinyTarget(), test::tinyGraph());
    ASSERT_FALSE(t.ok());
    EXPECT_NE(t.diagnostics().front().message.find("delivers to core 5"), std::string::npos) << t.diagnostics().front().message;
}

TEST(EmulatorErrors, WaitOnATagNeverIssued) {
    ProgramBuilder b(1);
    b.wait(0, 7);
    auto t = emulate(b.program(), test::tinyTarget(), test::tinyGraph());
    ASSERT_FALSE(t.ok());
    EXPECT_NE(t.diagnostics().front().message.find("waits on tag t7"), std::string::npos) << t.diagnostics().front().message;
}

TEST(EmulatorErrors, UnknownPath) {
    ProgramBuilder b(1);
    b.transfer(0, "mvp", 16, 0);
    b.wait(0, 0);
    auto t = emulate(b.program(), test::tinyTarget(), test::tinyGraph());
    ASSERT_FALSE(t.ok());
    EXPECT_NE(t.diagnostics().front().message.find("no path 'mvp'"), std::string::npos);
}

TEST(EmulatorErrors, BarriersThatDoNotMatchAcrossCores) {
    ProgramBuilder b(2);
    b.barrier();
    auto program = b.program();
    program.streams[1].clear();
    program.instructions.pop_back();
    auto t = emulate(program, test::tinyTarget(), test::tinyGraph());
    ASSERT_FALSE(t.ok());
    EXPECT_NE(t.diagnostics().front().message.find("never all meet"), std::string::npos) << t.diagnostics().front().message;
}

TEST(EmulatorErrors, MoreCoresThanTheTarget) {
    ProgramBuilder b(3);
    auto t = emulate(b.program(), test::tinyTarget(), test::tinyGraph());
    ASSERT_FALSE(t.ok());
    EXPECT_NE(t.diagnostics().front().message.find("3 cores"), std::string::npos);
}

} // namespace
} // namespace strata::emulator
