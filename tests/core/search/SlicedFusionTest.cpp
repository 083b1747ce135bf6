// The fusions the search leaves out by default: those that fit working memory only in
// input-channel slices where their ops alone need none.

#include "search/SlicedFusion.h"

#include "ScheduleFixtures.h"
#include "schedule/Strategies.h"
#include "search/Search.h"
#include "support/TestModels.h"
#include "tiling/BlockTiling.h"

#include <gtest/gtest.h>

namespace strata::search {
namespace {

// X[1,64,8,8] -> Conv 3x3 pad 1 (64 -> 8) -> Add R -> Y. One output element of the conv reads a
// 64-channel 3x3 box and 64 x 3 x 3 weights; fused with the Add, the tile also holds R's and
// the sum's elements.
std::shared_ptr<const ir::Graph> wideConvThenAdd() {
    auto m = test::importText(R"(
<ir_version: 8, opset_import: ["" : 17]>
g (float[1, 64, 8, 8] X, float[8, 64, 3, 3] W, float[1, 8, 8, 8] R) => (float[1, 8, 8, 8] Y) {
    C = Conv <pads = [1, 1, 1, 1]> (X, W)
    Y = Add (C, R)
}
)");
    EXPECT_TRUE(m.ok()) << test::joined(m.diagnostics());
    return m->graph;
}

// Single-buffered footprint of the smallest whole tile of these ops (no slices).
std::uint64_t leastFootprint(const ir::Graph& graph, std::vector<ir::OpId> ops) {
    return tiling::BlockTiler(graph, ops).elementTileFootprint(1);
}

// A working memory between the conv's least footprint alone and fused with the Add: alone it
// fits whole tiles, fused only slices.
target::Target betweenAloneAndFused(const ir::Graph& graph) {
    const std::uint64_t alone = leastFootprint(graph, {ir::OpId{0}});
    const std::uint64_t fused = leastFootprint(graph, {ir::OpId{0}, ir::OpId{1}});
    EXPECT_LT(alone, fused);
    return test::withWorkingMemory(test::preset("mncore2"), (alone + fused) / 2);
}

schedule::Schedule withBlocks(const ir::Graph& graph, const target::Target& target,
                              const std::vector<std::vector<std::uint32_t>>& parts) {
    schedule::Schedule s = schedule::makeSchedule(graph, target, schedule::Strategy::PerOp);
    s.blocks.clear();
    for (const auto& part : parts) {
        schedule::Block b;
        b.id = static_cast<int>(s.blocks.size());
        for (std::uint32_t op : part)
            b.ops.push_back(ir::OpId{op});
        s.blocks.push_back(b);
    }
    return s;
}

bool forcesSlices(const schedule::Schedule& s, const ir::Graph& graph,
                  const target::Target& target) {
    std::vector<Diagnostic> diagnostics;
    schedule::AnalysisCache cache(graph, target);
    const auto analysis = schedule::analyzeSchedule(s, graph, target, diagnostics, &cache);
    EXPECT_FALSE(hasErrors(diagnostics)) << test::joined(diagnostics);
    return fusionForcesSlices(s, analysis, graph, target, cache);
}

TEST(SlicedFusion, AFusionThatOnlyFitsInSlicesIsFlagged) {
    auto g = wideConvThenAdd();
    const target::Target target = betweenAloneAndFused(*g);
    const schedule::Schedule fused = withBlocks(*g, target, {{0, 1}});
    const schedule::Schedule apart = withBlocks(*g, target, {{0}, {1}});

    std::vector<Diagnostic> diagnostics;
    const auto analysis = schedule::analyzeSchedule(fused, *g, target, diagnostics);
    ASSERT_EQ(analysis.blocks.size(), 1u);
    ASSERT_GT(analysis.blocks[0].cost.grid.sliceChannels, 0); // the premise: fused, it slices
    EXPECT_TRUE(forcesSlices(fused, *g, target));
    EXPECT_FALSE(forcesSlices(apart, *g, target));
}

// Below the conv's own least footprint it needs slices alone too, so fusing the Add into it is
// not what forces them.
TEST(SlicedFusion, SlicesTheConvNeedsAloneAreNotFlagged) {
    auto g = wideConvThenAdd();
    const target::Target target = test::withWorkingMemory(
        test::preset("mncore2"), leastFootprint(*g, {ir::OpId{0}}) * 9 / 10);
    const schedule::Schedule apart = withBlocks(*g, target, {{0}, {1}});
    std::vector<Diagnostic> diagnostics;
    const auto analysis = schedule::analyzeSchedule(apart, *g, target, diagnostics);
    ASSERT_EQ(analysis.blocks.size(), 2u);
    ASSERT_GT(analysis.blocks[0].cost.grid.sliceChannels, 0); // the premise
    EXPECT_FALSE(forcesSlices(withBlocks(*g, target, {{0, 1}}), *g, target));
}

// From the schedule with every op apart, so that each fusion is one the search drew (starts
// are taken as they are).
SearchOptions everything(const ir::Graph& graph, const target::Target& target, bool slicedFusion) {
    SearchOptions options;
    options.starts = {schedule::makeSchedule(graph, target, schedule::Strategy::PerOp)};
    options.budgetSeconds = 0;
    options.maxEvaluations = 200; // more than the space holds: the search ends when it is seen
    options.threads = 1;
    options.space.slicedFusion = slicedFusion;
    return options;
}

TEST(SlicedFusion, TheSearchLeavesThemOutUnlessAskedFor) {
    auto g = wideConvThenAdd();
    const target::Target target = betweenAloneAndFused(*g);
    const SearchResult without = searchSchedules(*g, target, everything(*g, target, false));
    const SearchResult with = searchSchedules(*g, target, everything(*g, target, true));
    EXPECT_GT(without.leftOut, 0);
    EXPECT_EQ(with.leftOut, 0);
    ASSERT_TRUE(without.best);
    EXPECT_FALSE(forcesSlices(without.best->schedule, *g, target));
    for (const auto& point : without.pareto)
        EXPECT_FALSE(forcesSlices(point.schedule, *g, target));
}

} // namespace
} // namespace strata::search
