// Strategies: valid schedules on every sample and preset, the blocks each rule makes, and
// fusion moving fewer DRAM bytes than running op by op.

#include "ScheduleFixtures.h"
#include "schedule/Strategies.h"
#include "schedule/Validate.h"
#include "support/TestModels.h"

#include <gtest/gtest.h>

namespace strata::schedule {
namespace {

struct Case {
    std::string sample;
    std::string target;
};

class StrategiesOnSamples : public ::testing::TestWithParam<Case> {};

TEST_P(StrategiesOnSamples, EveryStrategyIsValidAndFusionCutsDram) {
    auto g = test::sample(GetParam().sample);
    auto t = test::preset(GetParam().target);
    std::uint64_t perOpDram = 0;
    for (Strategy s : {Strategy::PerOp, Strategy::Rules, Strategy::FuseMax}) {
        Schedule schedule = makeSchedule(*g, t, s);
        auto check = checkSchedule(schedule, *g, t);
        ASSERT_TRUE(check.valid()) << strategyName(s) << ": " << test::joined(check.diagnostics);
        EXPECT_EQ(schedule.modelHash, g->contentHash);
        for (const Block& b : schedule.blocks) EXPECT_EQ(b.mp, t.maxMp());
        if (s == Strategy::PerOp) {
            EXPECT_EQ(schedule.blocks.size(), g->ops.size());
            perOpDram = check.analysis.dramBytes;
        }
        if (s == Strategy::FuseMax) {
            EXPECT_LT(schedule.blocks.size(), g->ops.size() / 2);
            EXPECT_LT(check.analysis.dramBytes, perOpDram) << "fuse-max should move fewer DRAM bytes";
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Samples, StrategiesOnSamples,
                         ::testing::Values(Case{"resnet_tiny.onnx", "mncore2"}, Case{"resnet_tiny.onnx", "mlu100"},
                                           Case{"resnet_tiny.onnx", "host"}, Case{"mobilenet_tiny.onnx", "mncore2"},
                                           Case{"mobilenet_tiny.onnx", "mlu100"}, Case{"mobilenet_tiny.onnx", "host"},
                                           Case{"transformer_block.onnx", "mncore2"},
                                           Case{"transformer_block.onnx", "mlu100"},
                                           Case{"transformer_block.onnx", "host"}),
                         [](const auto& info) {
                             std::string name = info.param.sample.substr(0, info.param.sample.find('.')) + "_" +
                                                info.param.target;
                             return name;
                         });

TEST(Strategies, RulesFuseAConvWithItsEpilogue) {
    auto g = test::convChain();
    auto t = test::preset("mncore2");
    Schedule s = makeSchedule(*g, t, Strategy::Rules);
    ASSERT_EQ(s.blocks.size(), 2u);
    EXPECT_EQ(s.blocks[0].ops, (std::vector<ir::OpId>{ir::OpId(0), ir::OpId(1)}));
    EXPECT_EQ(s.blocks[1].ops, (std::vector<ir::OpId>{ir::OpId(2), ir::OpId(3)}));
}

TEST(Strategies, RulesStopAtABranch) {
    // Relu_0's result feeds two ops: an epilogue chain must not swallow a shared value.
    auto g = test::diamond();
    Schedule s = makeSchedule(*g, test::preset("mncore2"), Strategy::Rules);
    EXPECT_EQ(s.blocks.size(), g->ops.size()); // no conv or matmul: nothing to fuse
}

TEST(Strategies, FuseMaxRespectsTheWorkingMemory) {
    auto g = test::sample("resnet_tiny.onnx");
    auto roomy = test::preset("mncore2");
    auto tight = test::withWorkingMemory(roomy, 48 * 1024);
    auto a = makeSchedule(*g, roomy, Strategy::FuseMax);
    auto b = makeSchedule(*g, tight, Strategy::FuseMax);
    EXPECT_GT(b.blocks.size(), a.blocks.size());
    auto check = checkSchedule(b, *g, tight);
    EXPECT_TRUE(check.valid()) << test::joined(check.diagnostics);
    for (const auto& block : check.analysis.blocks) EXPECT_LE(block.cost.sramPeakBytes, 48u * 1024);
}

TEST(Strategies, OptionsSetTheKnobs) {
    auto g = test::convChain();
    auto t = test::preset("mlu100");
    StrategyOptions options;
    options.mp = 3;
    options.buffering = 1;
    for (const Block& b : makeSchedule(*g, t, Strategy::PerOp, options).blocks) {
        EXPECT_EQ(b.mp, 3);
        EXPECT_EQ(b.buffering, 1);
    }
}

TEST(Strategies, Deterministic) {
    auto g = test::sample("mobilenet_tiny.onnx");
    auto t = test::preset("mncore2");
    EXPECT_EQ(makeSchedule(*g, t, Strategy::FuseMax), makeSchedule(*g, t, Strategy::FuseMax));
}

TEST(Strategies, Names) {
    EXPECT_EQ(parseStrategy("fuse-max"), Strategy::FuseMax);
    EXPECT_EQ(parseStrategy("rules"), Strategy::Rules);
    EXPECT_FALSE(parseStrategy("fuse-all"));
}

} // namespace
} // namespace strata::schedule
