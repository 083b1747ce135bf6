// Which ops move boxes by contiguous runs (emulator::isCopy) and how many runs a compute of one
// copies (emulator::copyRuns), counted by hand as the host runtime merges a move's dims: dims
// both boxes lay out contiguously (row-major over each box) are one run.

#include "emulator/CopyRuns.h"

#include "support/TestModels.h"

#include <gtest/gtest.h>

namespace strata::emulator {
namespace {

using tiling::Region;

std::shared_ptr<const ir::Graph> graphOf(const std::string& body, const std::string& signature) {
    auto m = test::importText("<ir_version: 8, opset_import: [\"\" : 17]>\ng " + signature +
                              " {\n" + body + "\n}\n");
    EXPECT_TRUE(m.ok()) << (m.ok() ? "" : test::joined(m.diagnostics()));
    return m.ok() ? m->graph : nullptr;
}

// The op producing the graph's output, and a compute of it with the given boxes.
const ir::Op& lastOp(const ir::Graph& g) {
    return g.ops.back();
}

compiler::Compute computeOf(const ir::Graph& g, std::vector<Region> inputs, Region output) {
    const ir::Op& op = lastOp(g);
    compiler::Compute c;
    c.opType = op.type;
    for (std::size_t i = 0; i < inputs.size(); ++i)
        c.inputs.push_back({op.inputs[i], inputs[i], 0});
    c.outputs.push_back({op.outputs[0], std::move(output), 0});
    return c;
}

TEST(CopyRuns, BoxMovesAreCopiesGathersAreNot) {
    const auto keep = graphOf("y = Transpose <perm = [0, 2, 1, 3]> (x)",
                              "(float[1, 4, 6, 8] x) => (float[1, 6, 4, 8] y)");
    const auto gather = graphOf("y = Transpose <perm = [0, 2, 3, 1]> (x)",
                                "(float[1, 32, 6, 8] x) => (float[1, 6, 8, 32] y)");
    ASSERT_TRUE(keep && gather);
    EXPECT_TRUE(isCopy(lastOp(*keep), *keep));
    EXPECT_FALSE(isCopy(lastOp(*gather), *gather));
    const char* sig = "(float[4, 10, 12] x) => (float[4, 5, 6] y)";
    const auto rowsStep = graphOf(R"(
        s = Constant <value = int64[3] {0, 0, 0}> ()
        e = Constant <value = int64[3] {4, 10, 12}> ()
        a = Constant <value = int64[3] {0, 1, 2}> ()
        t = Constant <value = int64[3] {1, 2, 2}> ()
        y = Slice (x, s, e, a, t))",
                                  sig);
    const auto lastUnit = graphOf(R"(
        s = Constant <value = int64[2] {0, 0}> ()
        e = Constant <value = int64[2] {10, 6}> ()
        a = Constant <value = int64[2] {1, -1}> ()
        t = Constant <value = int64[2] {2, 1}> ()
        y = Slice (x, s, e, a, t))",
                                  "(float[4, 10, 12] x) => (float[4, 5, 6] y)");
    ASSERT_TRUE(rowsStep && lastUnit);
    // A step along the last dim gathers; one along another dim keeps whole rows.
    EXPECT_FALSE(isCopy(lastOp(*rowsStep), *rowsStep));
    EXPECT_TRUE(isCopy(lastOp(*lastUnit), *lastUnit));
}

TEST(CopyRuns, AChannelSliceIsOneRunWhereTheBoxesHoldWholeRows) {
    const auto g = graphOf(R"(
        s = Constant <value = int64[1] {58}> ()
        e = Constant <value = int64[1] {116}> ()
        a = Constant <value = int64[1] {1}> ()
        y = Slice (x, s, e, a))",
                           "(float[1, 116, 28, 28] x) => (float[1, 58, 28, 28] y)");
    ASSERT_TRUE(g);
    // Whole: 58 planes of 784, contiguous in both.
    EXPECT_EQ(copyRuns(computeOf(*g, {{{0, 1}, {0, 116}, {0, 28}, {0, 28}}},
                                 {{0, 1}, {0, 58}, {0, 28}, {0, 28}}),
                       lastOp(*g), *g),
              1);
    // Rows 0..2 held for every channel: still one run of 58 x 56.
    EXPECT_EQ(copyRuns(computeOf(*g, {{{0, 1}, {0, 116}, {0, 2}, {0, 28}}},
                                 {{0, 1}, {0, 58}, {0, 2}, {0, 28}}),
                       lastOp(*g), *g),
              1);
    // Half the columns of those rows: a run per channel and row, 58 x 2.
    EXPECT_EQ(copyRuns(computeOf(*g, {{{0, 1}, {0, 116}, {0, 2}, {0, 28}}},
                                 {{0, 1}, {0, 58}, {0, 2}, {0, 14}}),
                       lastOp(*g), *g),
              116);
}

TEST(CopyRuns, ATransposeKeepingPlanesCopiesAPlanePerRun) {
    const auto g = graphOf("y = Transpose <perm = [0, 2, 1, 3, 4]> (x)",
                           "(float[1, 2, 58, 7, 7] x) => (float[1, 58, 2, 7, 7] y)");
    ASSERT_TRUE(g);
    EXPECT_EQ(copyRuns(computeOf(*g, {{{0, 1}, {0, 2}, {0, 58}, {0, 7}, {0, 7}}},
                                 {{0, 1}, {0, 58}, {0, 2}, {0, 7}, {0, 7}}),
                       lastOp(*g), *g),
              116);
}

