// The programs calibration fits weight_reads and cached_reads from: compiled for this machine as
// calibration compiles them, they hold reads of each kind (as the emulator tells them) in enough
// sizes for a fit, and their weights are far more than the cores' L2 caches hold.

#include "calibrate/BenchPrograms.h"
#include "calibrate/ReuseDistanceFit.h"
#include "compiler/Pipeline.h"
#include "emulator/ProgramCheck.h"
#include "schedule/Strategies.h"
#include "target/HostProbe.h"
#include "target/TargetLoader.h"

#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>
#include <set>

namespace strata::calibrate {
namespace {

// This machine, with figures for every kind of read so the check tells them apart.
target::Target classifyingHost() {
    auto t = target::resolveTarget("host-uncalibrated");
    EXPECT_TRUE(t.ok());
    target::Target host = t.ok() ? *t : target::Target{};
    for (target::TransferPath& p : host.paths)
        if (p.source == host.mainMemory)
            p.weightReads = p.cachedReads = p.sharedReads =
                target::ReadFigures{p.bytesPerCycle, p.latencyCycles};
        else if (p.destination == host.mainMemory)
            p.cachedWrites = target::ReadFigures{p.bytesPerCycle, p.latencyCycles};
    return host;
}

// Distinct sizes of the reads of each kind over all the graphs' programs.
std::array<std::set<std::uint64_t>, target::kReadKinds>
readSizes(const target::Target& host,
          const std::vector<std::shared_ptr<const ir::Graph>>& graphs = readKindGraphs()) {
    std::array<std::set<std::uint64_t>, target::kReadKinds> sizes;
    for (const auto& graph : graphs) {
        const auto s = schedule::makeSchedule(*graph, host, schedule::Strategy::Rules, {.mp = host.cores()});
        auto compiled = compiler::compile(*graph, host, s);
        EXPECT_TRUE(compiled.ok()) << graph->name << ": " << compiled.diagnostics().front().message;
        if (!compiled.ok()) continue;
        std::vector<Diagnostic> diagnostics;
        const auto checked = emulator::checkProgram(compiled->program, host, *graph, diagnostics);
        EXPECT_TRUE(diagnostics.empty()) << graph->name;
        for (std::size_t i = 0; i < checked.steps.size(); ++i)
            if (const auto* t =
                    std::get_if<compiler::Transfer>(&compiled->program.instructions[i].body))
                sizes[static_cast<std::size_t>(checked.steps[i].read)].insert(t->bytes);
    }
    return sizes;
}

TEST(ReadKindGraphs, HoldWeightAndCachedReadsInEnoughSizesToFit) {
    const auto sizes = readSizes(classifyingHost());
    EXPECT_GE(sizes[static_cast<std::size_t>(target::ReadKind::Weight)].size(), 4u);
    EXPECT_GE(sizes[static_cast<std::size_t>(target::ReadKind::Cached)].size(), 4u);
}

// Reads of rows another core stored (shared_reads): the chains above hold them of 12 KiB and up,
// the small chain of 1-8 KiB (where their latency shows), on a machine of two cores or more.
TEST(ReadKindGraphs, HoldReadsOfRowsAnotherCoreStoredSmallAndLarge) {
    const target::Target host = classifyingHost();
    if (host.cores() < 2)
        GTEST_SKIP() << "one core: no other core stores anything";
    const auto shared = static_cast<std::size_t>(target::ReadKind::Shared);
    const auto large = readSizes(host)[shared];
    const auto small = readSizes(host, sharedReadGraphs())[shared];
    EXPECT_GE(large.size(), 4u);
    EXPECT_GE(small.size(), 4u);
    EXPECT_GE(std::count_if(small.begin(), small.end(), [](auto b) { return b < 4096; }), 2);
}

// The chains' stores write buffers their cores have just read from (a freed activation's
// space reused): enough sizes of stores into cached lines for cached_writes, and of stores
// into lines the core does not hold for the store path's own figures.
TEST(ReadKindGraphs, HoldStoresIntoCachedLinesAndOthersInEnoughSizesToFit) {
    const auto sizes = readSizes(classifyingHost());
    EXPECT_GE(sizes[static_cast<std::size_t>(target::ReadKind::CachedWrite)].size(), 4u);
    EXPECT_GE(sizes[static_cast<std::size_t>(target::ReadKind::Other)].size(), 4u);
}

// Cached reads past a core's L2 run at under half the rate of those within it (models' cached
// reads: 100 B/ns at 64 KiB, 54 at 1 MiB, 42 at 4 MiB; docs/ACCURACY.md, "Cached reads past the
// L2"): the spill the fit finds needs three shapes on each side of it, so the chains' tiles must
// reach well past the 1 MiB of a common L2.
TEST(ReadKindGraphs, HoldCachedReadsOfThreeSizesPastAMebibyte) {
    const auto sizes = readSizes(classifyingHost());
    const auto& cached = sizes[static_cast<std::size_t>(target::ReadKind::Cached)];
    EXPECT_GE(std::count_if(cached.begin(), cached.end(),
                            [](std::uint64_t bytes) { return bytes >= (1u << 20); }),
              3);
    EXPECT_GE(std::count_if(cached.begin(), cached.end(),
                            [](std::uint64_t bytes) { return bytes < (256u << 10); }),
              3);
}

// Only the L2s: a last-level cache of tens of MiB (the scratch includes the core's share of it)
// can hold one graph's weights between runs; the warm chains below measure that regime.
TEST(ReadKindGraphs, WeightsAreFarMoreThanTheL2CachesHold) {
    std::uint64_t weightBytes = 0;
    for (const auto& graph : readKindGraphs())
        for (const ir::Value& v : graph->values)
            if (v.isInitializer) weightBytes += v.data.size;
    const target::HostFacts machine = target::probeHost();
    EXPECT_GT(weightBytes, 4 * machine.l2BytesPerCore * static_cast<std::uint64_t>(machine.cpus));
}

// The warm chains (warm_weight_reads): weight reads from a few bytes (a scalar, a bias) to
// hundreds of KiB, each chain's weights about a quarter of the last-level cache (more than the
// cores' L2s hold, well within that cache), whatever its size.
TEST(ReadKindGraphs, WarmChainsReadSmallAndLargeWeightsThatFitTheLastLevelCache) {
    const auto sizes = readSizes(classifyingHost(), warmWeightGraphs(32u << 20));
    const auto& weights = sizes[static_cast<std::size_t>(target::ReadKind::Weight)];
    EXPECT_GE(weights.size(), 6u);
    ASSERT_FALSE(weights.empty());
    EXPECT_LE(*weights.begin(), 256u);
    EXPECT_GE(*weights.rbegin(), 256u << 10);
    for (const std::uint64_t cache : {std::uint64_t{32} << 20, std::uint64_t{96} << 20})
        for (const auto& graph : warmWeightGraphs(cache)) {
            std::uint64_t weightBytes = 0;
            for (const ir::Value& v : graph->values)
                if (v.isInitializer)
                    weightBytes += v.data.size;
            EXPECT_GT(weightBytes, cache / 5) << graph->name;
            EXPECT_LT(weightBytes, cache / 3) << graph->name;
        }
}

// The skip chains (cached_reads.by_reuse_distance): cached reads and stores of the sizes the fit
// keeps (16 KiB up) in at least three bands of ReuseDistanceFit.h's each, the reads out to MiBs
// (past a common L2) and the stores to past half of one.
TEST(ReadKindGraphs, SkipChainsHoldCachedReadsAndStoresAtDistancesUpToMebibytes) {
    const target::Target host = classifyingHost();
    std::array<std::set<int>, target::kReadKinds> bands;
    std::array<double, target::kReadKinds> farthest{};
    for (const auto& graph : reuseDistanceGraphs()) {
        const auto s =
            schedule::makeSchedule(*graph, host, schedule::Strategy::Rules, {.mp = host.cores()});
        auto compiled = compiler::compile(*graph, host, s);
        ASSERT_TRUE(compiled.ok()) << graph->name;
        std::vector<Diagnostic> diagnostics;
        const auto checked = emulator::checkProgram(compiled->program, host, *graph, diagnostics);
        ASSERT_TRUE(diagnostics.empty()) << graph->name;
        for (std::size_t i = 0; i < checked.steps.size(); ++i) {
            const emulator::Step& step = checked.steps[i];
            if (step.bytes < kMinReuseSampleBytes)
                continue;
            const auto kind = static_cast<std::size_t>(step.read);
            bands[kind].insert(int(std::log2(std::max(step.reuseBytes, 1.0) / kFirstReuseBin)));
            farthest[kind] = std::max(farthest[kind], step.reuseBytes);
        }
    }
    const auto reads = static_cast<std::size_t>(target::ReadKind::Cached);
    const auto stores = static_cast<std::size_t>(target::ReadKind::CachedWrite);
    EXPECT_GE(bands[reads].size(), 4u);
    EXPECT_GE(farthest[reads], 4 << 20);
    EXPECT_GE(bands[stores].size(), 3u);
    EXPECT_GE(farthest[stores], 512 << 10);
}

} // namespace
} // namespace strata::calibrate
