// The CompileCache: a compile that uses it gives the very program a compile without it gives;
// after an edit only the blocks the edit changed are tiled and written again, and the blocks
// written before follow their tensors when the DRAM plan moves them; plans no recent compile
// used are dropped; a cache made for another graph is not used.

#include "CompilerFixtures.h"
#include "compiler/CompileCache.h"
#include "compiler/Pipeline.h"
#include "compiler/emit/AsmEmitter.h"
#include "compiler/emit/JsonEmitter.h"
#include "schedule/Edits.h"
#include "schedule/Strategies.h"
#include "support/TestModels.h"

#include <gtest/gtest.h>

#include <optional>
#include <set>

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

// Every field of the program (ids, tags, offsets, regions, provenance, streams), as JSON.
std::string programText(const ir::Graph& g, const target::Target& t, const schedule::Schedule& s, CompileCache* cache) {
    CompileOptions options;
    options.cache = cache;
    auto r = compile(g, t, s, options);
    EXPECT_TRUE(r.ok()) << test::joined(r.diagnostics());
    return r.ok() ? programToJson(r->program, g).dump(1) : std::string();
}

Program compiled(const ir::Graph& g, const target::Target& t, const schedule::Schedule& s, CompileCache* cache) {
    CompileOptions options;
    options.cache = cache;
    auto r = compile(g, t, s, options);
    EXPECT_TRUE(r.ok()) << test::joined(r.diagnostics());
    return r.ok() ? std::move(r->program) : Program{};
}

// The schedule with its first two neighbouring blocks merged (when fusing them is valid).
std::optional<schedule::Schedule> mergeFirstPair(const schedule::Schedule& s, const ir::Graph& g) {
    for (std::size_t b = 0; b + 1 < s.blocks.size(); ++b)
        if (auto merged = schedule::mergeBlocks(s, g, s.blocks[b].id, s.blocks[b + 1].id)) return std::move(merged).value();
    return std::nullopt;
}

// A run of edits as the GUI makes them, each compiled with the cache the ones before filled and
// compared field by field with a compile from scratch.
TEST(CompileCache, EveryEditGivesTheProgramOfACompileWithoutIt) {
    for (const char* sample : {"resnet_tiny.onnx", "mobilenet_tiny.onnx", "transformer_block.onnx"}) {
        auto g = test::sampleGraph(sample);
        for (const char* targetName : {"mncore2", "mlu100", "host"}) {
            auto t = test::presetTarget(targetName);
            std::vector<schedule::Schedule> edits{schedule::makeSchedule(*g, t, schedule::Strategy::Rules)};
            edits.push_back(splitFirstFusedBlock(edits.back(), *g));
            if (auto merged = mergeFirstPair(edits.back(), *g)) edits.push_back(*merged);
            const schedule::Block& middle = edits.back().blocks[edits.back().blocks.size() / 2];
            if (auto mp = schedule::setMp(edits.back(), middle.id, middle.mp > 1 ? middle.mp / 2 : t.maxMp()); mp.ok())
                edits.push_back(*mp);
            const schedule::Block& last = edits.back().blocks.back();
            if (auto buffering = schedule::setBuffering(edits.back(), last.id, last.buffering == 1 ? 2 : 1); buffering.ok())
                edits.push_back(*buffering);
            edits.push_back(edits.front()); // undo all the way
            EXPECT_GE(edits.size(), 5u) << sample << " on " << targetName;
            CompileCache cache(*g, t);
            for (std::size_t e = 0; e < edits.size(); ++e)
                EXPECT_EQ(programText(*g, t, edits[e], &cache), programText(*g, t, edits[e], nullptr))
                    << sample << " on " << targetName << ", edit " << e;
            EXPECT_GT(cache.chunkHits(), 0u) << sample << " on " << targetName;
        }
    }
}

TEST(CompileCache, AnEditWritesOnlyTheBlockItChanged) {
    auto g = test::sampleGraph("resnet_tiny.onnx");
    auto t = test::presetTarget("mncore2");
    const auto before = schedule::makeSchedule(*g, t, schedule::Strategy::Rules);
    CompileCache cache(*g, t);
    compiled(*g, t, before, &cache);
    EXPECT_EQ(cache.chunkMisses(), before.blocks.size());
    EXPECT_EQ(cache.chunkHits(), 0u);
    EXPECT_EQ(cache.blockChunks(), before.blocks.size());

    const schedule::Block& middle = before.blocks[before.blocks.size() / 2];
    auto mp = schedule::setMp(before, middle.id, middle.mp > 1 ? middle.mp / 2 : 2);
    ASSERT_TRUE(mp.ok());
    compiled(*g, t, *mp, &cache);
    EXPECT_EQ(cache.chunkMisses(), before.blocks.size() + 1);
    EXPECT_EQ(cache.chunkHits(), before.blocks.size() - 1);
}

// A split adds a tensor between the two halves, so the DRAM plan places tensors anew; the
// blocks written before the split are reused all the same and must address the tensors' new
// homes.
TEST(CompileCache, ReusedBlocksFollowTheirTensorsToTheirNewDramHomes) {
    bool moved = false;
    for (const char* sample : {"resnet_tiny.onnx", "mobilenet_tiny.onnx", "transformer_block.onnx"}) {
        auto g = test::sampleGraph(sample);
        auto t = test::presetTarget("mncore2");
        const auto before = schedule::makeSchedule(*g, t, schedule::Strategy::Rules);
        const auto split = splitFirstFusedBlock(before, *g);
        CompileCache cache(*g, t);
        const Program first = compiled(*g, t, before, &cache);
        const std::uint64_t hitsBefore = cache.chunkHits();
        const Program second = compiled(*g, t, split, &cache);
        EXPECT_GT(cache.chunkHits(), hitsBefore) << sample;
        EXPECT_EQ(programToJson(second, *g), programToJson(compiled(*g, t, split, nullptr), *g)) << sample;
        // For this to test anything, a block the split left alone must move a tensor whose
        // home changed.
        std::set<std::uint32_t> rehomed;
        for (const DramBuffer& b : second.dram)
            if (const DramBuffer* old = first.dramOf(b.value); old && old->offset != b.offset) rehomed.insert(b.value.index);
        for (const Instruction& in : second.instructions) {
            const auto* transfer = std::get_if<Transfer>(&in.body);
            const schedule::Block* was = before.findBlock(in.from.block);
            const schedule::Block* is = split.findBlock(in.from.block);
            if (transfer && was && is && *was == *is && rehomed.count(transfer->value.index)) moved = true;
        }
    }
    EXPECT_TRUE(moved) << "no sample's split moved a tensor in DRAM";
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
    EXPECT_EQ(cache.blockChunks(), fuseMax.blocks.size());
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
