// Resource bounds (issue 24): what compiling and emulating a schedule needs is estimated from
// its analysis and refused with the figure and the limit before any of it starts.

#include "schedule/ResourceBudget.h"

#include "ScheduleFixtures.h"
#include "schedule/Strategies.h"

#include <gtest/gtest.h>

namespace strata::schedule {
namespace {

BlockAnalysis blockWithTiles(std::vector<std::int64_t> counts) {
    BlockAnalysis b;
    b.analysed = true;
    b.cost.grid.counts = std::move(counts);
    return b;
}

TEST(ResourceBudget, TilesAreSummedOverBlocks) {
    auto graph = test::convChain();
    const target::Target target = test::preset("mncore2");
    ScheduleAnalysis analysis;
    analysis.blocks = {blockWithTiles({4, 8}), blockWithTiles({65536}), blockWithTiles({2, 2})};
    analysis.blocks.push_back(blockWithTiles({1000}));
    analysis.blocks.back().analysed = false; // an invalid block's grid is not counted
    Schedule s;
    s.blocks.resize(3);
    s.blocks[0].mp = 8;
    s.blocks[1].mp = 2;
    s.blocks[2].mp = 0; // counted as 1: every block runs on a core
    const ResourceEstimate e = estimateResources(analysis, *graph, target, s);
    EXPECT_EQ(e.tiles, 32 + 65536 + 4);
    EXPECT_EQ(e.coreBlocks, 8 + 2 + 1);
    EXPECT_EQ(e.events, kEventsPerTile * e.tiles + kEventsPerCoreBlock * e.coreBlocks);
    EXPECT_EQ(e.cores, target.cores());
    EXPECT_EQ(e.coreValueSlots, std::int64_t(target.cores()) * std::int64_t(graph->values.size()));
}

TEST(ResourceBudget, ARealScheduleIsWithinTheLimits) {
    auto graph = test::sample("resnet_tiny.onnx");
    const target::Target target = test::preset("mncore2");
    const Schedule s = makeSchedule(*graph, target, Strategy::Rules);
    EXPECT_TRUE(checkResourceBudget(s, *graph, target).empty());
}

TEST(ResourceBudget, ManyCoresPerBlockAreRefusedWithTheFigure) {
    auto graph = test::sample("resnet_tiny.onnx");
    target::Target target = test::preset("mncore2");
    target.groups = 256;
    target.coresPerGroup = 256;
    const Schedule s = makeSchedule(*graph, target, Strategy::Rules);
    const auto refused = checkResourceBudget(s, *graph, target);
    ASSERT_FALSE(refused.empty());
    EXPECT_NE(refused.front().message.find("the limit is 2,097,152"), std::string::npos)
        << refused.front().message;
}

TEST(ResourceBudget, RunningRefusesMoreThreadsThanTheComputerCanTake) {
    auto graph = test::convChain();
    target::Target target = test::preset("mncore2");
    target.groups = 256;
    target.coresPerGroup = 256;
    Schedule s = makeSchedule(*graph, target, Strategy::PerOp);
    for (Block& b : s.blocks)
        b.mp = 1;
    const auto refused = checkResourceBudget(s, *graph, target, /*forRun=*/true);
    ASSERT_FALSE(refused.empty());
    EXPECT_NE(refused.back().message.find("65,536 cores"), std::string::npos)
        << refused.back().message;
}

} // namespace
} // namespace strata::schedule
