// The bundled samples: shapes agree with onnx's own shape inference, costs with hand counts.

#include "support/TestModels.h"

#include <gtest/gtest.h>
#include <onnx/defs/schema.h>
#include <onnx/shape_inference/implementation.h>

#include <fstream>

namespace strata {
namespace {

const std::string kSamples = STRATA_SAMPLES_DIR;

std::shared_ptr<const ir::Graph> importSample(const std::string& name) {
    auto r = model::importOnnxFile(kSamples + "/" + name);
    EXPECT_TRUE(r.ok()) << test::joined(r.diagnostics());
    return r.ok() ? r->graph : nullptr;
}

// Runs onnx's shape inference directly on the file, batch fixed to 1, and checks that every
// value it fully resolves has the same shape in Strata's IR.
void expectShapesMatchOnnx(const std::string& name, const ir::Graph& graph) {
    onnx::ModelProto m;
    std::ifstream in(kSamples + "/" + name, std::ios::binary);
    ASSERT_TRUE(m.ParseFromIstream(&in));
    for (auto& input : *m.mutable_graph()->mutable_input())
        for (auto& d : *input.mutable_type()->mutable_tensor_type()->mutable_shape()->mutable_dim())
            if (!d.has_dim_value()) d.set_dim_value(1);
    onnx::shape_inference::InferShapes(m, onnx::OpSchemaRegistry::Instance(),
                                       onnx::ShapeInferenceOptions(true, 1, true));
    int compared = 0;
    auto compare = [&](const onnx::ValueInfoProto& info) {
        auto id = graph.findValue(info.name());
        if (!id) return; // folded away or an Identity alias
        ir::Shape onnxShape;
        for (const auto& d : info.type().tensor_type().shape().dim()) {
            if (!d.has_dim_value()) return;
            onnxShape.push_back(d.dim_value());
        }
        EXPECT_EQ(graph.value(*id).shape, onnxShape) << name << ": " << info.name();
        EXPECT_EQ(int(graph.value(*id).dtype), info.type().tensor_type().elem_type()) << info.name();
        compared += graph.value(*id).producer.valid();
    };
    for (const auto& v : m.graph().value_info()) compare(v);
    for (const auto& v : m.graph().output()) compare(v);
    // Every op output of the IR was compared.
    std::size_t outputs = 0;
    for (const auto& op : graph.ops) outputs += op.outputs.size();
    EXPECT_EQ(std::size_t(compared), outputs) << name;
}

TEST(Samples, ResNetTiny) {
    auto g = importSample("resnet_tiny.onnx");
    ASSERT_TRUE(g);
    expectShapesMatchOnnx("resnet_tiny.onnx", *g);
    EXPECT_EQ(g->value(g->outputs[0]).shape, (ir::Shape{1, 10}));
    for (const auto& op : g->ops) {
        EXPECT_NE(op.type, "Shape");
        EXPECT_NE(op.type, "Gather");
        EXPECT_NE(op.type, "Constant");
    }
    const ir::Op& stem = g->op(*g->findOp("stem/conv"));
    EXPECT_DOUBLE_EQ(stem.cost.flops, 2.0 * 16 * 64 * 64 * 3 * 3 * 3);
    EXPECT_EQ(stem.cost.parameters, 16u * 3 * 3 * 3);
    std::uint64_t params = 0;
    for (const auto& v : g->values)
        if (v.isInitializer) params += std::uint64_t(v.elements());
    EXPECT_EQ(g->parameterCount, params); // every initializer is used
}

TEST(Samples, MobileNetTiny) {
    auto g = importSample("mobilenet_tiny.onnx");
    ASSERT_TRUE(g);
    expectShapesMatchOnnx("mobilenet_tiny.onnx", *g);
    // A depthwise conv: group == channels, so each output needs 3x3 MACs only.
    const ir::Op& dw = g->op(*g->findOp("block1/depthwise/conv"));
    EXPECT_EQ(dw.attrInt("group", 1), 64);
    EXPECT_DOUBLE_EQ(dw.cost.flops, 2.0 * 64 * 32 * 32 * 9);
}

TEST(Samples, TransformerBlock) {
    auto g = importSample("transformer_block.onnx");
    ASSERT_TRUE(g);
    expectShapesMatchOnnx("transformer_block.onnx", *g);
    EXPECT_EQ(g->value(g->outputs[0]).shape, (ir::Shape{1, 16, 64}));
    const ir::Op& q = g->op(*g->findOp("attn/q/MatMul"));
    EXPECT_DOUBLE_EQ(q.cost.flops, 2.0 * 16 * 64 * 64);
    int softmax = 0, layerNorm = 0;
    for (const auto& op : g->ops) {
        softmax += op.type == "Softmax";
        layerNorm += op.type == "LayerNormalization";
        EXPECT_NE(op.type, "Shape") << "shape subgraphs must be folded";
        EXPECT_NE(op.type, "Concat") << "shape subgraphs must be folded";
    }
    EXPECT_EQ(softmax, 1);
    EXPECT_EQ(layerNorm, 2);
}

} // namespace
} // namespace strata
