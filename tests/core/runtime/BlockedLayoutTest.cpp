// Channel-blocked working-memory layouts (compiler/passes/ChooseLayouts.h) end to end: the pass's
// rules on small graphs (a blocked output kept between two convolutions, reorders before a plain
// reader and before a store, none with a granule of 1), the verifier refusing a layout mismatch,
// the listing and the emulator, and host runs matching the reference evaluator on programs whose
// convolution chains stay blocked (halos, strides, groups, channels that are not whole blocks, a
// residual add).

#include "KernelBoxes.h"
#include "RunMatchesReference.h"
#include "TwoCoreTarget.h"
#include "compiler/Pipeline.h"
#include "compiler/emit/AsmEmitter.h"
#include "compiler/passes/Verify.h"
#include "emulator/Emulator.h"
#include "reference/Compare.h"
#include "reference/Evaluator.h"
#include "runtime/ComputeKernels.h"
#include "runtime/Runtime.h"
#include "schedule/Edits.h"
#include "schedule/Strategies.h"
#include "support/TestModels.h"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <random>

namespace strata::test {
namespace {

// Two cores with 256 KiB of working memory each, vectors of `granule` channels.
target::Target hostLike(int granule = 16) {
    target::Target t = twoCoreTarget("hostlike", 256 * 1024);
    t.channelGranule = granule;
    return t;
}

// X[1, C, 15, 15] -> A = Conv 3x3 (C -> M, `first` attributes) -> Relu -> [the residual add of
// R] -> Y = Conv 3x3 pad 1 (M -> M, group `group`), then `tail` (ONNX text making Z from Y).
struct Chain {
    const char* name;
    int channels, middle;
    const char* first; // attributes of the first convolution
    int group;         // of the second
    bool residual;
    const char* tail;
};

constexpr int kSize = 15;

std::shared_ptr<const ir::Graph> graphFor(const Chain& c) {
    // The first convolution's output size (its attributes: pad 1, stride 1 or 2).
    const bool strided = std::string(c.first).find("strides = [2, 2]") != std::string::npos;
    const int o = strided ? (kSize + 2 - 3) / 2 + 1 : kSize;
    const std::string text = fmt::format(
        "<ir_version: 8, opset_import: [\"\" : 17]>\n"
        "g (float[1, {0}, {2}, {2}] X, float[1, {1}, {3}, {3}] R) => (float[1, {1}, {3}, {3}] Z)\n"
        "<float[{1}, {0}, 3, 3] W = {{{4}}}, float[{1}] B = {{{5}}}, float[{1}, {6}, 3, 3] W2 = "
        "{{{7}}}> {{\n"
        "    A = Conv <{8}> (X, W, B)\n"
        "    E = Relu (A)\n"
        "    {9}\n"
        "    Y = Conv <pads = [1, 1, 1, 1], group = {10}> (F, W2)\n"
        "    {11}\n"
        "}}\n",
        c.channels, c.middle, kSize, o,
        patternValues(std::int64_t{c.middle} * c.channels * 9, 0.02f),
        patternValues(c.middle, 0.05f), c.middle / c.group,
        patternValues(std::int64_t{c.middle} * (c.middle / c.group) * 9, 0.02f), c.first,
        c.residual ? "F = Add (E, R)" : "F = Identity (E)", c.group, c.tail);
    auto m = importText(text);
    EXPECT_TRUE(m) << joined(m.diagnostics()) << "\n" << text;
    return m ? m->graph : nullptr;
}

// One block of every op, on both cores, in tiles of 5 output rows (the first convolution's
// tiles then hold halo rows).
schedule::Schedule inRowTiles(const ir::Graph& g, const target::Target& t) {
    schedule::Schedule s =
        schedule::makeSchedule(g, t, schedule::Strategy::FuseMax, {.mp = 2, .buffering = 1});
    ir::Shape tile = g.value(g.outputs[0]).shape;
    tile[2] = 5;
    auto edited = schedule::setTile(s, g, s.blocks.front().id, schedule::TileSpec{tile});
    EXPECT_TRUE(edited) << joined(edited.diagnostics());
    return edited ? std::move(edited).value() : s;
}

std::vector<const compiler::Instruction*> computes(const compiler::Program& p,
                                                   const std::string& type) {
    std::vector<const compiler::Instruction*> out;
    for (const compiler::Instruction& in : p.instructions)
        if (const auto* c = std::get_if<compiler::Compute>(&in.body); c && c->opType == type)
            out.push_back(&in);
    return out;
}

const compiler::Compute& body(const compiler::Instruction* in) {
    return std::get<compiler::Compute>(in->body);
}

class BlockedChain : public ::testing::TestWithParam<Chain> {};

TEST_P(BlockedChain, MatchesTheReference) {
    auto g = graphFor(GetParam());
    ASSERT_TRUE(g);
    const target::Target t = hostLike();
    auto compiled = compiler::compile(*g, t, inRowTiles(*g, t));
    ASSERT_TRUE(compiled) << joined(compiled.diagnostics());
    test::expectRunMatchesReference(compiled->program, t, *g);
}

const Chain kChains[] = {
    {"blocked16", 16, 16, "pads = [1, 1, 1, 1]", 1, false, "Z = Relu (Y)"},
    {"wideChannels", 32, 48, "pads = [1, 1, 1, 1]", 1, false, "Z = Relu (Y)"},
    {"stride2", 16, 32, "pads = [1, 1, 1, 1], strides = [2, 2]", 1, false, "Z = Relu (Y)"},
    {"residualAdd", 16, 16, "pads = [1, 1, 1, 1]", 1, true, "Z = Relu (Y)"},
    {"stemOf3Channels", 3, 16, "pads = [1, 1, 1, 1]", 1, false, "Z = Relu (Y)"},
    {"oddChannels", 5, 7, "pads = [1, 1, 1, 1]", 1, false, "Z = Relu (Y)"},
    {"groups2", 16, 32, "pads = [1, 1, 1, 1]", 2, false, "Z = Relu (Y)"},
    {"dilation2", 16, 16, "pads = [2, 2, 2, 2], dilations = [2, 2]", 1, false, "Z = Relu (Y)"},
    {"plainReaderAfter", 16, 16, "pads = [1, 1, 1, 1]", 1, false,
     "Z = MaxPool <kernel_shape = [3, 3], pads = [1, 1, 1, 1]> (Y)"},
};

INSTANTIATE_TEST_SUITE_P(Chains, BlockedChain, ::testing::ValuesIn(kChains),
                         [](const ::testing::TestParamInfo<Chain>& info) {
                             return info.param.name;
                         });

// Two 3x3 convolutions in one block: the first writes its output blocked and the second reads
// it so, with no reorder between them; the input is reordered after its load, the result
// before its store; the listing names the layouts and the emulator costs each reorder.
TEST(ChooseLayouts, KeepsTheBlockedOutputBetweenTwoConvolutions) {
    auto g = graphFor(kChains[0]);
    ASSERT_TRUE(g);
    const target::Target t = hostLike();
    auto compiled = compiler::compile(*g, t, inRowTiles(*g, t));
    ASSERT_TRUE(compiled) << joined(compiled.diagnostics());
    const compiler::Program& p = compiled->program;
    const auto convs = computes(p, "Conv");
    ASSERT_FALSE(convs.empty());
    for (const compiler::Instruction* in : convs) {
        EXPECT_EQ(body(in).outputs[0].channelBlock, compiler::kChannelsLast);
        EXPECT_EQ(body(in).inputs[0].channelBlock, compiler::kChannelsLast);
    }
    // Per tile: X to blocked before the first convolution, Z back before its store; nothing
    // between the two convolutions (their chained box is never reordered).
    std::size_t toBlocked = 0, toPlain = 0;
    for (const compiler::Instruction* in : computes(p, compiler::kReorderOp)) {
        const compiler::Compute& r = body(in);
        (r.outputs[0].channelBlock != 0 ? toBlocked : toPlain) += 1;
        EXPECT_EQ(r.inputs[0].region, r.outputs[0].region);
        EXPECT_EQ(r.inputs[0].offset, r.outputs[0].offset);
    }
    const std::size_t tiles = compiled->program.blocks.front().tiles;
    EXPECT_EQ(toBlocked, tiles); // X, after its load
    EXPECT_EQ(toPlain, tiles);   // Z, before its store
    for (const compiler::Instruction* in : computes(p, compiler::kReorderOp))
        for (const compiler::Operand& o : body(in).inputs)
            EXPECT_NE(g->value(o.value).name, "E") << "the chained box was reordered";

    const std::string listing = compiler::emitAssembly(p, *g);
    EXPECT_NE(listing.find("reorder"), std::string::npos);
    EXPECT_NE(listing.find("nchw -> nhwc"), std::string::npos) << listing;
    EXPECT_NE(listing.find("nhwc -> nchw"), std::string::npos);
    EXPECT_NE(listing.find("[1x16x"), std::string::npos);

    auto emulated = emulator::emulate(p, t, *g);
    ASSERT_TRUE(emulated) << joined(emulated.diagnostics());
    std::size_t costed = 0;
    for (const trace::Event& e : emulated->events)
        if (const auto* c = std::get_if<compiler::Compute>(&p.instructions[e.id].body);
            c && c->isReorder())
            costed += e.durationPs() > 0;
    EXPECT_EQ(costed, toBlocked + toPlain);
}

// A plain reader (a pool) of a blocked convolution output gets a reorder to row-major first.
TEST(ChooseLayouts, ReordersBeforeAPlainReader) {
    auto g = graphFor(kChains[8]);
    ASSERT_TRUE(g);
    const target::Target t = hostLike();
    auto compiled = compiler::compile(*g, t, inRowTiles(*g, t));
    ASSERT_TRUE(compiled) << joined(compiled.diagnostics());
    const compiler::Program& p = compiled->program;
    const auto pools = computes(p, "MaxPool");
    ASSERT_FALSE(pools.empty());
    for (const compiler::Instruction* pool : pools) {
        EXPECT_EQ(body(pool).inputs[0].channelBlock, 0);
        // The instruction before the pool in its stream reorders what it reads.
        const auto& stream = p.streams[static_cast<std::size_t>(pool->core)];
        const auto at = std::find(stream.begin(), stream.end(), pool->id);
        ASSERT_NE(at, stream.begin());
        const auto* before = std::get_if<compiler::Compute>(&p.instructions[*std::prev(at)].body);
        ASSERT_NE(before, nullptr);
        EXPECT_TRUE(before->isReorder());
        EXPECT_EQ(before->outputs[0].value, body(pool).inputs[0].value);
        EXPECT_EQ(before->outputs[0].channelBlock, 0);
    }
}

// Nothing is blocked and nothing reordered where vectors are one channel wide, and where the
// convolution has no blocked kernel (groups) or channels that are not whole blocks.
TEST(ChooseLayouts, NoneWithAGranuleOfOneOrWithoutWholeBlocks) {
    for (const auto& [chain, granule] : {std::pair{kChains[0], 1}, std::pair{kChains[5], 16}}) {
        auto g = graphFor(chain);
        ASSERT_TRUE(g);
        const target::Target t = hostLike(granule);
        auto compiled = compiler::compile(*g, t, inRowTiles(*g, t));
        ASSERT_TRUE(compiled) << joined(compiled.diagnostics());
        EXPECT_TRUE(computes(compiled->program, compiler::kReorderOp).empty()) << chain.name;
        for (const compiler::Instruction* in : computes(compiled->program, "Conv"))
            EXPECT_EQ(body(in).outputs[0].channelBlock, 0) << chain.name;
    }
    auto g = graphFor(kChains[6]); // the second convolution has 2 groups
    ASSERT_TRUE(g);
    const target::Target t = hostLike();
    auto compiled = compiler::compile(*g, t, inRowTiles(*g, t));
    ASSERT_TRUE(compiled) << joined(compiled.diagnostics());
    std::size_t groupedConvs = 0;
    for (const compiler::Instruction* in : computes(compiled->program, "Conv"))
        if (g->op(in->from.op).attrInt("group", 1) == 2) {
            ++groupedConvs;
            EXPECT_EQ(body(in).inputs[0].channelBlock, 0);
            EXPECT_EQ(body(in).outputs[0].channelBlock, 0);
        }
    EXPECT_GT(groupedConvs, 0u);
}

// The verifier refuses a compute that reads a box in another layout than its writer left, and a
// transfer of a blocked box.
TEST(ChooseLayouts, VerifierRefusesALayoutMismatch) {
    auto g = graphFor(kChains[0]);
    ASSERT_TRUE(g);
    const target::Target t = hostLike();
    auto compiled = compiler::compile(*g, t, inRowTiles(*g, t));
    ASSERT_TRUE(compiled) << joined(compiled.diagnostics());
    ASSERT_TRUE(compiler::verifyProgram(compiled->program, *g, t).empty());

    compiler::Program readsPlain = compiled->program;
    for (compiler::Instruction& in : readsPlain.instructions)
        if (auto* c = std::get_if<compiler::Compute>(&in.body); c && c->opType == "Conv") {
            c->inputs[0].channelBlock = 0;
            break;
        }
    auto found = compiler::verifyProgram(readsPlain, *g, t);
    EXPECT_TRUE(mentions(found, "layout: reads")) << joined(found);

    // Without its reorders, the result is stored blocked.
    compiler::Program storesBlocked = compiled->program;
    for (compiler::Instruction& in : storesBlocked.instructions)
        if (auto* c = std::get_if<compiler::Compute>(&in.body);
            c && c->isReorder() && c->outputs[0].channelBlock == 0)
            c->outputs[0].channelBlock = compiler::kChannelsLast;
    found = compiler::verifyProgram(storesBlocked, *g, t);
    EXPECT_TRUE(mentions(found, "moves")) << joined(found);
}

// strata_rt's reorder (oneDNN's in a library build, else its loops) puts every element where
// nChw16c and nhwc have it, and back.
TEST(Reorder, PlacesEveryElementWhereTheLayoutHasItAndBack) {
    std::mt19937 rng(3);
    Box box = Box::whole({1, 32, 5, 7}, rng);
    const std::vector<float> plain = box.data;
    rt::reorder(box.view, 0, 16);
    const i64* e = box.view.ext;
    for (i64 c = 0; c < e[1]; ++c)
        for (i64 h = 0; h < e[2]; ++h)
            for (i64 w = 0; w < e[3]; ++w)
                ASSERT_EQ(box.data[static_cast<std::size_t>(rt::blockedIndex(e, 16, 0, c, h, w))],
                          plain[static_cast<std::size_t>(rt::blockedIndex(e, 0, 0, c, h, w))]);
    rt::reorder(box.view, 16, -1);
    for (i64 c = 0; c < e[1]; ++c)
        for (i64 h = 0; h < e[2]; ++h)
            for (i64 w = 0; w < e[3]; ++w)
                ASSERT_EQ(box.data[static_cast<std::size_t>((h * e[3] + w) * e[1] + c)],
                          plain[static_cast<std::size_t>(rt::blockedIndex(e, 0, 0, c, h, w))]);
    rt::reorder(box.view, -1, 8);
    rt::reorder(box.view, 8, 0);
    EXPECT_EQ(box.data, plain);
}

// Between row-major and channels-last, strata_rt's reorder is a transpose per batch element
// (transposeMatrices, no library call): every element lands where nhwc has it and back, on two
// batch elements, channels that are not a multiple of its sixteen-row blocks, and a map of one
// position.
TEST(Reorder, RowMajorAndChannelsLastAreTransposesPerBatchElement) {
    std::mt19937 rng(5);
    for (const auto& full : {std::vector<i64>{2, 21, 5, 7}, std::vector<i64>{1, 40, 1, 1},
                             std::vector<i64>{3, 3, 4, 33}}) {
        Box box = Box::whole(full, rng);
        const std::vector<float> plain = box.data;
        rt::reorder(box.view, 0, -1);
        const i64* e = box.view.ext;
        for (i64 n = 0; n < e[0]; ++n)
            for (i64 c = 0; c < e[1]; ++c)
                for (i64 h = 0; h < e[2]; ++h)
                    for (i64 w = 0; w < e[3]; ++w)
                        ASSERT_EQ(
                            box.data[static_cast<std::size_t>((((n * e[2] + h) * e[3] + w) * e[1]) +
                                                              c)],
                            plain[static_cast<std::size_t>(rt::blockedIndex(e, 0, n, c, h, w))]);
        rt::reorder(box.view, -1, 0);
        EXPECT_EQ(box.data, plain);
    }
}

// oneDNN's direct convolution reading a blocked input box and writing a blocked output box, with
// no reorder inside the call, computes what the loop does on row-major boxes: tiles of rows with
// halos, a stride, an output-channel tile. An input box holding rows beyond the ones the tile
// reads (a later op's halo) is no dense box: the call refuses it, having written nothing (the
// compiler leaves such a box row-major).
struct BlockedCase {
    const char* name;
    i64 c, h, w, m, stride, rows0, rows, ch0, chs, extraRows;
    bool direct = true; // nChw16c: whether the call takes the boxes (nhwc: checked when it does)
    i64 layout = 16;
};

class BlockedDnnlConv : public ::testing::TestWithParam<BlockedCase> {};

TEST_P(BlockedDnnlConv, ComputesWhatTheLoopDoes) {
    const BlockedCase& p = GetParam();
    std::mt19937 rng(5);
    const i64 oh = (p.h + 2 - 3) / p.stride + 1, ow = (p.w + 2 - 3) / p.stride + 1;
    const i64 first = std::max<i64>(0, p.rows0 * p.stride - 1 - p.extraRows);
    const i64 last =
        std::min<i64>(p.h - 1, (p.rows0 + p.rows - 1) * p.stride - 1 + 2 + p.extraRows);
    Box x({1, p.c, p.h, p.w}, {0, 0, first, 0}, {1, p.c, last - first + 1, p.w}, rng);
    Box w({p.m, p.c, 3, 3}, {p.ch0, 0, 0, 0}, {p.chs, p.c, 3, 3}, rng);
    Box b({p.m}, {p.ch0}, {p.chs}, rng);
    Box fast({1, p.m, oh, ow}, {0, p.ch0, p.rows0, 0}, {1, p.chs, p.rows, ow}, rng);
    Box loop = fast;
    loop.view.data = loop.data.data();
    Box blockedX = x;
    blockedX.view.data = blockedX.data.data();
    rt::reorder(blockedX.view, 0, p.layout);

    compiler::KernelCall call;
    call.kernel = compiler::Kernel::Conv2d;
    call.window = {3, 3, p.stride, p.stride, 1, 1, 1, 1};
    runtime::DnnlConvCache cache;
    const std::vector<float> before = fast.data;
    const bool ran = runtime::dnnlConv(fast.view, blockedX.view, w.view, &b.view, call, 7, cache,
                                       nullptr, nullptr, p.layout, p.layout);
    if (p.layout > 1) {
        ASSERT_EQ(ran, p.direct);
    }
    if (!ran) {
        EXPECT_EQ(fast.data, before);
        return;
    }
    rt::reorder(fast.view, p.layout, 0);
    rt::conv2d(loop.view, x.view, w.view, &b.view,
               rt::Window2d{{3, 3}, {p.stride, p.stride}, {1, 1}, {1, 1}}, 1);
    expectNear(fast.data, loop.data, 2e-4f);
}

INSTANTIATE_TEST_SUITE_P(
    Tiles, BlockedDnnlConv,
    ::testing::Values(
        BlockedCase{"whole", 16, 10, 10, 16, 1, 0, 10, 0, 16, 0},
        BlockedCase{"topRowsWithHalo", 32, 12, 9, 16, 1, 0, 5, 0, 16, 0},
        BlockedCase{"middleRows", 16, 12, 9, 32, 1, 4, 5, 0, 32, 0},
        BlockedCase{"extraRows", 16, 12, 9, 16, 1, 4, 4, 0, 16, 2, false},
        BlockedCase{"stride2ChannelTile", 16, 13, 11, 48, 2, 2, 3, 16, 16, 0},
        BlockedCase{"wholeNhwc", 16, 10, 10, 16, 1, 0, 10, 0, 16, 0, true, -1},
        BlockedCase{"topRowsWithHaloNhwc", 32, 12, 9, 16, 1, 0, 5, 0, 16, 0, true, -1},
        BlockedCase{"middleRowsNhwc", 16, 12, 9, 32, 1, 4, 5, 0, 32, 0, true, -1},
        BlockedCase{"extraRowsNhwc", 16, 12, 9, 16, 1, 4, 4, 0, 16, 2, true, -1},
        BlockedCase{"stride2ChannelTileNhwc", 16, 13, 11, 48, 2, 2, 3, 16, 16, 0, true, -1},
        BlockedCase{"oddChannelsNhwc", 5, 9, 9, 7, 1, 0, 9, 0, 7, 0, true, -1}),
    [](const ::testing::TestParamInfo<BlockedCase>& info) { return info.param.name; });

} // namespace
} // namespace strata::test
