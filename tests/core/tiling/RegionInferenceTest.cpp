// Bounds inference: region helpers, exact intervals per op family, and brute-force checks of
// the sliding-window rules (Conv, pooling, ConvTranspose) over random output regions.

#include "support/TestModels.h"
#include "tiling/Region.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <limits>
#include <random>

namespace strata::tiling {
namespace {

std::shared_ptr<const ir::Graph> graphOf(const std::string& text) {
    auto m = test::importText(text);
    EXPECT_TRUE(m.ok()) << test::joined(m.diagnostics());
    return m.ok() ? m->graph : std::make_shared<ir::Graph>();
}

const ir::Op* findOp(const ir::Graph& g, std::string_view type) {
    auto it =
        std::find_if(g.ops.begin(), g.ops.end(), [&](const ir::Op& op) { return op.type == type; });
    EXPECT_NE(it, g.ops.end()) << "no " << type << " op";
    return it == g.ops.end() ? nullptr : &*it;
}

// Input regions as strings ("none" for nullopt), so failures print readably.
std::vector<std::string> shown(const std::vector<std::optional<Region>>& regions) {
    std::vector<std::string> out;
    for (const auto& r : regions) out.push_back(r ? regionToString(*r) : "none");
    return out;
}

// The input regions of the first op of `type` for output `index` alone.
std::vector<std::string> regionsFor(const ir::Graph& g, std::string_view type, const Region& out,
                                    std::size_t index = 0) {
    const ir::Op* op = findOp(g, type);
    if (!op) return {"no " + std::string(type)};
    std::vector<std::optional<Region>> outputs(op->outputs.size());
    outputs.at(index) = out;
    return shown(inputRegions(g, *op, outputs));
}

using Strings = std::vector<std::string>;

// A one-op model at opset 17 (or `opset`): `signature` is the graph's inputs and outputs.
std::string model(const std::string& signature, const std::string& body, int opset = 17) {
    return "<ir_version: 8, opset_import: [\"\" : " + std::to_string(opset) + "]>\ng " + signature +
           " {\n" + body + "\n}\n";
}

TEST(Region, Helpers) {
    const Region full = fullRegion({2, 3, 4});
    EXPECT_EQ(regionToString(full), "[0,2)x[0,3)x[0,4)");
    EXPECT_EQ(regionElements(full), 24);
    EXPECT_EQ(regionElements({}), 1);
    EXPECT_EQ(regionToString({}), "scalar");
    EXPECT_FALSE(regionEmpty(full));
    EXPECT_TRUE(regionEmpty({{0, 2}, {3, 3}}));
    EXPECT_EQ(regionUnion({{0, 2}, {4, 6}}, {{1, 3}, {0, 1}}), (Region{{0, 3}, {0, 6}}));
    EXPECT_EQ(regionUnion({{0, 2}, {5, 5}}, {{1, 3}, {0, 1}}), (Region{{1, 3}, {0, 1}}));
    EXPECT_TRUE(regionContains(full, {{1, 2}, {0, 3}, {2, 4}}));
    EXPECT_FALSE(regionContains(full, {{1, 3}, {0, 3}, {2, 4}}));
    EXPECT_TRUE(regionContains(full, {{7, 7}, {0, 1}, {0, 1}})); // empty fits anywhere
}

TEST(RegionInference, ConvStridePaddingClampsHaloAtEdges) {
    auto g = graphOf(
        model("(float[1, 3, 16, 16] X, float[8, 3, 3, 3] W, float[8] B) => (float[1, 8, 8, 8] Y)",
              "Y = Conv <pads = [1, 1, 1, 1], strides = [2, 2]> (X, W, B)"));
    // Rows [0,2) read -1..3, clamped to 0; rows [6,8) read 11..15; cols [3,5) read 5..9.
    EXPECT_EQ(regionsFor(*g, "Conv", {{0, 1}, {2, 5}, {0, 2}, {3, 5}}),
              (Strings{"[0,1)x[0,3)x[0,4)x[5,10)", "[2,5)x[0,3)x[0,3)x[0,3)", "[2,5)"}));
    EXPECT_EQ(regionsFor(*g, "Conv", {{0, 1}, {0, 8}, {6, 8}, {0, 8}}),
              (Strings{"[0,1)x[0,3)x[11,16)x[0,16)", "[0,8)x[0,3)x[0,3)x[0,3)", "[0,8)"}));
}

TEST(RegionInference, DilatedConvSkipsPaddedTaps) {
    // Output 7x7. Row 0 taps -1, 1, 3: the first lands in the padding, so row 0 of X is unread.
    auto g = graphOf(
        model("(float[1, 3, 16, 16] X, float[8, 3, 3, 3] W) => (float[1, 8, 7, 7] Y)",
              "Y = Conv <pads = [1, 1, 1, 1], strides = [2, 2], dilations = [2, 2]> (X, W)"));
    EXPECT_EQ(regionsFor(*g, "Conv", {{0, 1}, {0, 8}, {0, 2}, {5, 7}}),
              (Strings{"[0,1)x[0,3)x[1,6)x[9,16)", "[0,8)x[0,3)x[0,3)x[0,3)"}));
}

TEST(RegionInference, ConvSamePaddingFromOutputSize) {
    // SAME_UPPER over 5 with kernel 4: 3 padding, 1 before; SAME_LOWER: 2 before.
    const std::string sig = "(float[1, 1, 5, 5] X, float[1, 1, 4, 4] W) => (float[1, 1, 5, 5] Y)";
    auto upper = graphOf(model(sig, "Y = Conv <auto_pad = \"SAME_UPPER\"> (X, W)"));
    auto lower = graphOf(model(sig, "Y = Conv <auto_pad = \"SAME_LOWER\"> (X, W)"));
    const Region out{{0, 1}, {0, 1}, {0, 1}, {4, 5}};
    EXPECT_EQ(regionsFor(*upper, "Conv", out)[0], "[0,1)x[0,1)x[0,3)x[3,5)");
    EXPECT_EQ(regionsFor(*lower, "Conv", out)[0], "[0,1)x[0,1)x[0,2)x[2,5)");
}

TEST(RegionInference, GroupedConvReadsTheTouchedGroups) {
    // 4 groups of 2 input and 2 output channels: outputs 3..5 are in groups 1 and 2.
    auto g = graphOf(model("(float[1, 8, 5, 5] X, float[8, 2, 1, 1] W) => (float[1, 8, 5, 5] Y)",
                           "Y = Conv <group = 4> (X, W)"));
    EXPECT_EQ(regionsFor(*g, "Conv", {{0, 1}, {3, 6}, {0, 5}, {0, 5}}),
              (Strings{"[0,1)x[2,6)x[0,5)x[0,5)", "[3,6)x[0,2)x[0,1)x[0,1)"}));
}

TEST(RegionInference, DepthwiseConvChannelsPassThrough) {
    auto g = graphOf(model("(float[1, 4, 5, 5] X, float[4, 1, 3, 3] W) => (float[1, 4, 3, 3] Y)",
                           "Y = Conv <group = 4> (X, W)"));
    EXPECT_EQ(regionsFor(*g, "Conv", {{0, 1}, {2, 3}, {1, 2}, {0, 3}}),
              (Strings{"[0,1)x[2,3)x[1,4)x[0,5)", "[2,3)x[0,1)x[0,3)x[0,3)"}));
}

TEST(RegionInference, Pooling) {
    auto g = graphOf(
        model("(float[1, 2, 9, 9] X) => (float[1, 2, 5, 5] Y, float[1, 2, 4, 4] Z, "
              "float[1, 2, 1, 1] G)",
              R"(Y = MaxPool <kernel_shape = [3, 3], strides = [2, 2], pads = [1, 1, 1, 1]> (X)
        Z = AveragePool <kernel_shape = [3, 3], strides = [2, 2], ceil_mode = 1> (X)
        G = GlobalAveragePool (X))"));
    EXPECT_EQ(regionsFor(*g, "MaxPool", {{0, 1}, {1, 2}, {4, 5}, {0, 1}}),
              (Strings{"[0,1)x[1,2)x[7,9)x[0,2)"}));
    // ceil_mode: the last window starts at 6 and runs past the edge.
    EXPECT_EQ(regionsFor(*g, "AveragePool", {{0, 1}, {0, 2}, {3, 4}, {0, 4}}),
              (Strings{"[0,1)x[0,2)x[6,9)x[0,9)"}));
    EXPECT_EQ(regionsFor(*g, "GlobalAveragePool", {{0, 1}, {1, 2}, {0, 1}, {0, 1}}),
              (Strings{"[0,1)x[1,2)x[0,9)x[0,9)"}));
}

TEST(RegionInference, MatMulBatchedWithBroadcast) {
    auto g = graphOf(model("(float[2, 1, 4, 8] A, float[3, 8, 5] B) => (float[2, 3, 4, 5] Y)",
                           "Y = MatMul (A, B)"));
    EXPECT_EQ(regionsFor(*g, "MatMul", {{1, 2}, {0, 2}, {1, 3}, {2, 4}}),
              (Strings{"[1,2)x[0,1)x[1,3)x[0,8)", "[0,2)x[0,8)x[2,4)"}));
}

TEST(RegionInference, MatMulVectorOperands) {
    auto left =
        graphOf(model("(float[8] A, float[2, 8, 5] B) => (float[2, 5] Y)", "Y = MatMul (A, B)"));
    EXPECT_EQ(regionsFor(*left, "MatMul", {{1, 2}, {3, 5}}),
              (Strings{"[0,8)", "[1,2)x[0,8)x[3,5)"}));
    auto right =
        graphOf(model("(float[3, 4, 8] A, float[8] B) => (float[3, 4] Y)", "Y = MatMul (A, B)"));
    EXPECT_EQ(regionsFor(*right, "MatMul", {{0, 1}, {2, 4}}),
              (Strings{"[0,1)x[2,4)x[0,8)", "[0,8)"}));
}

// Einsum as MaxViT's attention writes it (upper-case labels, spaces): free labels follow the
// output, the contracted D (then J) is read whole.
TEST(RegionInference, EinsumAttentionAsMaxVitWritesIt) {
    auto scores = graphOf(
        model("(float[1, 4, 2, 5, 3] Q, float[1, 4, 2, 6, 3] K) => (float[1, 4, 2, 5, 6] S)",
              "S = Einsum <equation = \"B G H I D, B G H J D -> B G H I J\"> (Q, K)"));
    EXPECT_EQ(regionsFor(*scores, "Einsum", {{0, 1}, {1, 3}, {1, 2}, {2, 4}, {0, 6}}),
              (Strings{"[0,1)x[1,3)x[1,2)x[2,4)x[0,3)", "[0,1)x[1,3)x[1,2)x[0,6)x[0,3)"}));
    auto context = graphOf(
        model("(float[1, 4, 2, 5, 6] P, float[1, 4, 2, 6, 3] V) => (float[1, 4, 2, 5, 3] O)",
              "O = Einsum <equation = \"BGHIJ,BGHJD->BGHID\"> (P, V)"));
    EXPECT_EQ(regionsFor(*context, "Einsum", {{0, 1}, {3, 4}, {0, 2}, {0, 5}, {1, 2}}),
              (Strings{"[0,1)x[3,4)x[0,2)x[0,5)x[0,6)", "[0,1)x[3,4)x[0,2)x[0,6)x[1,2)"}));
}

// A transposed output, a label repeated in one operand (its diagonal), the same value as both
// operands, and "..." broadcast against a size-1 dim.
TEST(RegionInference, EinsumTransposeDiagonalRepeatedOperandEllipsis) {
    auto transposed = graphOf(
        model("(float[4, 7] X) => (float[7, 4] Y)", "Y = Einsum <equation = \"ij->ji\"> (X)"));
    EXPECT_EQ(regionsFor(*transposed, "Einsum", {{2, 5}, {1, 3}}), (Strings{"[1,3)x[2,5)"}));
    auto diagonal =
        graphOf(model("(float[6, 6] X) => (float[6] Y)", "Y = Einsum <equation = \"ii->i\"> (X)"));
    EXPECT_EQ(regionsFor(*diagonal, "Einsum", {{2, 4}}), (Strings{"[2,4)x[2,4)"}));
    auto gram = graphOf(model("(float[5, 3] X) => (float[5, 5] Y)",
                              "Y = Einsum <equation = \"ik,jk->ij\"> (X, X)"));
    // One value, two operand slots: rows [1,2) for i, rows [3,5) for j (the tiler unions them).
    EXPECT_EQ(regionsFor(*gram, "Einsum", {{1, 2}, {3, 5}}),
              (Strings{"[1,2)x[0,3)", "[3,5)x[0,3)"}));
    auto batched =
        graphOf(model("(float[2, 1, 4, 8] A, float[1, 3, 8, 5] B) => (float[2, 3, 4, 5] Y)",
                      "Y = Einsum <equation = \"...ik,...kj->...ij\"> (A, B)"));
    EXPECT_EQ(regionsFor(*batched, "Einsum", {{1, 2}, {0, 2}, {1, 3}, {2, 4}}),
              (Strings{"[1,2)x[0,1)x[1,3)x[0,8)", "[0,1)x[0,2)x[0,8)x[2,4)"}));
    auto implicit = graphOf(model("(float[3, 4] A, float[4, 5] B) => (float[3, 5] Y)",
                                  "Y = Einsum <equation = \"ij,jk\"> (A, B)"));
    EXPECT_EQ(regionsFor(*implicit, "Einsum", {{1, 2}, {4, 5}}),
              (Strings{"[1,2)x[0,4)", "[0,4)x[4,5)"}));
}

TEST(RegionInference, GemmTransB) {
    auto g =
        graphOf(model("(float[4, 8] A, float[6, 8] B, float[6] C, float[8, 4] P, float[8, 6] Q, "
                      "float[4, 1] D) => (float[4, 6] Y, float[4, 6] Z)",
                      R"(Y = Gemm <transB = 1> (A, B, C)
        Z = Gemm <transA = 1> (P, Q, D))"));
    EXPECT_EQ(regionsFor(*g, "Gemm", {{1, 3}, {2, 5}}),
              (Strings{"[1,3)x[0,8)", "[2,5)x[0,8)", "[2,5)"}));
    // transA: P is K x M, so output rows pick its columns; D broadcasts along the columns.
    const ir::Op& second = g->ops.at(1);
    EXPECT_EQ(shown(inputRegions(*g, second, {Region{{1, 3}, {2, 5}}})),
              (Strings{"[0,8)x[1,3)", "[0,8)x[2,5)", "[1,3)x[0,1)"}));
}

TEST(RegionInference, BroadcastingElementwise) {
    auto g = graphOf(model("(float[1, 8, 6, 6] X, float[8, 1, 1] B) => (float[1, 8, 6, 6] Y)",
                           R"(S = Add (X, B)
        L = Constant <value = float {0.5}> ()
        Y = Clip (S, L, L))"));
    EXPECT_EQ(regionsFor(*g, "Add", {{0, 1}, {2, 4}, {1, 3}, {0, 6}}),
              (Strings{"[0,1)x[2,4)x[1,3)x[0,6)", "[2,4)x[0,1)x[0,1)"}));
    EXPECT_EQ(regionsFor(*g, "Clip", {{0, 1}, {2, 4}, {1, 3}, {0, 6}}),
              (Strings{"[0,1)x[2,4)x[1,3)x[0,6)", "none", "none"}));
}

// Bounds known only when the model runs are read like any operand; constant ones the compiled
// instruction carries (FoldedOperands.h) are not read at all (above). (A shape known only at run
// time does not import: Strata needs static shapes.)
TEST(RegionInference, OperandsComputedAtRunTimeAreRead) {
    auto g = graphOf(
        model("(float[1, 8, 6, 6] X, float L) => (float[1, 8, 6, 6] Y)", "Y = Clip (X, L, L)"));
    EXPECT_EQ(regionsFor(*g, "Clip", {{0, 1}, {2, 4}, {1, 3}, {0, 6}}),
              (Strings{"[0,1)x[2,4)x[1,3)x[0,6)", "scalar", "scalar"}));
}

TEST(RegionInference, SoftmaxAxisByOpset) {
    const std::string sig = "(float[2, 4, 6] X) => (float[2, 4, 6] Y)";
    const Region out{{0, 1}, {1, 2}, {2, 3}};
    // Opset 13: only the axis is whole.
    auto g13 = graphOf(model(sig, "Y = Softmax <axis = 1> (X)", 13));
    EXPECT_EQ(regionsFor(*g13, "Softmax", out), (Strings{"[0,1)x[0,4)x[2,3)"}));
    auto last = graphOf(model(sig, "Y = LogSoftmax (X)", 13));
    EXPECT_EQ(regionsFor(*last, "LogSoftmax", out), (Strings{"[0,1)x[1,2)x[0,6)"}));
    // Opset 11: the input is coerced to 2-D at the axis (default 1), so all trailing dims are
    // whole.
    auto g11 = graphOf(model(sig, "Y = Softmax <axis = 1> (X)", 11));
    EXPECT_EQ(regionsFor(*g11, "Softmax", out), (Strings{"[0,1)x[0,4)x[0,6)"}));
    auto default11 = graphOf(model(sig, "Y = Softmax (X)", 11));
    EXPECT_EQ(regionsFor(*default11, "Softmax", out), (Strings{"[0,1)x[0,4)x[0,6)"}));
}

TEST(RegionInference, ReductionsKeepDims) {
    auto g = graphOf(model("(float[1, 8, 4, 4] X) => (float[1, 8, 1, 1] Y, float[1, 8] Z)",
                           R"(Y = ReduceMean <axes = [2, 3]> (X)
        Z = ReduceMax <axes = [-1, 2], keepdims = 0> (X))",
                           13));
    EXPECT_EQ(regionsFor(*g, "ReduceMean", {{0, 1}, {2, 5}, {0, 1}, {0, 1}}),
              (Strings{"[0,1)x[2,5)x[0,4)x[0,4)"}));
    EXPECT_EQ(regionsFor(*g, "ReduceMax", {{0, 1}, {2, 5}}), (Strings{"[0,1)x[2,5)x[0,4)x[0,4)"}));
}

TEST(RegionInference, ReductionAxesFromInput) {
    auto g = graphOf(model("(float[2, 3, 4] X) => (float[2, 4] Y, int64[2, 4] I)",
                           R"(A = Constant <value = int64[1] {1}> ()
        Y = ReduceSum <keepdims = 0> (X, A)
        I = ArgMax <axis = 1, keepdims = 0> (X))",
                           13));
    EXPECT_EQ(regionsFor(*g, "ReduceSum", {{1, 2}, {1, 3}}),
              (Strings{"[1,2)x[0,3)x[1,3)", "none"}));
    EXPECT_EQ(regionsFor(*g, "ArgMax", {{1, 2}, {1, 3}}), (Strings{"[1,2)x[0,3)x[1,3)"}));
}

TEST(RegionInference, ReduceAllAndNoop) {
    auto g = graphOf(model("(float[2, 3] X) => (float[1, 1] Y, float[2, 3] Z)",
                           R"(Y = ReduceMax (X)
        E = Constant <value = int64[0] {}> ()
        Z = ReduceSum <noop_with_empty_axes = 1> (X, E))",
                           13));
    EXPECT_EQ(regionsFor(*g, "ReduceMax", {{0, 1}, {0, 1}}), (Strings{"[0,2)x[0,3)"}));
    EXPECT_EQ(regionsFor(*g, "ReduceSum", {{1, 2}, {0, 2}}), (Strings{"[1,2)x[0,2)", "none"}));
}

TEST(RegionInference, Normalizations) {
    auto g = graphOf(
        model("(float[2, 4, 3, 3] X, float[4] S, float[4] B, float[4] M, float[4] V, "
              "float[3, 3] LS) => (float[2, 4, 3, 3] Y, float[2, 4, 3, 3] Z, float[2, 4, 3, 3] L)",
              R"(Y = BatchNormalization (X, S, B, M, V)
        Z = InstanceNormalization (X, S, B)
        L = LayerNormalization <axis = 2> (X, LS))"));
    const Region out{{1, 2}, {1, 3}, {0, 2}, {1, 2}};
    EXPECT_EQ(regionsFor(*g, "BatchNormalization", out),
              (Strings{"[1,2)x[1,3)x[0,2)x[1,2)", "[1,3)", "[1,3)", "[1,3)", "[1,3)"}));
    EXPECT_EQ(regionsFor(*g, "InstanceNormalization", out),
              (Strings{"[1,2)x[1,3)x[0,3)x[0,3)", "[1,3)", "[1,3)"}));
    EXPECT_EQ(regionsFor(*g, "LayerNormalization", out),
              (Strings{"[1,2)x[1,3)x[0,3)x[0,3)", "[0,2)x[1,2)"}));
}

TEST(RegionInference, NormalizationStatistics) {
    auto g = graphOf(
        model("(float[2, 4, 3] X, float[3] S, float[4] C, float[4] B, float[4] M, float[4] V) => "
              "(float[2, 4, 1] Mean, float[2, 4, 3] Y, float[4] RM, float[4] RV)",
              R"(L, Mean = LayerNormalization (X, S)
        Y, RM, RV = BatchNormalization <training_mode = 1> (X, C, B, M, V))",
              17));
    // LayerNormalization's Mean reads whole rows of X and no scale.
    EXPECT_EQ(regionsFor(*g, "LayerNormalization", {{1, 2}, {0, 2}, {0, 1}}, 1),
              (Strings{"[1,2)x[0,2)x[0,3)", "none"}));
    // Training normalizes with batch statistics: everything.
    EXPECT_EQ(regionsFor(*g, "BatchNormalization", {{0, 1}, {0, 1}, {0, 1}}),
              (Strings{"[0,2)x[0,4)x[0,3)", "[0,4)", "[0,4)", "[0,4)", "[0,4)"}));
}

// A one-op graph built directly in the IR, for opset 18+ ops that the onnx checker in use
// (1.12) does not know yet.
ir::Graph oneOpGraph(const std::string& type, std::vector<ir::Attribute> attributes,
                     const std::vector<ir::Shape>& inputs, const ir::Shape& output,
                     std::int64_t opset) {
    ir::Graph g;
    g.opsetVersion = opset;
    ir::Op op;
    op.name = "op";
    op.type = type;
    op.attributes = std::move(attributes);
    for (std::size_t i = 0; i <= inputs.size(); ++i) {
        ir::Value v;
        v.name = "v" + std::to_string(i);
        v.dtype = ir::DType::Float32;
        v.shape = i < inputs.size() ? inputs[i] : output;
        g.values.push_back(v);
        auto id = ir::ValueId(static_cast<std::uint32_t>(i));
        if (i < inputs.size())
            op.inputs.push_back(id);
        else
            op.outputs.push_back(id);
    }
    g.ops.push_back(op);
    g.finalize();
    return g;
}

TEST(RegionInference, GroupNormalizationReadsWholeGroups) {
    // Three groups of two channels: channels 1..2 touch groups 0 and 1.
    const Region out{{0, 1}, {1, 3}, {0, 2}, {0, 4}};
    const ir::Graph perGroup = oneOpGraph("GroupNormalization", {{"num_groups", std::int64_t{3}}},
                                          {{1, 6, 4, 4}, {3}, {3}}, {1, 6, 4, 4}, 18);
    EXPECT_EQ(shown(inputRegions(perGroup, perGroup.ops[0], {out})),
              (Strings{"[0,1)x[0,4)x[0,4)x[0,4)", "[0,2)", "[0,2)"}));
    const ir::Graph perChannel = oneOpGraph("GroupNormalization", {{"num_groups", std::int64_t{3}}},
                                            {{1, 6, 4, 4}, {6}, {6}}, {1, 6, 4, 4}, 21);
    EXPECT_EQ(shown(inputRegions(perChannel, perChannel.ops[0], {out})),
              (Strings{"[0,1)x[0,4)x[0,4)x[0,4)", "[1,3)", "[1,3)"}));
}

TEST(RegionInference, Transpose) {
    auto g = graphOf(model("(float[1, 4, 6, 8] X) => (float[1, 6, 8, 4] Y)",
                           "Y = Transpose <perm = [0, 2, 3, 1]> (X)"));
    EXPECT_EQ(regionsFor(*g, "Transpose", {{0, 1}, {1, 3}, {2, 5}, {0, 2}}),
              (Strings{"[0,1)x[0,2)x[1,3)x[2,5)"}));
}

TEST(RegionInference, ReshapeMapsTheCommonPrefix) {
    auto g =
        graphOf(model("(float[2, 3, 4] X, float[1, 12, 64] P, float[4, 6] Q) => (float[2, 12] F, "
                      "float[2, 3, 2, 2] R, float[12, 64, 1] S, float[6, 4] T)",
                      R"(F = Flatten <axis = 1> (X)
        RS = Constant <value = int64[4] {2, 3, 2, 2}> ()
        R = Reshape (X, RS)
        SS = Constant <value = int64[3] {12, 64, 1}> ()
        S = Reshape (P, SS)
        TS = Constant <value = int64[2] {6, 4}> ()
        T = Reshape (Q, TS))"));
    // Flatten merges dims 1 and 2: the batch maps, and positions 3..5 of the merged dim run
    // from row 0 (column 3) into row 1 (column 1), so rows 0-1 are read whole.
    EXPECT_EQ(regionsFor(*g, "Flatten", {{1, 2}, {3, 6}}), (Strings{"[1,2)x[0,2)x[0,4)"}));
    EXPECT_EQ(regionsFor(*g, "Flatten", {{0, 1}, {4, 6}}), (Strings{"[0,1)x[1,2)x[0,2)"}));
    const auto& reshapes = g->ops;
    auto regionsOf = [&](std::size_t opIndex, const Region& out) {
        std::vector<std::optional<Region>> outputs{out};
        return shown(inputRegions(*g, reshapes.at(opIndex), outputs));
    };
    // Splitting the last dim: the first two of its four elements.
    EXPECT_EQ(regionsOf(1, {{0, 1}, {1, 2}, {0, 1}, {0, 2}}),
              (Strings{"[0,1)x[1,2)x[0,2)", "none"}));
    // Size-1 dims move freely in row-major order.
    EXPECT_EQ(regionsOf(2, {{2, 4}, {5, 9}, {0, 1}}), (Strings{"[0,1)x[2,4)x[5,9)", "none"}));
    // Nothing in common: one element reads one element; a row of T spans two rows of Q.
    EXPECT_EQ(regionsOf(3, {{0, 1}, {0, 1}}), (Strings{"[0,1)x[0,1)", "none"}));
    EXPECT_EQ(regionsOf(3, {{1, 2}, {0, 4}}), (Strings{"[0,2)x[0,6)", "none"}));
}

TEST(RegionInference, SqueezeAndUnsqueeze) {
    auto g = graphOf(model("(float[3, 4] X, float[1, 5, 1] Z) => (float[1, 3, 4] Y, float[5] W)",
                           R"(A = Constant <value = int64[1] {0}> ()
        Y = Unsqueeze (X, A)
        W = Squeeze (Z))"));
    EXPECT_EQ(regionsFor(*g, "Unsqueeze", {{0, 1}, {1, 2}, {0, 2}}),
              (Strings{"[1,2)x[0,2)", "none"}));
    EXPECT_EQ(regionsFor(*g, "Squeeze", {{2, 4}}), (Strings{"[0,1)x[2,4)x[0,1)"}));
}

TEST(RegionInference, ConcatSplitsTheIntervalAcrossInputs) {
    auto g = graphOf(
        model("(float[1, 2, 4] A, float[1, 3, 4] B, float[1, 1, 4] C) => (float[1, 6, 4] Y)",
              "Y = Concat <axis = 1> (A, B, C)"));
    EXPECT_EQ(regionsFor(*g, "Concat", {{0, 1}, {1, 4}, {0, 4}}),
              (Strings{"[0,1)x[1,2)x[0,4)", "[0,1)x[0,2)x[0,4)", "none"}));
    EXPECT_EQ(regionsFor(*g, "Concat", {{0, 1}, {5, 6}, {1, 2}}),
              (Strings{"none", "none", "[0,1)x[0,1)x[1,2)"}));
}

TEST(RegionInference, SplitOffsetsEachOutput) {
    auto g = graphOf(model("(float[1, 6, 4] X) => (float[1, 2, 4] A, float[1, 4, 4] B)",
                           R"(S = Constant <value = int64[2] {2, 4}> ()
        A, B = Split <axis = 1> (X, S))"));
    EXPECT_EQ(regionsFor(*g, "Split", {{0, 1}, {1, 3}, {0, 4}}, 1),
              (Strings{"[0,1)x[3,5)x[0,4)", "none"}));
    // Both outputs requested: the union of what each reads.
    ASSERT_FALSE(g->ops.empty());
    const ir::Op& split = g->ops.front();
    EXPECT_EQ(shown(inputRegions(*g, split,
                                 {Region{{0, 1}, {1, 2}, {0, 1}}, Region{{0, 1}, {0, 1}, {2, 3}}})),
              (Strings{"[0,1)x[1,3)x[0,3)", "none"}));
}

TEST(RegionInference, SplitEvenly) {
    auto g = graphOf(model("(float[6, 2] X) => (float[2, 2] A, float[2, 2] B, float[2, 2] C)",
                           "A, B, C = Split <axis = 0> (X)"));
    EXPECT_EQ(regionsFor(*g, "Split", {{1, 2}, {0, 2}}, 2), (Strings{"[5,6)x[0,2)"}));
}

TEST(RegionInference, SliceWithSteps) {
    // Axis 0: 1, 3, 5, 7. Axis 1 backwards from the last: 7, 5, 3, 1.
    auto g = graphOf(model("(float[10, 8] X) => (float[4, 4] Y)",
                           R"(S = Constant <value = int64[2] {1, -1}> ()
        E = Constant <value = int64[2] {9, -9223372036854775807}> ()
        A = Constant <value = int64[2] {0, 1}> ()
        T = Constant <value = int64[2] {2, -2}> ()
        Y = Slice (X, S, E, A, T))"));
    EXPECT_EQ(regionsFor(*g, "Slice", {{1, 3}, {1, 3}}),
              (Strings{"[3,6)x[3,6)", "none", "none", "none", "none"}));
    EXPECT_EQ(regionsFor(*g, "Slice", {{3, 4}, {0, 1}})[0], "[7,8)x[7,8)");
}

TEST(RegionInference, SliceClampsStarts) {
    auto g = graphOf(model("(float[10, 8] X) => (float[10, 3] Y)",
                           R"(S = Constant <value = int64[1] {-3}> ()
        E = Constant <value = int64[1] {100}> ()
        A = Constant <value = int64[1] {-1}> ()
        Y = Slice (X, S, E, A))"));
    EXPECT_EQ(regionsFor(*g, "Slice", {{2, 5}, {1, 3}})[0], "[2,5)x[6,8)");
}

TEST(RegionInference, PadShiftsAndClamps) {
    auto g = graphOf(model("(float[1, 2, 4, 4] X) => (float[1, 2, 6, 8] Y, float[1, 2, 6, 8] R)",
                           R"(P = Constant <value = int64[8] {0, 0, 1, 2, 0, 0, 1, 2}> ()
        Y = Pad (X, P)
        R = Pad <mode = "reflect"> (X, P))"));
    EXPECT_EQ(regionsFor(*g, "Pad", {{0, 1}, {1, 2}, {0, 3}, {1, 4}}),
              (Strings{"[0,1)x[1,2)x[0,2)x[0,2)", "none"}));
    // A tile inside the padding reads no data.
    EXPECT_EQ(regionsFor(*g, "Pad", {{0, 1}, {0, 2}, {0, 1}, {0, 8}}), (Strings{"none", "none"}));
    const ir::Op& reflect = g->ops.at(1);
    EXPECT_EQ(
        shown(inputRegions(*g, reflect, {std::nullopt, Region{{0, 1}, {1, 2}, {0, 1}, {0, 1}}}))[0],
        "none"); // R is the op's only output; Y belongs to the other Pad
    EXPECT_EQ(shown(inputRegions(*g, reflect, {Region{{0, 1}, {1, 2}, {0, 1}, {0, 1}}}))[0],
              "[0,1)x[1,2)x[0,4)x[0,4)");
}

TEST(RegionInference, GatherConstantAndRuntimeIndices) {
    auto g = graphOf(model("(float[10, 4] D, float[2, 5, 6] E, int64[3] J) => (float[1, 2, 4] Y, "
                           "float[2, 3, 6] Z)",
                           R"(I = Constant <value = int64[1, 2] {3, -2}> ()
        Y = Gather (D, I)
        Z = Gather <axis = 1> (E, J))"));
    // Indices 3 and -2 (= 8): only rows 3..8 of D.
    EXPECT_EQ(regionsFor(*g, "Gather", {{0, 1}, {0, 2}, {1, 3}}),
              (Strings{"[3,9)x[1,3)", "[0,1)x[0,2)"}));
    EXPECT_EQ(regionsFor(*g, "Gather", {{0, 1}, {1, 2}, {0, 4}}),
              (Strings{"[8,9)x[0,4)", "[0,1)x[1,2)"}));
    ASSERT_EQ(g->ops.size(), 2u);
    const ir::Op& runtime = g->ops.back();
    EXPECT_EQ(shown(inputRegions(*g, runtime, {Region{{1, 2}, {0, 2}, {2, 4}}})),
              (Strings{"[1,2)x[0,5)x[2,4)", "[0,2)"}));
}

TEST(RegionInference, ExpandAndTile) {
    auto g = graphOf(model("(float[3, 1] X, float[2, 3] T) => (float[2, 3, 4] Y, float[4, 9] Z)",
                           R"(S = Constant <value = int64[3] {2, 3, 4}> ()
        Y = Expand (X, S)
        R = Constant <value = int64[2] {2, 3}> ()
        Z = Tile (T, R))"));
    EXPECT_EQ(regionsFor(*g, "Expand", {{1, 2}, {1, 3}, {2, 4}}), (Strings{"[1,3)x[0,1)", "none"}));
    EXPECT_EQ(regionsFor(*g, "Tile", {{2, 3}, {4, 6}}), (Strings{"[0,1)x[1,3)", "[0,2)"}));
    EXPECT_EQ(regionsFor(*g, "Tile", {{1, 3}, {2, 4}}), (Strings{"[0,2)x[0,3)", "[0,2)"}));
}

// A scaled dim maps through the coordinate transform (half_pixel: output 2 reads around input
// 0.75, output 0 around -0.25), with a tap of slack each side, clamped to the input.
TEST(RegionInference, ResizeScaledDimsMapThroughTheTransform) {
    auto g = graphOf(model("(float[1, 3, 4, 4] X) => (float[1, 3, 8, 8] Y)",
                           R"(S = Constant <value = float[4] {1.0, 1.0, 2.0, 2.0}> ()
        Y = Resize <mode = "nearest"> (X, , S))"));
    EXPECT_EQ(regionsFor(*g, "Resize", {{0, 1}, {1, 2}, {2, 3}, {0, 1}})[0],
              "[0,1)x[1,2)x[0,3)x[0,2)");
    auto big = graphOf(model("(float[1, 2, 64, 64] X) => (float[1, 2, 512, 512] Y)",
                             R"(S = Constant <value = float[4] {1.0, 1.0, 8.0, 8.0}> ()
        Y = Resize <mode = "linear"> (X, , S))"));
    EXPECT_EQ(regionsFor(*big, "Resize", {{0, 1}, {0, 2}, {256, 320}, {0, 512}})[0],
              "[0,1)x[0,2)x[30,42)x[0,64)");
}

TEST(RegionInference, UnknownOpsReadEverything) {
    auto g = graphOf(model("(float[4, 5] X) => (float[4, 5] Y)",
                           R"(A = Constant <value = int64 {1}> ()
        Y = CumSum (X, A))"));
    EXPECT_EQ(regionsFor(*g, "CumSum", {{1, 2}, {0, 1}}), (Strings{"[0,4)x[0,5)", "scalar"}));
}

TEST(RegionInference, NothingRequestedReadsNothing) {
    auto g = graphOf(model("(float[4, 5] X, float[4, 5] Z) => (float[4, 5] Y)", "Y = Add (X, Z)"));
    ASSERT_FALSE(g->ops.empty());
    const ir::Op& add = g->ops.front();
    EXPECT_EQ(shown(inputRegions(*g, add, {std::nullopt})), (Strings{"none", "none"}));
    EXPECT_EQ(shown(inputRegions(*g, add, {Region{{1, 1}, {0, 5}}})), (Strings{"none", "none"}));
    // Regions past the shape are clamped first.
    EXPECT_EQ(shown(inputRegions(*g, add, {Region{{-2, 2}, {3, 9}}})),
              (Strings{"[0,2)x[3,5)", "[0,2)x[3,5)"}));
}

// --- brute force: the bounding box of what every output element of a random region reads ---

struct Box {
    std::vector<std::int64_t> lo, hi;
    explicit Box(std::size_t rank)
        : lo(rank, std::numeric_limits<std::int64_t>::max()),
          hi(rank, std::numeric_limits<std::int64_t>::min()) {}
    void add(const std::vector<std::int64_t>& p) {
        for (std::size_t d = 0; d < p.size(); ++d) {
            lo[d] = std::min(lo[d], p[d]);
            hi[d] = std::max(hi[d], p[d]);
        }
    }
    std::string shown() const {
        if (lo.empty() || lo[0] > hi[0]) return "none";
        Region r;
        for (std::size_t d = 0; d < lo.size(); ++d) r.push_back({lo[d], hi[d] + 1});
        return regionToString(r);
    }
};

Region randomRegion(const ir::Shape& shape, std::mt19937& rng) {
    Region r;
    for (std::int64_t size : shape) {
        std::uniform_int_distribution<std::int64_t> pick(0, size - 1);
        std::int64_t a = pick(rng), b = pick(rng);
        r.push_back({std::min(a, b), std::max(a, b) + 1});
    }
    return r;
}

std::int64_t draw(std::mt19937& rng, std::int64_t lo, std::int64_t hi) {
    return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng);
}

std::string ints(const std::vector<std::int64_t>& v) {
    std::string s = "[";
    for (std::size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
    return s + "]";
}

// A random 2-D window: kernel, strides, dilations, pads per spatial dim, and an input size
// large enough for at least one output.
struct RandomWindow {
    std::vector<std::int64_t> kernel, strides, dilations, pads;
    std::vector<std::int64_t> inSize;
    std::string autoPad = "NOTSET";

    explicit RandomWindow(std::mt19937& rng) {
        for (int i = 0; i < 2; ++i) {
            kernel.push_back(draw(rng, 1, 4));
            strides.push_back(draw(rng, 1, 3));
            dilations.push_back(draw(rng, 1, 3));
            inSize.push_back(draw(rng, (kernel[i] - 1) * dilations[i] + 1, 11));
        }
        for (int i = 0; i < 4; ++i) pads.push_back(draw(rng, 0, 3));
        const char* modes[] = {"NOTSET", "NOTSET", "SAME_UPPER", "SAME_LOWER", "VALID"};
        autoPad = modes[draw(rng, 0, 4)];
    }
    std::string attributes() const {
        std::string a = "kernel_shape = " + ints(kernel) + ", strides = " + ints(strides) +
                        ", dilations = " + ints(dilations);
        return autoPad == "NOTSET" ? a + ", pads = " + ints(pads)
                                   : a + ", auto_pad = \"" + autoPad + "\"";
    }
    // The leading pad as ONNX defines it, for an output of `out` positions along dim i.
    std::int64_t padBegin(std::size_t i, std::int64_t out) const {
        const std::int64_t total = std::max<std::int64_t>(
            0, (out - 1) * strides[i] + (kernel[i] - 1) * dilations[i] + 1 - inSize[i]);
        if (autoPad == "SAME_UPPER") return total / 2;
        if (autoPad == "SAME_LOWER") return total - total / 2;
        if (autoPad == "VALID") return 0;
        return pads[i];
    }
};

TEST(RegionInferenceProperty, ConvMatchesBruteForce) {
    std::mt19937 rng(1234);
    for (int config = 0; config < 40; ++config) {
        const RandomWindow w(rng);
        const std::int64_t group = draw(rng, 1, 2), inPerGroup = draw(rng, 1, 2),
                           outPerGroup = draw(rng, 1, 2);
        const std::int64_t c = group * inPerGroup, m = group * outPerGroup;
        auto g = graphOf(model(
            "(float[2, " + std::to_string(c) + ", " + std::to_string(w.inSize[0]) + ", " +
                std::to_string(w.inSize[1]) + "] X, float[" + std::to_string(m) + ", " +
                std::to_string(inPerGroup) + ", " + std::to_string(w.kernel[0]) + ", " +
                std::to_string(w.kernel[1]) + "] W) => (float Y)",
            "Y = Conv <" + w.attributes() + ", group = " + std::to_string(group) + "> (X, W)"));
        ASSERT_FALSE(g->ops.empty());
        const ir::Op& conv = g->ops.front();
        const ir::Shape& y = g->value(conv.outputs[0]).shape;
        const std::int64_t pad[2] = {w.padBegin(0, y[2]), w.padBegin(1, y[3])};
        for (int trial = 0; trial < 12; ++trial) {
            const Region out = randomRegion(y, rng);
            Box box(4);
            for (std::int64_t n = out[0].begin; n < out[0].end; ++n)
                for (std::int64_t oc = out[1].begin; oc < out[1].end; ++oc)
                    for (std::int64_t ic = oc / outPerGroup * inPerGroup;
                         ic < (oc / outPerGroup + 1) * inPerGroup; ++ic)
                        for (std::int64_t oh = out[2].begin; oh < out[2].end; ++oh)
                            for (std::int64_t ow = out[3].begin; ow < out[3].end; ++ow)
                                for (std::int64_t th = 0; th < w.kernel[0]; ++th)
                                    for (std::int64_t tw = 0; tw < w.kernel[1]; ++tw) {
                                        const std::int64_t ih =
                                            oh * w.strides[0] - pad[0] + th * w.dilations[0];
                                        const std::int64_t iw =
                                            ow * w.strides[1] - pad[1] + tw * w.dilations[1];
                                        if (ih >= 0 && ih < w.inSize[0] && iw >= 0 &&
                                            iw < w.inSize[1])
                                            box.add({n, ic, ih, iw});
                                    }
            EXPECT_EQ(shown(inputRegions(*g, conv, {out}))[0], box.shown())
                << w.attributes() << " group " << group << " out " << regionToString(out);
        }
    }
}

TEST(RegionInferenceProperty, MaxPoolMatchesBruteForce) {
    std::mt19937 rng(99);
    for (int config = 0; config < 40; ++config) {
        const RandomWindow w(rng);
        // ONNX requires pads smaller than the kernel for pooling.
        RandomWindow fitted = w;
        for (int i = 0; i < 4; ++i) fitted.pads[i] = std::min(w.pads[i], w.kernel[i % 2] - 1);
        const std::int64_t ceil = draw(rng, 0, 1);
        auto g = graphOf(model("(float[1, 3, " + std::to_string(w.inSize[0]) + ", " +
                                   std::to_string(w.inSize[1]) + "] X) => (float Y)",
                               "Y = MaxPool <" + fitted.attributes() +
                                   ", ceil_mode = " + std::to_string(ceil) + "> (X)"));
        ASSERT_FALSE(g->ops.empty());
        const ir::Op& pool = g->ops.front();
        const ir::Shape& y = g->value(pool.outputs[0]).shape;
        const std::int64_t pad[2] = {fitted.padBegin(0, y[2]), fitted.padBegin(1, y[3])};
        for (int trial = 0; trial < 12; ++trial) {
            const Region out = randomRegion(y, rng);
            Box box(4);
            for (std::int64_t oh = out[2].begin; oh < out[2].end; ++oh)
                for (std::int64_t ow = out[3].begin; ow < out[3].end; ++ow)
                    for (std::int64_t th = 0; th < w.kernel[0]; ++th)
                        for (std::int64_t tw = 0; tw < w.kernel[1]; ++tw) {
                            const std::int64_t ih =
                                oh * w.strides[0] - pad[0] + th * w.dilations[0];
                            const std::int64_t iw =
                                ow * w.strides[1] - pad[1] + tw * w.dilations[1];
                            if (ih >= 0 && ih < w.inSize[0] && iw >= 0 && iw < w.inSize[1]) {
                                box.add({out[0].begin, out[1].begin, ih, iw});
                                box.add({out[0].end - 1, out[1].end - 1, ih, iw});
                            }
                        }
            EXPECT_EQ(shown(inputRegions(*g, pool, {out}))[0], box.shown())
                << fitted.attributes() << " ceil " << ceil << " out " << regionToString(out);
        }
    }
}

TEST(RegionInferenceProperty, ConvTransposeMatchesBruteForce) {
    std::mt19937 rng(7);
    for (int config = 0; config < 40; ++config) {
        std::vector<std::int64_t> kernel, strides, dilations, outPad, inSize, pads(4);
        for (int i = 0; i < 2; ++i) {
            kernel.push_back(draw(rng, 1, 4));
            strides.push_back(draw(rng, 1, 3));
            dilations.push_back(draw(rng, 1, 2));
            outPad.push_back(draw(rng, 0, strides[i] - 1));
            inSize.push_back(draw(rng, 1, 6));
            // Keep at least one output: pads may not eat the whole scattered extent.
            const std::int64_t extent =
                strides[i] * (inSize[i] - 1) + outPad[i] + (kernel[i] - 1) * dilations[i] + 1;
            pads[i] = draw(rng, 0, std::min<std::int64_t>(2, (extent - 1) / 2));
            pads[i + 2] = draw(rng, 0, std::min<std::int64_t>(2, (extent - 1) / 2));
        }
        const std::int64_t group = draw(rng, 1, 2), inPerGroup = draw(rng, 1, 2),
                           outPerGroup = draw(rng, 1, 2);
        const std::int64_t c = group * inPerGroup;
        auto g = graphOf(model(
            "(float[1, " + std::to_string(c) + ", " + std::to_string(inSize[0]) + ", " +
                std::to_string(inSize[1]) + "] X, float[" + std::to_string(c) + ", " +
                std::to_string(outPerGroup) + ", " + std::to_string(kernel[0]) + ", " +
                std::to_string(kernel[1]) + "] W) => (float Y)",
            "Y = ConvTranspose <strides = " + ints(strides) + ", dilations = " + ints(dilations) +
                ", pads = " + ints(pads) + ", output_padding = " + ints(outPad) +
                ", group = " + std::to_string(group) + "> (X, W)"));
        ASSERT_FALSE(g->ops.empty());
        const ir::Op& deconv = g->ops.front();
        const ir::Shape& y = g->value(deconv.outputs[0]).shape;
        for (int trial = 0; trial < 12; ++trial) {
            const Region out = randomRegion(y, rng);
            Box box(4);
            // Scatter every input element through every tap; keep those landing in `out`.
            for (std::int64_t ic = 0; ic < c; ++ic)
                for (std::int64_t k = 0; k < outPerGroup; ++k) {
                    const std::int64_t oc = ic / inPerGroup * outPerGroup + k;
                    if (oc < out[1].begin || oc >= out[1].end) continue;
                    for (std::int64_t ih = 0; ih < inSize[0]; ++ih)
                        for (std::int64_t iw = 0; iw < inSize[1]; ++iw)
                            for (std::int64_t th = 0; th < kernel[0]; ++th)
                                for (std::int64_t tw = 0; tw < kernel[1]; ++tw) {
                                    const std::int64_t oh =
                                        ih * strides[0] - pads[0] + th * dilations[0];
                                    const std::int64_t ow =
                                        iw * strides[1] - pads[1] + tw * dilations[1];
                                    if (oh >= out[2].begin && oh < out[2].end &&
                                        ow >= out[3].begin && ow < out[3].end)
                                        box.add({0, ic, ih, iw});
                                }
                }
            EXPECT_EQ(shown(inputRegions(*g, deconv, {out}))[0], box.shown())
                << "strides " << ints(strides) << " dilations " << ints(dilations) << " pads "
                << ints(pads) << " out " << regionToString(out);
        }
    }
}

} // namespace
} // namespace strata::tiling
