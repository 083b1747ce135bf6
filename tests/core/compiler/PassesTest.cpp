// Each pass on a small graph: what it finds before, what it leaves after.

#include "CompilerFixtures.h"
#include "compiler/passes/DistributeTiles.h"
#include "compiler/passes/InsertTransfers.h"
#include "compiler/passes/PlanDram.h"
#include "compiler/passes/TileBlocks.h"
#include "compiler/passes/Verify.h"
#include "schedule/Edits.h"
#include "schedule/Strategies.h"
#include "support/TestModels.h"

#include <gtest/gtest.h>

namespace strata::compiler {
namespace {

using schedule::Strategy;

struct PassesTest : ::testing::Test {
    std::shared_ptr<const ir::Graph> g = test::convChainWithWeights();
    target::Target t = test::presetTarget("mncore2");

    // One fused block over all four ops with 2 row tiles on 2 cores, single buffered.
    schedule::Schedule fusedTwoTiles() {
        schedule::Schedule s = schedule::makeSchedule(*g, t, Strategy::PerOp, {.mp = 2, .buffering = 1});
        for (int i = 0; i < 3; ++i) s = *schedule::mergeBlocks(s, *g, s.blocks[0].id, s.blocks[1].id);
        return *schedule::setTile(s, *g, s.blocks[0].id, schedule::TileSpec{ir::Shape{1, 4, 4, 8}});
    }
};

TEST_F(PassesTest, TileBlocksPlansEveryTileWithHalos) {
    auto state = test::stateFor(*g, t, fusedTwoTiles());
    EXPECT_TRUE(state.blocks.empty());
    tileBlocks(state);
    ASSERT_FALSE(state.failed()) << test::joined(state.diagnostics);
    ASSERT_EQ(state.blocks.size(), 1u);
    const TiledBlock& b = state.blocks[0];
    ASSERT_EQ(b.tiles().size(), 2u);
    // X rows [0,6) and [2,8): one halo row for each conv.
    EXPECT_EQ(b.tiles()[0].loads[0].second[2], (tiling::Interval{0, 6}));
    EXPECT_EQ(b.tiles()[1].loads[0].second[2], (tiling::Interval{2, 8}));
    // The weights are read whole by both tiles: resident.
    ASSERT_EQ(b.resident().size(), 2u);
    EXPECT_EQ(g->value(b.resident()[0]).name, "W1");
}

TEST_F(PassesTest, PlanDramReusesSpaceOfDeadIntermediates) {
    auto state = test::stateFor(*g, t, schedule::makeSchedule(*g, t, Strategy::PerOp, {.mp = 1}));
    tileBlocks(state);
    planDram(state);
    ASSERT_FALSE(state.failed());
    // X, W1, W2, Y for the whole program; A, B, C between their blocks.
    EXPECT_EQ(state.program.dram.size(), 7u);
    const DramBuffer* a = state.program.dramOf(*g->findValue("A"));
    const DramBuffer* c = state.program.dramOf(*g->findValue("C"));
    ASSERT_TRUE(a && c);
    EXPECT_EQ(a->role, DramBuffer::Role::Intermediate);
    EXPECT_EQ(a->firstBlock, 0);
    EXPECT_EQ(a->lastBlock, 1);
    EXPECT_EQ(c->offset, a->offset); // A is dead once Relu_1 ran: C takes its place
    EXPECT_EQ(state.program.dramOf(*g->findValue("Y"))->role, DramBuffer::Role::Output);
    EXPECT_EQ(state.program.dramOf(*g->findValue("W1"))->role, DramBuffer::Role::Weight);
}

TEST_F(PassesTest, DistributeSpreadsTilesOverEvenlySpacedCores) {
    auto state = test::stateFor(*g, t, fusedTwoTiles());
    tileBlocks(state);
    distributeTiles(state);
    // mp 2 on 8 cores: cores 0 and 4, one in group 0 and one in group 2.
    EXPECT_EQ(state.blocks[0].coreOfTile, (std::vector<int>{0, 4}));
}

// Four tiles of a 2 x 2 grid on 2 cores: each core gets a run of neighbours (a row of tiles),
// not every other tile, so the two cores never store into the same rows at once.
TEST_F(PassesTest, DistributeGivesEachCoreARunOfNeighbouringTiles) {
    auto s = *schedule::setTile(fusedTwoTiles(), *g, fusedTwoTiles().blocks[0].id,
                                schedule::TileSpec{ir::Shape{1, 4, 4, 4}});
    auto state = test::stateFor(*g, t, s);
    tileBlocks(state);
    distributeTiles(state);
    ASSERT_EQ(state.blocks[0].tiles().size(), 4u);
    EXPECT_EQ(state.blocks[0].coreOfTile, (std::vector<int>{0, 0, 4, 4}));
}

TEST_F(PassesTest, InsertTransfersWritesLoadsWaitsComputesStores) {
    auto state = test::stateFor(*g, t, fusedTwoTiles());
    tileBlocks(state);
    planDram(state);
    distributeTiles(state);
    insertTransfers(state);
    ASSERT_FALSE(state.failed()) << test::joined(state.diagnostics);
    const Program& p = state.program;
    ASSERT_EQ(p.streams.size(), 8u);
    // Core 0: W1, W2 (resident), X rows, waits, 2 computes (each Conv with its Relu fused, as
    // an epilogue), a store of Y and its wait.
    std::vector<std::string> kinds;
    for (InstrId id : p.streams[0]) kinds.push_back(instrKindName(p.instructions[id].kind()));
    EXPECT_EQ(std::count(kinds.begin(), kinds.end(), "transfer"), 4);
    EXPECT_EQ(std::count(kinds.begin(), kinds.end(), "compute"), 2);
    EXPECT_EQ(std::count(kinds.begin(), kinds.end(), "wait"), 4);
    EXPECT_TRUE(p.streams[1].empty()); // cores without tiles stay idle (no barrier needed here)
    // The first compute comes after the waits on X and W1.
    const auto firstCompute = std::find(kinds.begin(), kinds.end(), "compute") - kinds.begin();
    EXPECT_EQ(kinds[static_cast<std::size_t>(firstCompute) - 1], "wait");
    const auto& conv = std::get<Compute>(p.instructions[p.streams[0][static_cast<std::size_t>(firstCompute)]].body);
    EXPECT_EQ(conv.opType, "Conv");
    ASSERT_EQ(conv.epilogue.size(), 1u);
    EXPECT_EQ(conv.epilogue[0].opType, "Relu");
    EXPECT_EQ(conv.outputs[0].region[2], (tiling::Interval{0, 5})); // A rows [0,5) for Y rows [0,4)
    // Stores carry Y's slice exactly.
    for (const Instruction& in : p.instructions)
        if (const auto* tr = std::get_if<Transfer>(&in.body); tr && tr->destination.memory == "DRAM") {
            EXPECT_EQ(g->value(tr->value).name, "Y");
            EXPECT_EQ(tr->bytes, 4u * 4 * 8 * 4);
        }
}

TEST_F(PassesTest, BarriersSeparateDependentBlocks) {
    auto state = test::stateFor(*g, t, schedule::makeSchedule(*g, t, Strategy::PerOp));
    tileBlocks(state);
    planDram(state);
    distributeTiles(state);
    insertTransfers(state);
    ASSERT_FALSE(state.failed());
    // Four blocks in a chain: three barriers, each on all 8 cores.
    EXPECT_EQ(state.program.count(InstrKind::Barrier), 3u * 8);
}

TEST_F(PassesTest, DoubleBufferingLoadsTheNextTileBeforeComputing) {
    schedule::Schedule s = schedule::makeSchedule(*g, t, Strategy::PerOp, {.mp = 1, .buffering = 2});
    s = *schedule::setTile(s, *g, s.blocks[0].id, schedule::TileSpec{ir::Shape{1, 4, 2, 8}}); // 4 tiles on core 0
    auto state = test::stateFor(*g, t, s);
    tileBlocks(state);
    planDram(state);
    distributeTiles(state);
    insertTransfers(state);
    ASSERT_FALSE(state.failed()) << test::joined(state.diagnostics);
    // In block 0 on core 0, tile 1's load of X is issued before tile 0's conv.
    const Program& p = state.program;
    std::int64_t loadTile1 = -1, computeTile0 = -1;
    for (std::size_t i = 0; i < p.streams[0].size(); ++i) {
        const Instruction& in = p.instructions[p.streams[0][i]];
        if (in.from.block != s.blocks[0].id) continue;
        if (in.kind() == InstrKind::Transfer && in.from.tile == 1 && loadTile1 < 0) loadTile1 = static_cast<std::int64_t>(i);
        if (in.kind() == InstrKind::Compute && in.from.tile == 0 && computeTile0 < 0) computeTile0 = static_cast<std::int64_t>(i);
    }
    ASSERT_GE(loadTile1, 0);
    EXPECT_LT(loadTile1, computeTile0);
}

// On mncore2 a block on all 8 cores gets its weights by one mvb each from core 0, which waits
// before the barrier that hands them to every core; no core loads them on its own.
TEST_F(PassesTest, WeightsOfABlockOnEveryCoreAreBroadcast) {
    auto state = test::stateFor(*g, t, test::rowTilesOnEveryCore(*g, t));
    tileBlocks(state);
    planDram(state);
    distributeTiles(state);
    insertTransfers(state);
    ASSERT_FALSE(state.failed()) << test::joined(state.diagnostics);
    const Program& p = state.program;
    int broadcasts = 0;
    for (const Instruction& in : p.instructions) {
        const auto* tr = std::get_if<Transfer>(&in.body);
        if (!tr || !g->value(tr->value).isConstant) continue;
        EXPECT_EQ(tr->path, "mvb") << in.id;
        EXPECT_EQ(in.core, 0);
        EXPECT_EQ(tr->alsoTo, (std::vector<int>{1, 2, 3, 4, 5, 6, 7}));
        ++broadcasts;
    }
    EXPECT_EQ(broadcasts, 2); // W1 and W2, once each
    EXPECT_TRUE(verifyProgram(p, *g, t).empty()) << test::joined(verifyProgram(p, *g, t));
}

} // namespace
} // namespace strata::compiler
