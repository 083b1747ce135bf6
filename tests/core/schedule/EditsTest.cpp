// Editing operations: each returns a new schedule or says why not, and leaves the input alone.

#include "ScheduleFixtures.h"
#include "schedule/Edits.h"
#include "schedule/ScheduleJson.h"
#include "schedule/Strategies.h"
#include "schedule/Validate.h"
#include "support/TestModels.h"

#include <gtest/gtest.h>

namespace strata::schedule {
namespace {

using test::mentions;

struct EditsTest : ::testing::Test {
    std::shared_ptr<const ir::Graph> g = test::convChain();
    target::Target t = test::preset("mncore2");
    Schedule s = makeSchedule(*g, t, Strategy::PerOp); // B0..B3: Conv_0, Relu_1, Conv_2, Relu_3
    // One block of all four ops (with one core, the halo recompute stays under fuse-max's bound).
    Schedule fused = makeSchedule(*g, t, Strategy::FuseMax, StrategyOptions{.mp = 1});

    std::vector<std::string> opsOf(const Schedule& schedule, int id) {
        std::vector<std::string> names;
        for (ir::OpId op : schedule.findBlock(id)->ops) names.push_back(g->op(op).name);
        return names;
    }
    void expectValid(const Schedule& schedule) {
        auto diags = validate(schedule, *g, t);
        EXPECT_FALSE(hasErrors(diags)) << test::joined(diags);
    }
};

TEST_F(EditsTest, MergeKeepsTheEarlierBlock) {
    auto r = mergeBlocks(s, *g, 1, 0);
    ASSERT_TRUE(r.ok()) << test::joined(r.diagnostics());
    ASSERT_EQ(r->blocks.size(), 3u);
    EXPECT_EQ(r->blocks[0].id, 0);
    EXPECT_EQ(opsOf(*r, 0), (std::vector<std::string>{"Conv_0", "Relu_1"}));
    expectValid(*r);
    EXPECT_EQ(s.blocks.size(), 4u); // the input is untouched
}

TEST_F(EditsTest, MergeRefusesANonConvexBlock) {
    auto r = mergeBlocks(s, *g, 0, 2); // Relu_1 (B1) sits between them
    ASSERT_FALSE(r.ok());
    EXPECT_TRUE(mentions(r.diagnostics(), "block would not be convex: the result of 'Conv_0' would leave it "
                                          "through 'Relu_1' and come back at 'Conv_2'"))
        << test::joined(r.diagnostics());
}

TEST_F(EditsTest, MergeOfUnknownOrSameBlocks) {
    EXPECT_TRUE(mentions(mergeBlocks(s, *g, 0, 42).diagnostics(), "there is no block B42"));
    EXPECT_TRUE(mentions(mergeBlocks(s, *g, 1, 1).diagnostics(), "cannot merge a block with itself"));
}

TEST_F(EditsTest, SplitMakesANewBlockAfterTheOldOne) {
    ASSERT_EQ(fused.blocks.size(), 1u);
    auto r = splitBlock(fused, *g, 0, test::opNamed(*g, "Conv_2"));
    ASSERT_TRUE(r.ok()) << test::joined(r.diagnostics());
    ASSERT_EQ(r->blocks.size(), 2u);
    EXPECT_EQ(opsOf(*r, 0), (std::vector<std::string>{"Conv_0", "Relu_1"}));
    EXPECT_EQ(r->blocks[1].id, 1);
    EXPECT_EQ(opsOf(*r, 1), (std::vector<std::string>{"Conv_2", "Relu_3"}));
    expectValid(*r);
}

TEST_F(EditsTest, SplitRefusals) {
    EXPECT_TRUE(mentions(splitBlock(fused, *g, 0, test::opNamed(*g, "Conv_0")).diagnostics(),
                         "is the block's first op"));
    EXPECT_TRUE(mentions(splitBlock(s, *g, 0, test::opNamed(*g, "Relu_3")).diagnostics(),
                         "op 'Relu_3' is not in this block"));
}

TEST_F(EditsTest, MoveOpAcrossABoundary) {
    auto r = moveOp(s, *g, test::opNamed(*g, "Relu_1"), 0);
    ASSERT_TRUE(r.ok()) << test::joined(r.diagnostics());
    EXPECT_EQ(r->blocks.size(), 3u); // B1 held only Relu_1
    EXPECT_EQ(opsOf(*r, 0), (std::vector<std::string>{"Conv_0", "Relu_1"}));
    expectValid(*r);

    // And back out of the fused block into its consumer's block.
    auto back = moveOp(*r, *g, test::opNamed(*g, "Relu_1"), 2);
    ASSERT_TRUE(back.ok()) << test::joined(back.diagnostics());
    EXPECT_EQ(opsOf(*back, 2), (std::vector<std::string>{"Relu_1", "Conv_2"}));
    expectValid(*back);
}

TEST_F(EditsTest, MoveOpRefusals) {
    EXPECT_TRUE(mentions(moveOp(s, *g, test::opNamed(*g, "Conv_0"), 3).diagnostics(), "does not touch B3"));
    EXPECT_TRUE(mentions(moveOp(s, *g, test::opNamed(*g, "Conv_0"), 0).diagnostics(), "is already in B0"));
    // Moving Relu_0 of the diamond into Add_3's block would wrap around Sigmoid_1 and Tanh_2.
    auto d = test::diamond();
    Schedule ds = makeSchedule(*d, t, Strategy::PerOp);
    auto merged = mergeBlocks(ds, *d, 3, 4); // Add_3 + Relu_4
    ASSERT_TRUE(merged.ok());
    auto r = moveOp(*merged, *d, test::opNamed(*d, "Sigmoid_1"), 3);
    ASSERT_TRUE(r.ok()) << test::joined(r.diagnostics()); // Sigmoid_1 joins Add_3: still convex
    auto bad = moveOp(*r, *d, test::opNamed(*d, "Relu_0"), 3);
    ASSERT_FALSE(bad.ok());
    EXPECT_TRUE(mentions(bad.diagnostics(), "would not be convex")) << test::joined(bad.diagnostics());
}

TEST_F(EditsTest, KnobEdits) {
    auto mp = setMp(s, 2, 4);
    ASSERT_TRUE(mp.ok());
    EXPECT_EQ(mp->findBlock(2)->mp, 4);
    EXPECT_TRUE(mentions(setMp(s, 2, 0).diagnostics(), "mp must be at least 1, not 0"));

    auto buf = setBuffering(s, 1, 1);
    ASSERT_TRUE(buf.ok());
    EXPECT_EQ(buf->findBlock(1)->buffering, 1);
    EXPECT_TRUE(mentions(setBuffering(s, 1, 3).diagnostics(), "buffering must be 1 or 2, not 3"));

    auto tile = setTile(s, *g, 0, TileSpec{ir::Shape{1, 2, 4, 8}});
    ASSERT_TRUE(tile.ok()) << test::joined(tile.diagnostics());
    EXPECT_EQ(tileToString(tile->findBlock(0)->tile), "1x2x4x8");
    expectValid(*tile);
    EXPECT_TRUE(mentions(setTile(s, *g, 0, TileSpec{ir::Shape{1, 4, 9, 8}}).diagnostics(),
                         "does not fit the block's output 'A' (1x4x8x8) in dimension 2"));
    EXPECT_TRUE(mentions(setTile(s, *g, 0, TileSpec{ir::Shape{8, 8}}).diagnostics(), "has 2 dimensions"));
    EXPECT_TRUE(mentions(setMp(s, 77, 2).diagnostics(), "there is no block B77"));
}

TEST_F(EditsTest, EditedSchedulesRoundTripThroughJson) {
    auto merged = mergeBlocks(s, *g, 0, 1);
    ASSERT_TRUE(merged.ok());
    auto tiled = setTile(*merged, *g, 0, TileSpec{ir::Shape{1, 4, 2, 8}});
    ASSERT_TRUE(tiled.ok());
    auto knobs = setBuffering(*setMp(*tiled, 3, 2), 3, 1);
    ASSERT_TRUE(knobs.ok());
    auto back = parseSchedule(scheduleToJson(*knobs, *g), "edited.json", *g);
    ASSERT_TRUE(back.ok()) << test::joined(back.diagnostics());
    EXPECT_EQ(*back, *knobs);
}

} // namespace
} // namespace strata::schedule
