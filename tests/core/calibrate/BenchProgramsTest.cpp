// The transfer programs calibration measures: strided boxes shaped like a tile's gather, primed
// by the next core behind a barrier (or by the measuring core itself, for resident rows), and
// refused with a diagnostic when they cannot be built.

#include "calibrate/BenchPrograms.h"

#include "emulator/ComputeCost.h"
#include "target/TargetLoader.h"
#include "tiling/DramLayouts.h"

#include <gtest/gtest.h>
#include <map>
#include <set>

namespace strata::calibrate {
namespace {

target::Target host() {
    auto t = target::resolveTarget("host-uncalibrated"); // this machine's cores and caches
    EXPECT_TRUE(t.ok());
    return t.ok() ? *t : target::Target{};
}

TEST(BenchPrograms, StridedBoxesAreTilesOfEightRowsTwoApartOnPlanesAPageApart) {
    const target::Target t = host();
    auto program = transferProgram(t, "load", 16384, 1, 4, 64); // 256 rows of 64 bytes
    ASSERT_TRUE(program.ok());
    const compiler::Instruction* measured = nullptr;
    for (const compiler::Instruction& in : program->instructions)
        if (in.from.tile == 0 && in.kind() == compiler::InstrKind::Transfer) measured = &in;
    ASSERT_NE(measured, nullptr);
    const auto& transfer = std::get<compiler::Transfer>(measured->body);
    EXPECT_EQ(transfer.source.shape, (ir::Shape{32, 8, 64}));
    EXPECT_EQ(transfer.source.strides, (std::vector<std::int64_t>{16384, 128, 1}));
    EXPECT_EQ(transfer.destination.shape, (ir::Shape{32, 8, 64})); // contiguous in working memory
    EXPECT_TRUE(transfer.destination.strides.empty());
    EXPECT_EQ(transferSpanBytes(16384, 64), 32u * 16384);
    EXPECT_EQ(transferSpanBytes(16384, 0), 16384u);
}

TEST(BenchPrograms, RowsThatDoNotDivideTheSizeMoveTheWholeRowsThatFit) {
    // A column tile's 56-byte rows: 18 of them fit in 1024 bytes, in planes of 8: 16 rows.
    EXPECT_EQ(transferBoxBytes(1024, 56), 16u * 56);
    EXPECT_EQ(transferBoxBytes(1024, 224), 4u * 224); // one plane of 4
    EXPECT_EQ(transferBoxBytes(1024, 0), 1024u);
    const target::Target t = host();
    auto program = transferProgram(t, "store", 1024, 1, 4, 56);
    ASSERT_TRUE(program.ok());
    for (const compiler::Instruction& in : program->instructions)
        if (in.from.tile == 0 && in.kind() == compiler::InstrKind::Transfer) {
            const auto& transfer = std::get<compiler::Transfer>(in.body);
            EXPECT_EQ(transfer.bytes, 16u * 56);
            EXPECT_EQ(transfer.destination.shape, (ir::Shape{2, 8, 56}));
            EXPECT_EQ(transfer.destination.strides, (std::vector<std::int64_t>{16384, 112, 1}));
        }
}

TEST(BenchPrograms, ReadsArePrimedByTheNextCoreBehindABarrier) {
    const target::Target t = host();
    if (t.cores() < 2) GTEST_SKIP() << "one core: nothing primes another's regions";
    auto program = transferProgram(t, "load", 4096, 1, 4);
    ASSERT_TRUE(program.ok());
    int primingWrites = 0, barriers = 0;
    for (const compiler::Instruction& in : program->instructions) {
        if (in.from.tile != kPrimingTile) continue;
        if (const auto* transfer = std::get_if<compiler::Transfer>(&in.body)) {
            ++primingWrites;
            EXPECT_EQ(in.core, 1); // core 0 measures, core 1 writes its regions
            EXPECT_EQ(transfer->path, "store");
        }
        barriers += in.kind() == compiler::InstrKind::Barrier;
    }
    EXPECT_EQ(primingWrites, 4);
    EXPECT_EQ(barriers, t.cores()); // every core meets it
    // The measured reads come after the barrier on core 0's stream.
    const auto& stream = program->streams[0];
    ASSERT_FALSE(stream.empty());
    EXPECT_EQ(program->instructions[stream.front()].kind(), compiler::InstrKind::Barrier);
}

TEST(BenchPrograms, OwnPrimingWritesEachRegionOnTheMeasuringCoreJustBeforeItsRead) {
    const target::Target t = host();
    auto program = transferProgram(t, "load", 16384, 1, 3, 64, Priming::OwnCore);
    ASSERT_TRUE(program.ok());
    // Core 0 alone: store region k, wait, load region k, wait; no barrier, nothing on core 1.
    const auto& stream = program->streams[0];
    ASSERT_EQ(stream.size(), 12u);
    for (std::size_t k = 0; k < 3; ++k) {
        const compiler::Instruction& prime = program->instructions[stream[4 * k]];
        const compiler::Instruction& read = program->instructions[stream[4 * k + 2]];
        ASSERT_EQ(prime.kind(), compiler::InstrKind::Transfer);
        ASSERT_EQ(read.kind(), compiler::InstrKind::Transfer);
        EXPECT_EQ(prime.from.tile, kPrimingTile);
        EXPECT_EQ(read.from.tile, static_cast<std::int64_t>(k));
        const auto& primed = std::get<compiler::Transfer>(prime.body);
        const auto& measured = std::get<compiler::Transfer>(read.body);
        EXPECT_EQ(primed.path, "store");
        // The same strided box of main memory.
        EXPECT_EQ(primed.destination.memory, measured.source.memory);
        EXPECT_EQ(primed.destination.offset, measured.source.offset);
        EXPECT_EQ(primed.destination.shape, measured.source.shape);
        EXPECT_EQ(primed.destination.strides, measured.source.strides);
    }
    if (t.cores() > 1) {
        EXPECT_TRUE(program->streams[1].empty());
    }
}

TEST(BenchPrograms, TransferSizesEndAtTheLimitWithoutAStepSizeJustBelowIt) {
    using Sizes = std::vector<std::uint64_t>;
    EXPECT_EQ(transferSizes(4096, 4), (Sizes{64, 256, 1024, 4096}));
    // 16 MiB next to an 18 MiB limit: the limit takes its place.
    const Sizes to18MiB = transferSizes(18u << 20, 4);
    ASSERT_EQ(to18MiB.size(), 10u);
    EXPECT_EQ(to18MiB[8], 4u << 20);
    EXPECT_EQ(to18MiB.back(), 18u << 20);
    // 32 MiB is twice 16 MiB: both are kept.
    const Sizes to32MiB = transferSizes(32u << 20, 4);
    EXPECT_EQ(to32MiB[to32MiB.size() - 2], 16u << 20);
    EXPECT_EQ(to32MiB.back(), 32u << 20);
    EXPECT_EQ(transferSizes(100, 16), (Sizes{64, 100}));   // the only step size stays
    EXPECT_EQ(transferSizes(1500, 16), (Sizes{64, 1500})); // 1500 < 2 x 1024
    EXPECT_TRUE(transferSizes(63, 4).empty());
}

TEST(BenchPrograms, ImpossibleProgramsAreDiagnosed) {
    const target::Target t = host();
    auto unknown = transferProgram(t, "teleport", 64, 1, 1);
    ASSERT_FALSE(unknown.ok());
    EXPECT_NE(unknown.diagnostics().front().message.find("no path 'teleport'"), std::string::npos);
    auto tooMany = transferProgram(t, "load", 64, t.cores() + 1, 1);
    ASSERT_FALSE(tooMany.ok());
    EXPECT_NE(tooMany.diagnostics().front().message.find("cannot run on"), std::string::npos);
    auto tooLarge = transferProgram(t, "load", t.workingMemoryBytes() * 2, 1, 1);
    ASSERT_FALSE(tooLarge.ok());
    EXPECT_NE(tooLarge.diagnostics().front().message.find("does not fit"), std::string::npos);
}

TEST(BenchPrograms, GraphsForTheirComputesAloneAreMarked) {
    std::vector<std::string> only;
    for (const auto& graph : opClassGraphs(1))
        if (computesOnly(*graph)) only.push_back(graph->name);
    EXPECT_EQ(only, (std::vector<std::string>{"calibrate-conv-pointwise-deep",
                                              "calibrate-conv-pointwise-strided",
                                              "calibrate-conv-depthwise-small",
                                              "calibrate-conv-grouped",
                                              "calibrate-conv-grouped-narrow",
                                              "calibrate-conv-grouped-strided",
                                              "calibrate-conv-thin",
                                              "calibrate-matmul-thin",
                                              "calibrate-matmul-batched",
                                              "calibrate-matmul-batched-wide",
                                              "calibrate-elementwise-Erf",
                                              "calibrate-elementwise-HardSwish",
                                              "calibrate-elementwise-Sigmoid",
                                              "calibrate-normalization-layer",
                                              "calibrate-reduction-pool",
                                              "calibrate-reduction-rows",
                                              "calibrate-resize",
                                              "calibrate-resize-linear",
                                              "calibrate-resize-linear-small",
                                              "calibrate-gather",
                                              "calibrate-global-pool-7x7",
                                              "calibrate-global-pool-56x56",
                                              "calibrate-copy",
                                              "calibrate-copy-rows"}));
}

// The weights are drawn, not left zero, and all normal numbers (a denormal costs a microcode
// assist per use, and the far-weight graphs' figures would say more about the values than the
// reads), and random: a graph's first thousand take (almost) a thousand values.
TEST(BenchPrograms, WeightsAreDistinctNormalNumbersBetweenAHalfAndOne) {
    for (const auto& graph : farWeightGraphs(2u << 20, 32u << 20)) {
        std::set<float> seen;
        std::size_t values = 0;
        for (const ir::Value& v : graph->values) {
            if (!v.isInitializer)
                continue;
            const auto* data = reinterpret_cast<const float*>(v.data.data);
            for (std::size_t i = 0; i < v.data.size / sizeof(float); ++i, ++values) {
                ASSERT_GE(data[i], 0.5f) << graph->name << " " << v.name << "[" << i << "]";
                ASSERT_LT(data[i], 1.0f) << graph->name << " " << v.name << "[" << i << "]";
                if (values < 1000)
                    seen.insert(data[i]);
            }
        }
        EXPECT_GT(values, 1000000u) << graph->name;
        EXPECT_GE(seen.size(), 990u) << graph->name << ": repeated values among the first";
    }
}

// ResNets' 1x1 shortcuts at stride 2 run the pointwise kernel (sgemm over a gathered input): the
// pointwise figure is fitted on one at every scale.
TEST(BenchPrograms, PointwiseConvolutionsIncludeAStridedShortcut) {
    for (int scale : {1, 8}) {
        std::shared_ptr<const ir::Graph> shortcut;
        for (const auto& graph : opClassGraphs(scale))
            if (graph->name == "calibrate-conv-pointwise-strided")
                shortcut = graph;
        ASSERT_TRUE(shortcut) << scale;
        const ir::Op& conv = shortcut->ops.back();
        EXPECT_TRUE(emulator::isPointwiseConv(conv, *shortcut));
        EXPECT_EQ(conv.attrInts("strides"), (std::vector<std::int64_t>{2, 2}));
    }
}

// The depthwise programs read what a 1x1 expansion wrote and write what a 1x1 projection reads,
// both channels-last in main memory as a model's are (a graph input and output stay row-major;
// a depthwise convolution of a row-major input box runs the plane-copying kernel models' blocks
// do not, and into a row-major output box it transposes every row).
TEST(BenchPrograms, DepthwiseConvolutionsReadAndWriteChannelsLast) {
    int found = 0;
    for (const auto& graph : opClassGraphs(1)) {
        if (graph->name.find("depthwise") == std::string::npos)
            continue;
        ++found;
        ASSERT_EQ(graph->ops.size(), 4u) << graph->name;
        EXPECT_TRUE(layoutSink(graph->ops.back())) << graph->name;
        EXPECT_FALSE(layoutSink(graph->ops[2])) << graph->name;
        const ir::Op& conv = graph->ops[1];
        ASSERT_EQ(conv.attrInt("group", 1), graph->value(conv.inputs[0]).shape[1]) << graph->name;
        const std::vector<int> layouts = tiling::chooseDramLayouts(*graph, 16);
        EXPECT_EQ(layouts[conv.inputs[0].index], tiling::kChannelsLast) << graph->name;
        EXPECT_EQ(layouts[conv.outputs[0].index], tiling::kChannelsLast) << graph->name;
    }
    EXPECT_EQ(found, 2);
}

TEST(BenchPrograms, EachCoreOnItsOwnPathIsPrimedTheOtherWayByTheNextCore) {
    const target::Target t = host();
    if (t.cores() < 2)
        GTEST_SKIP() << "one core: no other core to contend with";
    auto program = transferProgramOn(t, {"store", "load"}, 4096, 3);
    ASSERT_TRUE(program.ok());
    // Measured: core 0 stores, core 1 loads, each into or out of its own regions.
    std::map<int, std::vector<std::string>> measured, priming;
    std::set<std::uint64_t> regions;
    for (const compiler::Instruction& in : program->instructions)
        if (const auto* transfer = std::get_if<compiler::Transfer>(&in.body)) {
            (in.from.tile == kPrimingTile ? priming : measured)[in.core].push_back(transfer->path);
            if (in.from.tile != kPrimingTile)
                regions.insert(transfer->path == "load" ? transfer->source.offset
                                                        : transfer->destination.offset);
        }
    EXPECT_EQ(measured[0], (std::vector<std::string>(3, "store")));
    EXPECT_EQ(measured[1], (std::vector<std::string>(3, "load")));
    EXPECT_EQ(regions.size(), 6u); // no two transfers share a main-memory region
    // Core 1 reads the regions core 0 will store (a load primes a store), core 0 writes the ones
    // core 1 will load.
    EXPECT_EQ(priming[1], (std::vector<std::string>(3, "load")));
    EXPECT_EQ(priming[0], (std::vector<std::string>(3, "store")));
    auto same = transferProgramOn(t, {"load", "load"}, 4096, 3);
    auto alike = transferProgram(t, "load", 4096, 2, 3);
    ASSERT_TRUE(same.ok() && alike.ok());
    EXPECT_EQ(same->instructions.size(), alike->instructions.size());
    EXPECT_FALSE(transferProgramOn(t, {"load", "teleport"}, 4096, 3).ok());
    EXPECT_FALSE(
        transferProgramOn(t, std::vector<std::string>(std::size_t(t.cores()) + 1, "load"), 4096, 3)
            .ok());
}

} // namespace
} // namespace strata::calibrate
