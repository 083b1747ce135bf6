// Strategies: valid schedules on every sample and preset, the blocks each rule makes, and
// fusion moving fewer DRAM bytes than running op by op.

#include "ScheduleFixtures.h"
#include "schedule/Strategies.h"
#include "schedule/Validate.h"
#include "support/TestModels.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace strata::schedule {
namespace {

// The id of the block holding `op`, -1 when none does.
int blockOf(const Schedule& s, ir::OpId op) {
    for (const Block& b : s.blocks)
        if (std::find(b.ops.begin(), b.ops.end(), op) != b.ops.end())
            return b.id;
    return -1;
}

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

// SiLU, x * sigmoid(x): rules puts its Sigmoid and Mul in the conv's block (the compiler fuses
// them as one epilogue step); a Sigmoid with another reader is no SiLU.
TEST(Strategies, RulesFuseASiluIntoItsConvBlock) {
    auto m = test::importText(R"(
<ir_version: 8, opset_import: ["" : 17]>
g (float[1, 8, 8, 8] X, float[8, 8, 3, 3] W) => (float[1, 8, 8, 8] Y, float[1, 8, 8, 8] Z) {
    C = Conv <pads = [1, 1, 1, 1]> (X, W)
    S = Sigmoid (C)
    A = Mul (C, S)
    D = Conv <pads = [1, 1, 1, 1]> (A, W)
    T = Sigmoid (D)
    Y = Mul (D, T)
    Z = Relu (T)
}
)");
    ASSERT_TRUE(m.ok()) << test::joined(m.diagnostics());
    Schedule s = makeSchedule(*m->graph, test::preset("host"), Strategy::Rules);
    ASSERT_GE(s.blocks.size(), 2u);
    EXPECT_EQ(s.blocks[0].ops, (std::vector<ir::OpId>{ir::OpId(0), ir::OpId(1), ir::OpId(2)}));
    EXPECT_EQ(s.blocks[1].ops, (std::vector<ir::OpId>{ir::OpId(3)})); // T has two readers
}

// Two 3x3 convolutions (64 -> 32) of one input, added: fused in 64 KiB, both convolutions'
// weights per tile leave room only for tiles of partial 16-channel vectors; apart, each keeps
// whole vectors. fuse-max keeps them apart there, fuses them without vectors to keep whole, and
// fuses them where whole vectors fit fused.
TEST(Strategies, FuseMaxTakesNoFusionThatNeedsPartialVectors) {
    auto m = test::importText(R"(
<ir_version: 8, opset_import: ["" : 17]>
g (float[1, 64, 16, 16] X, float[32, 64, 3, 3] W, float[32, 64, 3, 3] V) => (float[1, 32, 16, 16] Y) {
    A = Conv <pads = [1, 1, 1, 1]> (X, W)
    B = Conv <pads = [1, 1, 1, 1]> (X, V)
    Y = Add (A, B)
}
)");
    ASSERT_TRUE(m.ok()) << test::joined(m.diagnostics());
    const StrategyOptions one{.mp = 1, .buffering = 1};
    target::Target t = test::withWorkingMemory(test::preset("host"), 64 * 1024);
    t.channelGranule = 16;
    EXPECT_EQ(makeSchedule(*m->graph, t, Strategy::FuseMax, one).blocks.size(), 3u);
    t.channelGranule = 1;
    EXPECT_EQ(makeSchedule(*m->graph, t, Strategy::FuseMax, one).blocks.size(), 1u);
    t = test::withWorkingMemory(test::preset("host"), 256 * 1024);
    t.channelGranule = 16;
    EXPECT_EQ(makeSchedule(*m->graph, t, Strategy::FuseMax, one).blocks.size(), 1u);
}

// A squeeze-excite tail: the excite step E (a 1x1 convolution of the pooled vector S) scales X,
// and a projection reads every channel of the product. Fused, every row tile computes E whole
// and reads its weights again; where the working memory allows only many small tiles, that costs
// more than the product's store and load that fusing saves, so fuse-max keeps E apart. Where two
// tiles fit, each core computes E once and the whole tail is one block.
TEST(Strategies, FuseMaxKeepsAnExciteStepOutOfManyTiles) {
    auto m = test::importText(R"(
<ir_version: 8, opset_import: ["" : 17]>
se (float[1, 64, 1, 1] S, float[1, 64, 16, 16] X, float[64, 64, 1, 1] We, float[64, 64, 1, 1] Wp)
    => (float[1, 64, 16, 16] Y) {
    E = Conv (S, We)
    M = Mul (X, E)
    Y = Conv (M, Wp)
}
)");
    ASSERT_TRUE(m.ok()) << test::joined(m.diagnostics());
    ir::Graph g = *m->graph;
    for (ir::Value& v : g.values)
        if (v.name == "We" || v.name == "Wp")
            v.isConstant = true;
    const StrategyOptions two{.mp = 2, .buffering = 1};
    const Schedule tight = makeSchedule(g, test::withWorkingMemory(test::preset("host"), 44 * 1024),
                                        Strategy::FuseMax, two);
    EXPECT_NE(blockOf(tight, ir::OpId(0)), blockOf(tight, ir::OpId(2)));
    const Schedule roomy = makeSchedule(g, test::withWorkingMemory(test::preset("host"), 1 << 20),
                                        Strategy::FuseMax, two);
    EXPECT_EQ(roomy.blocks.size(), 1u);
}

// A convolution then a global pool and a squeeze step (RegNetY's stem block and excite): fused,
// the block's output is the pooled [1, 8, 1, 1] vector, one tile of whole vectors, so one core
// would run the whole block while the other waits. With two cores fuse-max keeps the convolution
// (two tiles) apart from the pool; with one core nothing is lost and it fuses them.
TEST(Strategies, FuseMaxTakesNoFusionThatLeavesACoreIdle) {
    auto m = test::importText(R"(
<ir_version: 8, opset_import: ["" : 17]>
g (float[1, 16, 32, 32] X, float[16, 16, 3, 3] W, float[8, 16, 1, 1] R) => (float[1, 8, 1, 1] Y) {
    A = Conv <pads = [1, 1, 1, 1]> (X, W)
    P = GlobalAveragePool (A)
    Y = Conv (P, R)
}
)");
    ASSERT_TRUE(m.ok()) << test::joined(m.diagnostics());
    ir::Graph g = *m->graph;
    for (ir::Value& v : g.values)
        if (v.name == "W" || v.name == "R")
            v.isConstant = true;
    target::Target t = test::withWorkingMemory(test::preset("host"), 1 << 20);
    t.channelGranule = 16;
    const Schedule two = makeSchedule(g, t, Strategy::FuseMax, {.mp = 2, .buffering = 1});
    EXPECT_NE(blockOf(two, ir::OpId(0)), blockOf(two, ir::OpId(1)));
    const Schedule one = makeSchedule(g, t, Strategy::FuseMax, {.mp = 1, .buffering = 1});
    EXPECT_EQ(blockOf(one, ir::OpId(0)), blockOf(one, ir::OpId(1)));
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