TEST(CopyRuns, AConcatCopiesARunPerInputWhenTheTileHoldsWholePlanesOrRows) {
    const auto g = graphOf("y = Concat <axis = 1> (a, b)",
                           "(float[1, 8, 4, 4] a, float[1, 8, 4, 4] b) => (float[1, 16, 4, 4] y)");
    ASSERT_TRUE(g);
    const Region whole{{0, 1}, {0, 8}, {0, 4}, {0, 4}};
    EXPECT_EQ(
        copyRuns(computeOf(*g, {whole, whole}, {{0, 1}, {0, 16}, {0, 4}, {0, 4}}), lastOp(*g), *g),
        2);
    // Rows 0..2 of each: the boxes hold those rows only, still one run per input.
    const Region rows{{0, 1}, {0, 8}, {0, 2}, {0, 4}};
    EXPECT_EQ(
        copyRuns(computeOf(*g, {rows, rows}, {{0, 1}, {0, 16}, {0, 2}, {0, 4}}), lastOp(*g), *g),
        2);
}

TEST(CopyRuns, AReshapeIsOneRunPerGaplessPieceElseRowByRow) {
    const auto g = graphOf(R"(
        s = Constant <value = int64[5] {1, 2, 58, 7, 7}> ()
        y = Reshape (x, s))",
                           "(float[1, 116, 7, 7] x) => (float[1, 2, 58, 7, 7] y)");
    ASSERT_TRUE(g);
    const Region x{{0, 1}, {0, 116}, {0, 7}, {0, 7}};
    // The second half of the channels: a gapless run.
    EXPECT_EQ(
        copyRuns(computeOf(*g, {x}, {{0, 1}, {1, 2}, {0, 58}, {0, 7}, {0, 7}}), lastOp(*g), *g), 1);
    // Rows 0..2 of every plane: the same factors on both sides, a run of 2 x 7 per plane.
    EXPECT_EQ(
        copyRuns(computeOf(*g, {x}, {{0, 1}, {0, 2}, {0, 58}, {0, 2}, {0, 7}}), lastOp(*g), *g),
        116);
    // Shapes without common factors ([6, 4] as [4, 6]), half of every row: row by row, each row
    // within one of x's rows of 4.
    const auto odd = graphOf(R"(
        s = Constant <value = int64[2] {4, 6}> ()
        y = Reshape (x, s))",
                             "(float[6, 4] x) => (float[4, 6] y)");
    ASSERT_TRUE(odd);
    EXPECT_EQ(copyRuns(computeOf(*odd, {{{0, 6}, {0, 4}}}, {{0, 4}, {0, 3}}), lastOp(*odd), *odd),
              4);
}

TEST(CopyRuns, AReshapeOverCommonFactorsIsARunPerContiguousPiece) {
    // MaxViT's windows back to planes: the first half of each 14 x 14 plane is 98 floats in a row
    // in both: a run per channel.
    const auto g = graphOf(R"(
        s = Constant <value = int64[4] {1, 4, 14, 14}> ()
        y = Reshape (x, s))",
                           "(float[1, 4, 2, 7, 2, 7] x) => (float[1, 4, 14, 14] y)");
    ASSERT_TRUE(g);
    const Region x{{0, 1}, {0, 4}, {0, 2}, {0, 7}, {0, 2}, {0, 7}};
    EXPECT_EQ(copyRuns(computeOf(*g, {x}, {{0, 1}, {0, 4}, {0, 7}, {0, 14}}), lastOp(*g), *g), 4);
    // The whole tensor: one run.
    EXPECT_EQ(copyRuns(computeOf(*g, {x}, {{0, 1}, {0, 4}, {0, 14}, {0, 14}}), lastOp(*g), *g), 1);
}

TEST(CopyRuns, ATransposeGatheringShortRowsCopiesEachElementAsARun) {
    // Rows of 4 gathered across the input: the runtime's box move, one element at a time.
    const auto g = graphOf("y = Transpose <perm = [0, 2, 3, 1]> (x)",
                           "(float[1, 4, 6, 8] x) => (float[1, 6, 8, 4] y)");
    ASSERT_TRUE(g);
    EXPECT_TRUE(isCopy(lastOp(*g), *g));
    EXPECT_EQ(copyRuns(computeOf(*g, {{{0, 1}, {0, 4}, {0, 6}, {0, 8}}},
                                 {{0, 1}, {0, 6}, {0, 8}, {0, 4}}),
                       lastOp(*g), *g),
              192);
}

TEST(CopyRuns, OtherOpsCopyNoRuns) {
    // Rows of 32 gathered across the input: data movement's loop, no runs.
    const auto g = graphOf("y = Transpose <perm = [0, 2, 3, 1]> (x)",
                           "(float[1, 32, 6, 8] x) => (float[1, 6, 8, 32] y)");
    ASSERT_TRUE(g);
    EXPECT_EQ(copyRuns(computeOf(*g, {{{0, 1}, {0, 32}, {0, 6}, {0, 8}}},
                                 {{0, 1}, {0, 6}, {0, 8}, {0, 32}}),
                       lastOp(*g), *g),
              0);
}

} // namespace
} // namespace strata::emulator
