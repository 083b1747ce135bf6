// The search's moves: every edit keeps the partition whole (each op in exactly one block, blocks
// in a data-flow order), and crossover children are partitions of the same graph.

#include "search/Moves.h"

#include "ScheduleFixtures.h"
#include "schedule/BlockOrder.h"
#include "schedule/Strategies.h"

#include <gtest/gtest.h>

namespace strata::search {
namespace {

// Each op in exactly one block, and the blocks ordered so that every producer runs first.
void expectWholePartition(const schedule::Schedule& s, const ir::Graph& graph) {
    std::vector<int> count(graph.ops.size(), 0);
    for (const auto& b : s.blocks)
        for (ir::OpId op : b.ops)
            ++count[op.index];
    for (std::size_t i = 0; i < count.size(); ++i)
        EXPECT_EQ(count[i], 1) << graph.ops[i].name;
    schedule::Schedule reordered = s;
    EXPECT_FALSE(schedule::orderBlocks(reordered, graph).has_value());
}

TEST(SearchMoves, MutationsKeepThePartitionWhole) {
    const auto graph = test::sample("resnet_tiny.onnx");
    const auto target = test::preset("mncore2");
    schedule::AnalysisCache analysis(*graph, target);
    Random random(3);
    schedule::Schedule s = schedule::makeSchedule(*graph, target, schedule::Strategy::Rules);
    int accepted = 0;
    for (int i = 0; i < 300; ++i)
        if (auto next = mutate(s, *graph, target, SearchSpace{}, random, analysis)) {
            expectWholePartition(*next, *graph);
            s = std::move(*next);
            ++accepted;
        }
    EXPECT_GT(accepted, 0);
}

TEST(SearchMoves, FusionOnlyLeavesKnobsAlone) {
    const auto graph = test::convChain();
    const auto target = test::preset("mncore2");
    schedule::AnalysisCache analysis(*graph, target);
    Random random(5);
    const schedule::Schedule start =
        schedule::makeSchedule(*graph, target, schedule::Strategy::PerOp);
    SearchSpace space;
    space.mp = space.tiles = space.buffering = false;
    for (int i = 0; i < 50; ++i)
        if (auto next = mutate(start, *graph, target, space, random, analysis))
            for (const auto& b : next->blocks) {
                EXPECT_EQ(b.mp, start.blocks.front().mp);
                EXPECT_TRUE(b.tile.isAuto());
            }
}

TEST(SearchMoves, CrossoverChildrenArePartitions) {
    const auto graph = test::sample("resnet_tiny.onnx");
    const auto target = test::preset("mncore2");
    const auto a = schedule::makeSchedule(*graph, target, schedule::Strategy::PerOp);
    const auto b = schedule::makeSchedule(*graph, target, schedule::Strategy::FuseMax);
    Random random(11);
    int children = 0;
    for (int i = 0; i < 40; ++i)
        if (auto child = crossover(a, b, *graph, random)) {
            expectWholePartition(*child, *graph);
            ++children;
        }
    EXPECT_GT(children, 0);
}

TEST(SearchMoves, MpChoicesEndAtTheTargetsCores) {
    const auto target = test::preset("mncore2");
    const std::vector<int> choices = mpChoices(target);
    ASSERT_FALSE(choices.empty());
    EXPECT_EQ(choices.front(), 1);
    EXPECT_EQ(choices.back(), target.maxMp());
}

} // namespace
} // namespace strata::search
