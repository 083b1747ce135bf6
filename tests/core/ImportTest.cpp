// Import of well-formed models: shapes, folding, alias removal, costs.

#include "support/TestModels.h"

#include <gtest/gtest.h>

#include <cstring>

namespace strata {
namespace {

using test::importText;

const char* kConvModel = R"(
<ir_version: 8, opset_import: ["" : 17]>
convnet (float[N, 3, 8, 8] X, float[4, 3, 3, 3] W) => (float[N, 4, 4, 4] Y) {
    C = Conv <pads = [1, 1, 1, 1], strides = [2, 2]> (X, W)
    Y = Relu (C)
}
)";

// kConvModel with its weight W turned into an initializer (text syntax lists it as an input).
Expected<model::ImportedModel> importConvModel(const model::ImportOptions& options = {}) {
    auto proto = test::modelProto(kConvModel);
    auto* w = proto.mutable_graph()->add_initializer();
    w->set_name("W");
    w->set_data_type(onnx::TensorProto::FLOAT);
    for (int d : {4, 3, 3, 3}) w->add_dims(d);
    w->set_raw_data(std::string(108 * 4, '\0'));
    return test::importProto(proto, options);
}

TEST(Import, ConvChainShapesAndCosts) {
    auto m = importConvModel();
    ASSERT_TRUE(m.ok()) << test::joined(m.diagnostics());
    const ir::Graph& g = *m->graph;
    ASSERT_EQ(g.ops.size(), 2u);
    EXPECT_EQ(g.ops[0].type, "Conv");
    EXPECT_EQ(g.ops[0].opClass, ir::OpClass::Conv);
    const ir::Value& c = g.value(g.ops[0].outputs[0]);
    EXPECT_EQ(c.shape, (ir::Shape{1, 4, 4, 4}));
    // 2 x MACs: 64 outputs x (3 channels x 3 x 3) MACs each.
    EXPECT_DOUBLE_EQ(g.ops[0].cost.flops, 2.0 * 64 * 27);
    EXPECT_EQ(g.ops[0].cost.parameters, 4u * 27);
    EXPECT_EQ(g.ops[0].cost.bytesRead, (3u * 64 + 4 * 27) * 4);
    EXPECT_EQ(g.ops[0].cost.bytesWritten, 64u * 4);
    EXPECT_DOUBLE_EQ(g.ops[1].cost.flops, 64.0); // one per output element
    ASSERT_EQ(g.inputs.size(), 1u);              // the initializer W is not a graph input
    EXPECT_EQ(g.value(g.inputs[0]).shape, (ir::Shape{1, 3, 8, 8}));
    EXPECT_EQ(g.parameterCount, 108u);
    EXPECT_TRUE(test::mentions(m->warnings, "dynamic batch dim 'N' set to 1"));
}

TEST(Import, InputShapeOverride) {
    model::ImportOptions options;
    options.inputShapes["X"] = {2, 3, 16, 16};
    auto m = importConvModel(options);
    ASSERT_TRUE(m.ok()) << test::joined(m.diagnostics());
    const ir::Graph& g = *m->graph;
    EXPECT_EQ(g.value(g.outputs[0]).shape, (ir::Shape{2, 4, 8, 8}));
    EXPECT_DOUBLE_EQ(g.ops[0].cost.flops, 2.0 * (2 * 4 * 8 * 8) * 27);
}

TEST(Import, FoldsShapeSubgraphFeedingReshape) {
    auto m = importText(R"(
<ir_version: 8, opset_import: ["" : 17]>
flatten (float[N, 3, 4, 4] X) => (float[N, 48] Y) {
    R = Relu (X)
    S = Shape (R)
    I = Constant <value = int64 {0}> ()
    B = Gather <axis = 0> (S, I)
    A = Constant <value = int64[1] {0}> ()
    U = Unsqueeze (B, A)
    M = Constant <value = int64[1] {-1}> ()
    T = Concat <axis = 0> (U, M)
    F = Reshape (R, T)
    Y = Sigmoid (F)
}
)");
    ASSERT_TRUE(m.ok()) << test::joined(m.diagnostics());
    const ir::Graph& g = *m->graph;
    std::vector<std::string> types;
    for (const auto& op : g.ops) types.push_back(op.type);
    EXPECT_EQ(types, (std::vector<std::string>{"Relu", "Reshape", "Sigmoid"}));
    EXPECT_EQ(g.value(g.outputs[0]).shape, (ir::Shape{1, 48}));
    // The Reshape's shape input is now a folded constant holding [1, -1].
    const ir::Value& shape = g.value(g.ops[1].inputs[1]);
    EXPECT_TRUE(shape.isConstant);
    EXPECT_FALSE(shape.isInitializer);
    EXPECT_EQ(g.ops[1].cost.parameters, 0u); // a shape argument is not a weight
    EXPECT_EQ(g.ops[1].cost.bytesRead, 48u * 4 + 16);
    ASSERT_EQ(shape.data.size, 16u);
    std::int64_t dims[2];
    std::memcpy(dims, shape.data.data, 16);
    EXPECT_EQ(dims[0], 1);
    EXPECT_EQ(dims[1], -1);
}

TEST(Import, RemovesIdentityAndKeepsOutputName) {
    auto m = importText(R"(
<ir_version: 8, opset_import: ["" : 17]>
g (float[2, 3] X) => (float[2, 3] Y) {
    A = Relu (X)
    B = Identity (A)
    C = Neg (B)
    Y = Identity (C)
}
)");
    ASSERT_TRUE(m.ok()) << test::joined(m.diagnostics());
    const ir::Graph& g = *m->graph;
    ASSERT_EQ(g.ops.size(), 2u);
    EXPECT_EQ(g.ops[0].type, "Relu");
    EXPECT_EQ(g.ops[1].type, "Neg");
    EXPECT_EQ(g.value(g.ops[1].inputs[0]).name, "A");
    EXPECT_EQ(g.value(g.outputs[0]).name, "Y");
    EXPECT_EQ(g.ops[1].outputs[0], g.outputs[0]);
}

TEST(Import, RemovesDropoutsThatDropNothing) {
    // Inference, a constant false training_mode, and training with ratio 0 (Swin-T's export),
    // each with a mask output nothing reads: all forward their input. Training with a real ratio
    // drops elements at random and stays an op.
    auto m = importText(R"(
<ir_version: 8, opset_import: ["" : 17]>
g (float[2, 3] X) => (float[2, 3] Y) {
    No = Constant <value = bool {0}> ()
    Yes = Constant <value = bool {1}> ()
    Zero = Constant <value = float {0}> ()
    Half = Constant <value = float {0.5}> ()
    A, MaskA = Dropout (X)
    B, MaskB = Dropout (A, Half, No)
    C, MaskC = Dropout (B, Zero, Yes)
    Y, MaskY = Dropout (C, Half, Yes)
}
)");
    ASSERT_TRUE(m.ok()) << test::joined(m.diagnostics());
    const ir::Graph& g = *m->graph;
    ASSERT_EQ(g.ops.size(), 1u);
    EXPECT_EQ(g.ops[0].type, "Dropout");
    EXPECT_EQ(g.value(g.ops[0].inputs[0]).name, "X");
}

TEST(Import, RemovesDeadOpsAndSortsNodes) {
    // Nodes out of order, and one whose result is never used.
    auto m = importText(R"(
<ir_version: 8, opset_import: ["" : 17]>
g (float[4] X) => (float[4] Y) {
    Y = Neg (A)
    A = Relu (X)
    D = Exp (X)
}
)");
    ASSERT_TRUE(m.ok()) << test::joined(m.diagnostics());
    const ir::Graph& g = *m->graph;
    ASSERT_EQ(g.ops.size(), 2u);
    EXPECT_EQ(g.ops[0].type, "Relu");
    EXPECT_EQ(g.ops[1].type, "Neg");
    EXPECT_TRUE(test::mentions(m->warnings, "reach no graph output"));
}

TEST(Import, MatMulAndGemmFlops) {
    auto m = importText(R"(
<ir_version: 8, opset_import: ["" : 17]>
g (float[2, 5, 8] X, float[8, 6] W, float[6, 5] G) => (float[2, 5, 5] Y, float[5, 6] Z) {
    M = MatMul (X, W)
    Y = MatMul (M, G)
    X0 = Constant <value = float[8, 5] {0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0}> ()
    Z = Gemm <transA = 1> (X0, W)
}
)");
    ASSERT_TRUE(m.ok()) << test::joined(m.diagnostics());
    const ir::Graph& g = *m->graph;
    ASSERT_EQ(g.ops.size(), 3u);
    EXPECT_DOUBLE_EQ(g.ops[0].cost.flops, 2.0 * 2 * 5 * 6 * 8); // [2,5,8] x [8,6]
    EXPECT_DOUBLE_EQ(g.ops[1].cost.flops, 2.0 * 2 * 5 * 5 * 6);
    EXPECT_DOUBLE_EQ(g.ops[2].cost.flops, 2.0 * 5 * 6 * 8);     // A^T is [5,8]: K = 8
}

// MaxViT's attention writes both of its matrix products as Einsums (capital labels, spaces):
// 2 x every label's extent multiplied, as the same products written as MatMul count.
TEST(Import, EinsumFlopsCountEveryLabel) {
    auto m = importText(R"(
<ir_version: 8, opset_import: ["" : 17]>
g (float[1, 4, 2, 6, 3] Q, float[1, 4, 2, 6, 3] K, float[1, 4, 2, 6, 3] V) => (float[1, 4, 2, 6, 3] Y, float[5] T) {
    S = Einsum <equation = "B G H I D, B G H J D -> B G H I J"> (Q, K)
    Y = Einsum <equation = "B G H I J, B G H J D -> B G H I D"> (S, V)
    M = Constant <value = float[5, 5] {0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0}> ()
    T = Einsum <equation = "ii->i"> (M)
}
)");
    ASSERT_TRUE(m.ok()) << test::joined(m.diagnostics());
    const ir::Graph& g = *m->graph;
    ASSERT_EQ(g.ops.size(), 3u);
    // Q K^T: B G H I J summed over D; P V: B G H I D summed over J.
    EXPECT_DOUBLE_EQ(g.ops[0].cost.flops, 2.0 * (1 * 4 * 2 * 6 * 6) * 3);
    EXPECT_DOUBLE_EQ(g.ops[1].cost.flops, 2.0 * (1 * 4 * 2 * 6 * 3) * 6);
    EXPECT_DOUBLE_EQ(g.ops[2].cost.flops, 5.0); // a diagonal: one operand, one add per element
    EXPECT_EQ(g.ops[0].opClass, ir::OpClass::MatMul);
}

TEST(Import, OtherDynamicDimsWarn) {
    auto m = importText(R"(
<ir_version: 8, opset_import: ["" : 17]>
g (float[N, S, 4] X) => (float[N, S, 4] Y) {
    Y = Relu (X)
}
)");
    ASSERT_TRUE(m.ok()) << test::joined(m.diagnostics());
    EXPECT_TRUE(test::mentions(m->warnings, "dynamic dim 'S' at axis 1 set to 1"));
}

TEST(Import, ParseInputShape) {
    auto ok = model::parseInputShape("image=1x3x224x224");
    ASSERT_TRUE(ok.ok());
    EXPECT_EQ(ok->first, "image");
    EXPECT_EQ(ok->second, (ir::Shape{1, 3, 224, 224}));
    EXPECT_FALSE(model::parseInputShape("image").ok());
    EXPECT_FALSE(model::parseInputShape("=1x2").ok());
    EXPECT_FALSE(model::parseInputShape("x=1xx2").ok());
    EXPECT_FALSE(model::parseInputShape("x=0x2").ok());
    EXPECT_FALSE(model::parseInputShape("x=-1").ok());
    EXPECT_FALSE(model::parseInputShape("x=99999999999").ok());
}

} // namespace
} // namespace strata
