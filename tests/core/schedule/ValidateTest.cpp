// validate(): each broken schedule gets a diagnostic naming its block and op.

#include "ScheduleFixtures.h"
#include "schedule/Strategies.h"
#include "schedule/Validate.h"
#include "support/TestModels.h"

#include <gtest/gtest.h>

namespace strata::schedule {
namespace {

using test::mentions;

Schedule perOp(const ir::Graph& g, const target::Target& t) { return makeSchedule(g, t, Strategy::PerOp); }

const Diagnostic* firstError(const std::vector<Diagnostic>& diags) {
    for (const auto& d : diags)
        if (d.severity == Severity::Error) return &d;
    return nullptr;
}

TEST(Validate, StrategySchedulesAreValid) {
    auto g = test::convChain();
    auto t = test::preset("mncore2");
    for (Strategy s : {Strategy::PerOp, Strategy::Rules, Strategy::FuseMax}) {
        auto check = checkSchedule(makeSchedule(*g, t, s), *g, t);
        EXPECT_TRUE(check.valid()) << strategyName(s) << ": " << test::joined(check.diagnostics);
        EXPECT_EQ(check.analysis.blocks.size(), makeSchedule(*g, t, s).blocks.size());
    }
}

TEST(Validate, OpInTwoBlocks) {
    auto g = test::convChain();
    auto t = test::preset("mncore2");
    Schedule s = perOp(*g, t);
    s.blocks[1].ops.push_back(s.blocks[0].ops[0]);
    auto diags = validate(s, *g, t);
    const Diagnostic* d = firstError(diags);
    ASSERT_TRUE(d);
    EXPECT_TRUE(mentions(diags, "op is in two blocks: B0 and B1")) << test::joined(diags);
    EXPECT_EQ(d->where.node, "Conv_0");
    EXPECT_EQ(d->where.block, "B1");
}

TEST(Validate, OpInNoBlock) {
    auto g = test::convChain();
    auto t = test::preset("mncore2");
    Schedule s = perOp(*g, t);
    s.blocks.erase(s.blocks.begin() + 2);
    auto diags = validate(s, *g, t);
    EXPECT_TRUE(mentions(diags, "op is in no block")) << test::joined(diags);
    EXPECT_EQ(firstError(diags)->where.node, "Conv_2");
}

TEST(Validate, NonConvexBlock) {
    auto g = test::diamond();
    auto t = test::preset("mncore2");
    Schedule s = perOp(*g, t);
    // Relu_0 and Add_3 together, with Sigmoid_1 and Tanh_2 outside: a path leaves and returns.
    s.blocks[0].ops.push_back(s.blocks[3].ops[0]);
    s.blocks.erase(s.blocks.begin() + 3);
    auto diags = validate(s, *g, t);
    EXPECT_TRUE(mentions(diags, "block is not convex: the result of 'Relu_0' leaves it through 'Sigmoid_1' (B1) "
                                "and comes back at 'Add_3'"))
        << test::joined(diags);
    EXPECT_EQ(firstError(diags)->where.block, "B0");
}

TEST(Validate, BlocksOutOfOrder) {
    auto g = test::convChain();
    auto t = test::preset("mncore2");
    Schedule s = perOp(*g, t);
    std::swap(s.blocks[1], s.blocks[2]);
    auto diags = validate(s, *g, t);
    EXPECT_TRUE(mentions(diags, "block runs before B1, which makes its input 'B'")) << test::joined(diags);
    EXPECT_EQ(firstError(diags)->where.node, "Conv_2");
}

TEST(Validate, MpOutsideTheTarget) {
    auto g = test::convChain();
    auto t = test::preset("mncore2");
    Schedule s = perOp(*g, t);
    s.blocks[0].mp = 0;
    s.blocks[1].mp = t.maxMp() + 1;
    auto diags = validate(s, *g, t);
    EXPECT_TRUE(mentions(diags, "mp 0 is outside 1.." + std::to_string(t.maxMp()))) << test::joined(diags);
    EXPECT_TRUE(mentions(diags, "block 'B1': mp " + std::to_string(t.maxMp() + 1) + " is outside"))
        << test::joined(diags);
}

TEST(Validate, BufferingMustBeOneOrTwo) {
    auto g = test::convChain();
    auto t = test::preset("mncore2");
    Schedule s = perOp(*g, t);
    s.blocks[3].buffering = 3;
    EXPECT_TRUE(mentions(validate(s, *g, t), "block 'B3': buffering 3 must be 1 or 2"));
}

TEST(Validate, TileLargerThanTheTensor) {
    auto g = test::convChain();
    auto t = test::preset("mncore2");
    Schedule s = perOp(*g, t);
    s.blocks[0].tile.extents = ir::Shape{1, 4, 16, 8};
    auto diags = validate(s, *g, t);
    EXPECT_TRUE(mentions(diags, "tile 1x4x16x8 is larger than the block's output (1x4x8x8) in dimension 2"))
        << test::joined(diags);
    EXPECT_EQ(firstError(diags)->where.block, "B0");
    EXPECT_EQ(firstError(diags)->where.value, "A");
}

TEST(Validate, TileOfTheWrongRank) {
    auto g = test::convChain();
    auto t = test::preset("mncore2");
    Schedule s = perOp(*g, t);
    s.blocks[1].tile.extents = ir::Shape{4, 4};
    EXPECT_TRUE(mentions(validate(s, *g, t), "tile 4x4 has 2 dimensions; the block's output has 4"));
}

TEST(Validate, WorkingSetOverCapacity) {
    auto g = test::convChain();
    auto t = test::withWorkingMemory(test::preset("mncore2"), 3072);
    Schedule s = perOp(*g, t);
    s.blocks[0].tile.extents = ir::Shape{1, 4, 8, 8}; // whole: X, W, A and A's second buffer, 3.6 KiB
    s.blocks[0].buffering = 2;
    auto diags = validate(s, *g, t);
    EXPECT_TRUE(mentions(diags, "exceeds working memory 'L2BM' (3.00 KiB)")) << test::joined(diags);
    EXPECT_EQ(firstError(diags)->where.block, "B0");
}

TEST(Validate, NothingFitsATinyWorkingMemory) {
    auto g = test::convChain();
    // Not even one input channel of a conv's 3x3 box with its weights (input-channel slices).
    auto t = test::withWorkingMemory(test::preset("mncore2"), 64);
    Schedule s = perOp(*g, t);
    auto diags = validate(s, *g, t);
    EXPECT_TRUE(mentions(diags, "with any tile: even 1-element tiles need")) << test::joined(diags);
}

// The figure a no-fit error gives is the largest 1-element tile's. A dilated convolution as
// DeepLab's ASPP writes it (dilation 12 on a 14x14 map): a middle output reads one pixel (its
// other taps land in the padding), a corner one the 13x13 box between its two taps per dim.
// Two groups: a grouped convolution is not cut into input-channel slices.
TEST(Validate, NoFitNamesTheLargest1ElementTile) {
    auto m = test::importText(
        "<ir_version: 8, opset_import: [\"\" : 17]>\n"
        "g (float[1, 16, 14, 14] X, float[4, 8, 3, 3] W) => (float[1, 4, 14, 14] Y) {\n"
        "    Y = Conv <dilations = [12, 12], group = 2, pads = [12, 12, 12, 12]> (X, W)\n}\n");
    ASSERT_TRUE(m) << test::joined(m.diagnostics());
    const std::uint64_t capacity = 4096;
    auto t = test::withWorkingMemory(test::preset("mncore2"), capacity);
    auto diags = validate(perOp(*m->graph, t), *m->graph, t);
    const Diagnostic* d = firstError(diags);
    ASSERT_TRUE(d) << test::joined(diags);
    const std::string said = "even 1-element tiles need ";
    const auto at = d->message.find(said);
    ASSERT_NE(at, std::string::npos) << d->message;
    // Over the capacity (the middle tiles alone, under 1 KiB, would fit).
    const double kib = std::stod(d->message.substr(at + said.size()));
    EXPECT_NE(d->message.find("KiB", at), std::string::npos) << d->message;
    EXPECT_GT(kib * 1024, double(capacity)) << d->message;
}

// Tiles small enough to fit would be more than a block may have: said so, not "any tile".
// Two groups: a grouped convolution is not cut into input-channel slices.
TEST(Validate, NoFitUnderTheTileCapSaysSo) {
    auto m = test::importText(
        "<ir_version: 8, opset_import: [\"\" : 17]>\n"
        "g (float[1, 64, 300, 300] X, float[2, 32, 1, 1] W) => (float[1, 2, 300, 300] Y) {\n"
        "    Y = Conv <group = 2> (X, W)\n}\n");
    ASSERT_TRUE(m) << test::joined(m.diagnostics());
    auto t = test::withWorkingMemory(test::preset("mncore2"), 512);
    auto diags = validate(perOp(*m->graph, t), *m->graph, t);
    EXPECT_TRUE(mentions(diags, "with at most 65536 tiles: 1-element tiles need"))
        << test::joined(diags);
    EXPECT_FALSE(mentions(diags, "with any tile")) << test::joined(diags);
}

TEST(Validate, ScheduleForAnotherModel) {
    auto g = test::convChain();
    auto t = test::preset("mncore2");
    Schedule s = perOp(*g, t);
    s.modelHash = test::diamond()->contentHash;
    EXPECT_TRUE(mentions(validate(s, *g, t), "schedule was made for another model"));
}

TEST(Validate, OpNotInTheModel) {
    auto g = test::convChain();
    auto t = test::preset("mncore2");
    Schedule s = perOp(*g, t);
    s.blocks[0].ops.push_back(ir::OpId(999));
    EXPECT_TRUE(mentions(validate(s, *g, t), "block 'B0': op #999 is not in the model"));
}

TEST(Validate, EmptyBlockAndDuplicateId) {
    auto g = test::convChain();
    auto t = test::preset("mncore2");
    Schedule s = perOp(*g, t);
    s.blocks[1].id = s.blocks[0].id;
    s.blocks.push_back(Block{.id = 9});
    auto diags = validate(s, *g, t);
    EXPECT_TRUE(mentions(diags, "block 'B0': block id used twice"));
    EXPECT_TRUE(mentions(diags, "block 'B9': block has no ops"));
}

TEST(Validate, AnalysisShowsFusionCuttingDramTraffic) {
    auto g = test::convChain();
    auto t = test::preset("mncore2");
    auto unfused = checkSchedule(makeSchedule(*g, t, Strategy::PerOp), *g, t);
    auto fused = checkSchedule(makeSchedule(*g, t, Strategy::FuseMax), *g, t);
    ASSERT_TRUE(unfused.valid() && fused.valid());
    // Per-op writes and reads back every intermediate (A, B, C); fused keeps them in SRAM.
    EXPECT_LT(fused.analysis.dramBytes, unfused.analysis.dramBytes);
}

// The same conv with its weight W as an initializer holding `fill` bytes.
std::shared_ptr<const ir::Graph> convWithWeights(char fill, int outChannels = 4) {
    std::string text = R"(
<ir_version: 8, opset_import: ["" : 17]>
g (float[1, 3, 8, 8] X, float[C, 3, 3, 3] W) => (float[1, C, 6, 6] Y) {
    Y = Conv (X, W)
}
)";
    text.replace(text.find("C, 3, 3"), 1, std::to_string(outChannels));
    text.replace(text.find("1, C, 6"), 4, "1, " + std::to_string(outChannels));
    auto proto = test::modelProto(text);
    auto* w = proto.mutable_graph()->add_initializer();
    w->set_name("W");
    w->set_data_type(onnx::TensorProto::FLOAT);
    for (int d : {outChannels, 3, 3, 3}) w->add_dims(d);
    w->set_raw_data(std::string(static_cast<std::size_t>(outChannels) * 27 * 4, fill));
    auto m = test::importProto(proto);
    EXPECT_TRUE(m.ok()) << test::joined(m.diagnostics());
    return m->graph;
}

TEST(Validate, ContentHashCoversStructureNotWeightValues) {
    auto a = convWithWeights('\0');
    EXPECT_EQ(a->contentHash.size(), 32u);
    EXPECT_EQ(a->contentHash, convWithWeights('\1')->contentHash);
    EXPECT_NE(a->contentHash, convWithWeights('\0', 8)->contentHash);
    EXPECT_NE(test::convChain()->contentHash, test::diamond()->contentHash);
}

} // namespace
} // namespace strata::schedule
