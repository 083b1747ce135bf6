// Verify with the CompileCache (passes/VerifyChunks.h): after an edit only the chunks the edit
// changed are checked again, and the diagnostics are always those of the whole-program verify,
// also when an edit brings a defect into one block or breaks an order across blocks.

#include "CompilerFixtures.h"
#include "compiler/BlockChunk.h"
#include "compiler/CompileCache.h"
#include "compiler/Pipeline.h"
#include "compiler/passes/Verify.h"
#include "compiler/passes/VerifyChunks.h"
#include "schedule/Edits.h"
#include "schedule/Strategies.h"
#include "support/TestModels.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>

namespace strata::compiler {
namespace {

using test::mentions;

std::vector<std::string> texts(const std::vector<Diagnostic>& diagnostics) {
    std::vector<std::string> out;
    for (const Diagnostic& d : diagnostics) out.push_back(d.toString());
    return out;
}

// Every pass but verify, with `cache`, as compile() runs them.
CompileState spliced(const ir::Graph& g, const target::Target& t, const schedule::Schedule& s, CompileCache& cache) {
    CompileState state = test::stateFor(g, t, s);
    state.cache = &cache;
    for (const Pass& pass : passes())
        if (pass.name != "verify") pass.run(state);
    EXPECT_FALSE(state.failed()) << test::joined(state.diagnostics);
    return state;
}

// The cached verify of `state`'s program, checked against the whole-program verify.
std::vector<Diagnostic> verifiedBothWays(const CompileState& state) {
    auto cached = verifyWithCache(state);
    EXPECT_EQ(texts(cached), texts(verifyProgram(state.program, state.graph, state.target)));
    state.cache->endCompile();
    return cached;
}

schedule::Schedule splitFirstFusedBlock(const schedule::Schedule& s, const ir::Graph& g) {
    for (const schedule::Block& b : s.blocks)
        if (b.ops.size() > 1)
            if (auto split = schedule::splitBlock(s, g, b.id, b.ops[1])) return std::move(split).value();
    return s;
}

TEST(VerifyChunks, SameDiagnosticsAsTheWholeVerifyAfterEdits) {
    std::uint64_t rechecked = 0; // kept chunks whose tensors the DRAM plan moved
    for (const char* sample : {"resnet_tiny.onnx", "mobilenet_tiny.onnx", "transformer_block.onnx"}) {
        auto g = test::sampleGraph(sample);
        for (const char* targetName : {"mncore2", "mlu100", "host"}) {
            auto t = test::presetTarget(targetName);
            for (auto strategy : {schedule::Strategy::Rules, schedule::Strategy::FuseMax}) {
                const auto before = schedule::makeSchedule(*g, t, strategy);
                const auto split = splitFirstFusedBlock(before, *g);
                const auto mp = schedule::setMp(split, split.blocks.back().id, std::max(1, t.maxMp() / 2));
                ASSERT_TRUE(mp.ok());
                CompileCache cache(*g, t);
                for (const schedule::Schedule* s : {&before, &split, &*mp, &before})
                    EXPECT_TRUE(verifiedBothWays(spliced(*g, t, *s, cache)).empty()) << sample << " on " << targetName;
                EXPECT_GT(cache.verdictHits(), 0u) << sample << " on " << targetName;
                EXPECT_EQ(cache.wholeVerifies(), 0u) << sample << " on " << targetName;
                rechecked += cache.raceRechecks();
            }
        }
    }
    EXPECT_GT(rechecked, 0u) << "no edit moved a kept block's tensors: the races' re-check is not exercised";
}

TEST(VerifyChunks, AnEditChecksOnlyTheBlockItChanged) {
    auto g = test::sampleGraph("resnet_tiny.onnx");
    auto t = test::presetTarget("mncore2");
    const auto before = schedule::makeSchedule(*g, t, schedule::Strategy::Rules);
    CompileCache cache(*g, t);
    CompileOptions options;
    options.cache = &cache;
    ASSERT_TRUE(compile(*g, t, before, options).ok());
    EXPECT_EQ(cache.verdictMisses(), before.blocks.size());
    EXPECT_EQ(cache.chunkVerdicts(), before.blocks.size());

    const schedule::Block& middle = before.blocks[before.blocks.size() / 2];
    auto mp = schedule::setMp(before, middle.id, middle.mp > 1 ? middle.mp / 2 : 2);
    ASSERT_TRUE(mp.ok());
    ASSERT_TRUE(compile(*g, t, *mp, options).ok());
    EXPECT_EQ(cache.verdictMisses(), before.blocks.size() + 1);
    EXPECT_EQ(cache.verdictHits(), before.blocks.size() - 1);
    EXPECT_EQ(cache.wholeVerifies(), 0u);
}

// The chunk kept for block `index` of `s`, replaced in the cache by a copy `corrupt` changed:
// what an edit that writes a broken block gives the next compile.
void corruptKeptChunk(CompileCache& cache, const CompileState& state, std::size_t index,
                      const std::function<void(BlockChunk&)>& corrupt) {
    const std::string key = chunkKey(state.blocks[index]);
    auto kept = cache.keptChunk(key);
    ASSERT_TRUE(kept);
    auto copy = std::make_shared<BlockChunk>(*kept);
    corrupt(*copy);
    cache.keepChunk(key, copy);
}

TEST(VerifyChunks, ADefectInOneChangedBlockIsReported) {
    auto g = test::sampleGraph("resnet_tiny.onnx");
    auto t = test::presetTarget("mncore2");
    const auto s = schedule::makeSchedule(*g, t, schedule::Strategy::Rules);
    CompileCache cache(*g, t);
    const CompileState first = spliced(*g, t, s, cache);
    EXPECT_TRUE(verifiedBothWays(first).empty());
    const std::size_t middle = s.blocks.size() / 2;
    corruptKeptChunk(cache, first, middle, [&](BlockChunk& chunk) {
        for (Instruction& in : chunk.instructions)
            if (auto* c = std::get_if<Compute>(&in.body)) {
                c->outputs[0].offset = t.workingMemoryBytes() - 16;
                return;
            }
    });
    const std::uint64_t whole = cache.wholeVerifies();
    auto found = verifiedBothWays(spliced(*g, t, s, cache));
    EXPECT_TRUE(mentions(found, "result beyond the working memory")) << test::joined(found);
    EXPECT_EQ(cache.wholeVerifies(), whole + 1);
}

TEST(VerifyChunks, AHandBrokenProgramInAChangedBlockIsReported) {
    auto g = test::sampleGraph("mobilenet_tiny.onnx");
    auto t = test::presetTarget("mncore2");
    const auto before = schedule::makeSchedule(*g, t, schedule::Strategy::Rules);
    const schedule::Block& middle = before.blocks[before.blocks.size() / 2];
    auto mp = schedule::setMp(before, middle.id, middle.mp > 1 ? middle.mp / 2 : 2);
    ASSERT_TRUE(mp.ok());
    CompileCache cache(*g, t);
    EXPECT_TRUE(verifiedBothWays(spliced(*g, t, before, cache)).empty());
    CompileState edited = spliced(*g, t, *mp, cache);
    // The edited block waits on a tag nothing is in flight on.
    bool broken = false;
    for (Instruction& in : edited.program.instructions)
        if (auto* w = std::get_if<Wait>(&in.body); w && in.from.block == middle.id && !broken) {
            w->tag = 1023;
            broken = true;
        }
    ASSERT_TRUE(broken);
    auto found = verifiedBothWays(edited);
    EXPECT_TRUE(mentions(found, "which is not in flight")) << test::joined(found);
}

// A defect no block shows on its own: the first block, otherwise unchanged, now loads (and
// computes on) the tensor the last block stores, so it reads it before it is written. Its chunk
// alone checks clean; the DRAM order across blocks does not.
TEST(VerifyChunks, AnOrderBrokenAcrossBlocksIsReported) {
    auto g = test::sampleGraph("resnet_tiny.onnx");
    auto t = test::presetTarget("mncore2");
    const auto s = schedule::makeSchedule(*g, t, schedule::Strategy::Rules);
    CompileCache cache(*g, t);
    const CompileState first = spliced(*g, t, s, cache);
    EXPECT_TRUE(verifiedBothWays(first).empty());
    const ir::ValueId input = g->inputs.front();
    const ir::ValueId output = g->outputs.front();
    ASSERT_EQ(g->value(input).dtype, g->value(output).dtype);
    const BlockChunk* corrupted = nullptr;
    corruptKeptChunk(cache, first, 0, [&](BlockChunk& chunk) {
        corrupted = &chunk;
        for (Instruction& in : chunk.instructions) {
            if (auto* tr = std::get_if<Transfer>(&in.body); tr && tr->value == input) tr->value = output;
            if (auto* c = std::get_if<Compute>(&in.body))
                for (Operand& o : c->inputs)
                    if (o.value == input) o.value = output;
        }
    });
    auto found = verifiedBothWays(spliced(*g, t, s, cache));
    EXPECT_TRUE(mentions(found, "before the barrier after its store")) << test::joined(found);
    auto verdict = cache.verdict(corrupted);
    ASSERT_TRUE(verdict);
    EXPECT_TRUE(verdict->clean) << "the block alone should check clean: the cross-block check is what is tested";
}

// The chunk's local epoch of its instruction `index`: the barriers before it (every core has
// each of the chunk's barriers).
int localEpoch(const BlockChunk& chunk, std::size_t index) {
    const int core = chunk.instructions[index].core;
    int epoch = 0;
    for (std::size_t i = 0; i < index; ++i)
        if (chunk.instructions[i].core == core && chunk.instructions[i].kind() == InstrKind::Barrier) ++epoch;
    return epoch;
}

const Access& mainSide(const BlockChunk& chunk, const BlockChunk::DramSide& side) {
    const auto& t = std::get<Transfer>(chunk.instructions[side.instruction].body);
    return side.source ? t.source : t.destination;
}

// A race no block shows on its own: two blocks with no barrier between them share an epoch, and
// a store of the first, after its last barrier, is moved onto bytes the second reaches from
// another core before its first barrier. The first block's chunk alone checks clean; the race
// check of the epoch they share does not.
TEST(VerifyChunks, ARaceBetweenBlocksSharingAnEpochIsReported) {
    bool tested = false;
    for (const char* sample : {"transformer_block.onnx", "mobilenet_tiny.onnx", "resnet_tiny.onnx"}) {
        auto g = test::sampleGraph(sample);
        for (const char* targetName : {"mncore2", "mlu100"}) {
            auto t = test::presetTarget(targetName);
            for (auto strategy : {schedule::Strategy::PerOp, schedule::Strategy::Rules}) {
                if (tested) return;
                const auto s = schedule::makeSchedule(*g, t, strategy);
                CompileCache cache(*g, t);
                const CompileState state = spliced(*g, t, s, cache);
                ASSERT_TRUE(verifiedBothWays(state).empty());
                const Program& program = state.program;
                for (std::size_t p = 0; p + 1 < state.blocks.size() && !tested; ++p) {
                    const std::string key = chunkKey(state.blocks[p]);
                    const auto first = cache.keptChunk(key);
                    const auto second = cache.keptChunk(chunkKey(state.blocks[p + 1]));
                    ASSERT_TRUE(first && second);
                    InstrId start = 0; // the second chunk's first instruction in the program
                    while (start < program.instructions.size() &&
                           program.instructions[start].from.block != state.blocks[p + 1].block.id)
                        ++start;
                    if (start == 0 || program.instructions[start - 1].kind() == InstrKind::Barrier) continue;
                    for (const auto& store : first->dramSides) {
                        const Instruction& in = first->instructions[store.instruction];
                        if (store.source || localEpoch(*first, store.instruction) != first->barriers) continue;
                        const ir::ValueId stored = std::get<Transfer>(in.body).value;
                        for (const auto& other : second->dramSides) {
                            const Instruction& there = second->instructions[other.instruction];
                            const ir::ValueId reached = std::get<Transfer>(there.body).value;
                            if (there.core == in.core || reached == stored || localEpoch(*second, other.instruction) != 0)
                                continue;
                            // The store's offset relative to its tensor, so that the splice puts it
                            // on the other access's first byte (unsigned arithmetic wraps).
                            const std::uint64_t target = program.dramOf(reached)->offset + mainSide(*second, other).offset;
                            auto broken = std::make_shared<BlockChunk>(*first);
                            std::get<Transfer>(broken->instructions[store.instruction].body).destination.offset =
                                target - program.dramOf(stored)->offset;
                            cache.keepChunk(key, broken);
                            auto found = verifiedBothWays(spliced(*g, t, s, cache));
                            auto verdict = cache.verdict(broken.get());
                            ASSERT_TRUE(verdict);
                            const bool aloneClean = verdict->clean && std::find(verdict->raceFree.begin(),
                                                                                verdict->raceFree.end(), 0) == verdict->raceFree.end();
                            if (aloneClean) {
                                EXPECT_TRUE(mentions(found, "with no barrier between")) << test::joined(found);
                                tested = true;
                                break;
                            }
                            cache.keepChunk(key, first); // races inside the block too: try another
                        }
                        if (tested) break;
                    }
                }
            }
        }
    }
    EXPECT_TRUE(tested) << "no sample has two blocks sharing an epoch to break";
}

// A kept block whose tensors the DRAM plan moved is checked for races again: here one of its
// stores is moved (with its tensor's home, as a new plan would) onto bytes another core of the
// same block loads at the same time.
TEST(VerifyChunks, ARaceAfterTheDramPlanMovedAKeptBlocksTensorIsReported) {
    auto g = test::sampleGraph("resnet_tiny.onnx");
    auto t = test::presetTarget("mncore2");
    const auto s = schedule::makeSchedule(*g, t, schedule::Strategy::Rules);
    CompileCache cache(*g, t);
    CompileState state = spliced(*g, t, s, cache);
    ASSERT_TRUE(verifiedBothWays(state).empty());
    std::vector<std::shared_ptr<const BlockChunk>> chunks;
    for (const TiledBlock& block : state.blocks) chunks.push_back(cache.keptChunk(chunkKey(block)));
    Program& program = state.program;
    for (const auto& chunk : chunks)
        for (const auto& store : chunk->dramSides) {
            const Instruction& in = chunk->instructions[store.instruction];
            const ir::ValueId stored = std::get<Transfer>(in.body).value;
            if (store.source || !program.dramOf(stored)) continue;
            for (const auto& load : chunk->dramSides) {
                const Instruction& there = chunk->instructions[load.instruction];
                const ir::ValueId loaded = std::get<Transfer>(there.body).value;
                if (!load.source || there.core == in.core || loaded == stored || !program.dramOf(loaded) ||
                    localEpoch(*chunk, load.instruction) != localEpoch(*chunk, store.instruction))
                    continue;
                // The new home puts this store on the load's first byte; every transfer of the
                // tensor follows it, as the splice would.
                DramBuffer& home = *std::find_if(program.dram.begin(), program.dram.end(),
                                                 [&](const DramBuffer& b) { return b.value == stored; });
                const std::uint64_t moved = program.dramOf(loaded)->offset + mainSide(*chunk, load).offset -
                                            mainSide(*chunk, store).offset;
                const std::uint64_t shift = moved - home.offset;
                home.offset = moved;
                for (Instruction& each : program.instructions)
                    if (auto* tr = std::get_if<Transfer>(&each.body); tr && tr->value == stored) {
                        Access& main = tr->destination.memory == t.mainMemory ? tr->destination : tr->source;
                        main.offset += shift;
                    }
                const std::uint64_t rechecks = cache.raceRechecks();
                auto found = verifySpliced(program, *g, t, chunks, cache);
                EXPECT_EQ(texts(found), texts(verifyProgram(program, *g, t)));
                EXPECT_TRUE(mentions(found, "with no barrier between")) << test::joined(found);
                EXPECT_GT(cache.raceRechecks(), rechecks);
                return;
            }
        }
    FAIL() << "no block stores and loads on two cores in one epoch";
}

} // namespace
} // namespace strata::compiler
