// Constant folding through whole import: the shape chains of torchvision's ViT-B/16 and Swin-T
// exports fold away, and a dim that truly depends on input data names that input.

#include "support/TestModels.h"

#include <cstring>
#include <gtest/gtest.h>
#include <set>

namespace strata {
namespace {

using test::importText;

std::vector<std::string> opTypes(const ir::Graph& g) {
    std::vector<std::string> types;
    for (const auto& op : g.ops)
        types.push_back(op.type);
    return types;
}

// ViT's class token: x.expand(N, -1, -1) exports as Expand(token, Where(Equal(shape, Mul(
// ConstantOfShape(rank), -1)), ConstantOfShape(rank), shape)), the shape built from Shape(X).
TEST(ConstantFolding, ViTClassTokenExpandChainFolds) {
    auto m = importText(R"(
<ir_version: 8, opset_import: ["" : 17]>
vit (float[N, 4, 8] X) => (float[N, 5, 8] Y) {
    token = Constant <value = float[1, 1, 8] {1, 2, 3, 4, 5, 6, 7, 8}> ()
    S = Shape (X)
    zero = Constant <value = int64[1] {0}> ()
    B = Gather <axis = 0> (S, zero)
    minusOnes = Constant <value = int64[2] {-1, -1}> ()
    shape = Concat <axis = 0> (B, minusOnes)
    rank = Constant <value = int64[1] {3}> ()
    ones = ConstantOfShape <value = int64[1] {1}> (rank)
    minusOne = Constant <value = int64 {-1}> ()
    M = Mul (ones, minusOne)
    E = Equal (shape, M)
    ones2 = ConstantOfShape <value = int64[1] {1}> (rank)
    W = Where (E, ones2, shape)
    cls = Expand (token, W)
    Y = Concat <axis = 1> (cls, X)
}
)");
    ASSERT_TRUE(m.ok()) << test::joined(m.diagnostics());
    const ir::Graph& g = *m->graph;
    EXPECT_EQ(opTypes(g), (std::vector<std::string>{"Concat"}));
    EXPECT_EQ(g.value(g.outputs[0]).shape, (ir::Shape{1, 5, 8}));
    // The expanded token is a folded constant holding the token's values.
    const ir::Value& cls = g.value(g.ops[0].inputs[0]);
    ASSERT_TRUE(cls.isConstant);
    EXPECT_EQ(cls.shape, (ir::Shape{1, 1, 8}));
    ASSERT_EQ(cls.data.size, 32u);
    float values[8];
    std::memcpy(values, cls.data.data, 32);
    EXPECT_EQ(values[0], 1.f);
    EXPECT_EQ(values[7], 8.f);
}

// Swin's chain: Shape -> Gather -> Cast -> Range -> Slice -> Reshape -> Add -> Shape -> Where
// -> Expand, with every op but the final Expand of the input folded.
TEST(ConstantFolding, SwinRangeWhereExpandChainFolds) {
    auto m = importText(R"(
<ir_version: 8, opset_import: ["" : 17]>
swin (float[N, 1, 4] X) => (float[N, 3, 4] Y) {
    S = Shape (X)
    two = Constant <value = int64 {2}> ()
    D = Gather <axis = 0> (S, two)
    F = Cast <to = 1> (D)
    start = Constant <value = float {0}> ()
    step = Constant <value = float {1}> ()
    R = Range (start, F, step)
    starts = Constant <value = int64[1] {0}> ()
    ends = Constant <value = int64[1] {4}> ()
    Sl = Slice (R, starts, ends)
    rowShape = Constant <value = int64[2] {1, 4}> ()
    Rs = Reshape (Sl, rowShape)
    column = Constant <value = float[3, 1] {0, 10, 20}> ()
    A = Add (Rs, column)
    S2 = Shape (A)
    minusOnes = Constant <value = int64[2] {-1, -1}> ()
    Eq = Equal (S2, minusOnes)
    ones = Constant <value = int64[2] {1, 1}> ()
    W = Where (Eq, ones, S2)
    E = Expand (X, W)
    Y = Add (E, A)
}
)");
    ASSERT_TRUE(m.ok()) << test::joined(m.diagnostics());
    const ir::Graph& g = *m->graph;
    EXPECT_EQ(opTypes(g), (std::vector<std::string>{"Expand", "Add"}));
    EXPECT_EQ(g.value(g.ops[0].outputs[0]).shape, (ir::Shape{1, 3, 4}));
    const ir::Value& shape = g.value(g.ops[0].inputs[1]);
    ASSERT_TRUE(shape.isConstant);
    ASSERT_EQ(shape.data.size, 16u);
    std::int64_t dims[2];
    std::memcpy(dims, shape.data.data, 16);
    EXPECT_EQ(dims[0], 3);
    EXPECT_EQ(dims[1], 4);
    // The folded Range/Slice/Reshape/Add result: row r, column c holds 10 r + c.
    const ir::Value& added = g.value(g.ops[1].inputs[1]);
    ASSERT_TRUE(added.isConstant);
    ASSERT_EQ(added.data.size, 48u);
    float a[12];
    std::memcpy(a, added.data.data, 48);
    EXPECT_EQ(a[0], 0.f);
    EXPECT_EQ(a[3], 3.f);
    EXPECT_EQ(a[11], 23.f);
}

TEST(ConstantFolding, DataDependentShapeNamesTheInput) {
    // X's shape flows into the new shape too, but only through Shape: S's data is what is
    // unknown, and the diagnostic says so.
    auto m = importText(R"(
<ir_version: 8, opset_import: ["" : 17]>
dyn (float[N, 6] X, int64[1] S) => (float[?, ?] Y) {
    shapeX = Shape (X)
    zero = Constant <value = int64[1] {0}> ()
    one = Constant <value = int64[1] {1}> ()
    batch = Slice (shapeX, zero, one)
    two = Constant <value = int64[1] {2}> ()
    cols = Add (S, two)
    shape = Concat <axis = 0> (batch, cols)
    R = Reshape (X, shape)
    Y = Relu (R)
}
)");
    ASSERT_FALSE(m.ok());
    EXPECT_TRUE(test::mentions(m.diagnostics(), "the data of graph input 'S'"))
        << test::joined(m.diagnostics());
    EXPECT_FALSE(test::mentions(m.diagnostics(), "'X'")) << test::joined(m.diagnostics());
    // Each value is reported once, though R is both an op's output and another's input.
    std::set<std::string> values;
    for (const auto& d : m.diagnostics())
        EXPECT_TRUE(values.insert(d.where.value).second) << test::joined(m.diagnostics());
}

TEST(ConstantFolding, OpWithoutKernelStaysAndStillImports) {
    // Det has no reference kernel: the node is kept, its output shape still comes from onnx.
    auto m = importText(R"(
<ir_version: 8, opset_import: ["" : 17]>
det (float[N, 2] X) => (float[N, 2] Y) {
    q = Constant <value = float[2, 2] {1, 2, 3, 4}> ()
    d = Det (q)
    Y = Mul (X, d)
}
)");
    ASSERT_TRUE(m.ok()) << test::joined(m.diagnostics());
    EXPECT_EQ(opTypes(*m->graph), (std::vector<std::string>{"Det", "Mul"}));
}

} // namespace
} // namespace strata

namespace strata {
namespace {

// onnx 1.12 infers only Einsum's rank; MaxViT's attention (capital letters, spaces) and numpy's
// implicit form with "..." still get static shapes, and so does what follows.
TEST(ConstantFolding, EinsumOutputShapesAreInferred) {
    auto m = test::importText(R"(
<ir_version: 8, opset_import: ["" : 17]>
einsum (float[N, 2, 3, 4, 5] Q, float[N, 2, 3, 6, 5] K, float[7, 4, 6] A, float[6, 2] B) => (float[?] Y, float[?] Z) {
    S = Einsum <equation = "B G H I D, B G H J D -> B G H I J"> (Q, K)
    Y = Relu (S)
    P = Einsum <equation = "...ij,jk"> (A, B)
    Z = Sigmoid (P)
}
)");
    ASSERT_TRUE(m.ok()) << test::joined(m.diagnostics());
    const ir::Graph& g = *m->graph;
    EXPECT_EQ(g.value(g.outputs[0]).shape, (ir::Shape{1, 2, 3, 4, 6}));
    EXPECT_EQ(g.value(g.outputs[1]).shape, (ir::Shape{7, 4, 2}));
}

} // namespace
} // namespace strata
