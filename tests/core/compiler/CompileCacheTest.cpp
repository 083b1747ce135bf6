// The CompileCache: a compile that uses it gives the very program a compile without it gives;
// after an edit only the blocks the edit changed are tiled again; plans no recent compile used
// are dropped; a cache made for another graph is not used.

#include "CompilerFixtures.h"
#include "compiler/CompileCache.h"
#include "compiler/Pipeline.h"
#include "compiler/emit/AsmEmitter.h"
#include "schedule/Edits.h"
#include "schedule/Strategies.h"
#include "support/TestModels.h"

#include <gtest/gtest.h>

namespace strata::compiler {
namespace {

std::string assembly(const ir::Graph& g, const target::Target& t, const schedule::Schedule& s, CompileCache* cache) {
    CompileOptions options;
    options.cache = cache;
    auto r = compile(g, t, s, options);
    EXPECT_TRUE(r.ok()) << test::joined(r.diagnostics());
    return r.ok() ? emitAssembly(r->program, g) : std::string();
}

// The schedule with its first multi-op block split after its first op: two new blocks, the
// others untouched.
schedule::Schedule splitFirstFusedBlock(const schedule::Schedule& s, const ir::Graph& g) {
    for (const schedule::Block& b : s.blocks)
        if (b.ops.size() > 1)
            if (auto split = schedule::splitBlock(s, g, b.id, b.ops[1])) return std::move(split).value();
    ADD_FAILURE() << "no block to split";
    return s;
}

TEST(CompileCache, SameProgramAsWithoutAfterEdits) {
    for (const char* sample : {"resnet_tiny.onnx", "mobilenet_tiny.onnx", "transformer_block.onnx"}) {
        auto g = test::sampleGraph(sample);
        for (const char* targetName : {"mncore2", "host"}) {
            auto t = test::presetTarget(targetName);
            const auto before = schedule::makeSchedule(*g, t, schedule::Strategy::Rules);
            const auto split = splitFirstFusedBlock(before, *g);
            const auto mp = schedule::setMp(split, split.blocks.back().id, std::max(1, t.maxMp() / 2));
            ASSERT_TRUE(mp.ok());
            CompileCache cache(*g, t);
            for (const schedule::Schedule* s : {&before, &split, &*mp, &before}) {
                EXPECT_EQ(assembly(*g, t, *s, &cache), assembly(*g, t, *s, nullptr)) << sample << " on " << targetName;
            }
            EXPECT_GT(cache.hits(), 0u);
        }
    }
}

TEST(CompileCache, AnEditTilesOnlyTheBlocksItChanged) {
    auto g = test::sampleGraph("resnet_tiny.onnx");
    auto t = test::presetTarget("mncore2");
    const auto before = schedule::makeSchedule(*g, t, schedule::Strategy::Rules);
    CompileCache cache(*g, t);
    assembly(*g, t, before, &cache);
    const std::uint64_t firstMisses = cache.misses();
    EXPECT_EQ(firstMisses, before.blocks.size());
    EXPECT_EQ(cache.hits(), 0u);

    // Splitting one block makes two new ones; every other block is a hit.
    const auto split = splitFirstFusedBlock(before, *g);
    assembly(*g, t, split, &cache);
    EXPECT_EQ(cache.misses() - firstMisses, 2u);
    EXPECT_EQ(cache.hits(), split.blocks.size() - 2);

    // An mp edit may change that block's automatic tile (more cores want more tiles): at most
    // that one block is tiled again.
    auto mp = schedule::setMp(split, split.blocks.front().id, 1);
    ASSERT_TRUE(mp.ok());
    const std::uint64_t missesBefore = cache.misses(), hitsBefore = cache.hits();
    assembly(*g, t, *mp, &cache);
    EXPECT_LE(cache.misses() - missesBefore, 1u);
    EXPECT_GE(cache.hits() - hitsBefore, mp->blocks.size() - 1);
}

TEST(CompileCache, PlansUnusedForTwoCompilesAreDropped) {
    auto g = test::sampleGraph("resnet_tiny.onnx");
    auto t = test::presetTarget("mncore2");
    const auto perOp = schedule::makeSchedule(*g, t, schedule::Strategy::PerOp);
    const auto fuseMax = schedule::makeSchedule(*g, t, schedule::Strategy::FuseMax);
    CompileCache cache(*g, t);
    assembly(*g, t, perOp, &cache);
    EXPECT_EQ(cache.blockPlans(), perOp.blocks.size());
    assembly(*g, t, fuseMax, &cache);  // per-op plans were used by the compile before: kept
    EXPECT_GE(cache.blockPlans(), perOp.blocks.size());
    assembly(*g, t, fuseMax, &cache);  // now two compiles ago: dropped
    assembly(*g, t, fuseMax, &cache);
    EXPECT_EQ(cache.blockPlans(), fuseMax.blocks.size());
}

TEST(CompileCache, ACacheForAnotherGraphIsNotUsed) {
    auto g = test::sampleGraph("resnet_tiny.onnx");
    auto other = test::sampleGraph("mobilenet_tiny.onnx");
    auto t = test::presetTarget("host");
    CompileCache cache(*other, t);
    const auto s = schedule::makeSchedule(*g, t, schedule::Strategy::Rules);
    EXPECT_EQ(assembly(*g, t, s, &cache), assembly(*g, t, s, nullptr));
    EXPECT_EQ(cache.hits() + cache.misses(), 0u);
    EXPECT_EQ(cache.blockPlans(), 0u);
}

} // namespace
} // namespace strata::compiler
