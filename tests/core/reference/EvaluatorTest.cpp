// evaluate() end to end: hand-computed small graphs, the bundled samples, diagnostics for bad
// input, compare(), the 16-bit float conversions, and (when STRATA_REFERENCE_MODELS names
// them) larger models such as the benchmark exports.

#include "reference/Evaluator.h"

#include "reference/Compare.h"
#include "support/TestModels.h"

#include <bit>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <gtest/gtest.h>
#include <iostream>
#include <limits>
#include <optional>
#include <random>
#include <sstream>

namespace strata::reference {
namespace {

const std::string kSamples = STRATA_SAMPLES_DIR;

std::string model(const std::string& signature, const std::string& body, int opset = 17) {
    return "<ir_version: 8, opset_import: [\"\" : " + std::to_string(opset) + "]>\ng " + signature +
           " {\n" + body + "\n}\n";
}

std::shared_ptr<const ir::Graph> graphOf(const std::string& text) {
    auto m = test::importText(text);
    EXPECT_TRUE(m.ok()) << test::joined(m.diagnostics());
    return m.ok() ? m->graph : std::make_shared<ir::Graph>();
}

std::vector<float> floatsOf(const Tensor& t) {
    return {t.floats(), t.floats() + t.elements()};
}

Tensor randomInput(const ir::Value& v, std::uint32_t seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> uniform(-1.f, 1.f);
    Tensor t = zerosLike(v);
    for (std::int64_t i = 0; i < t.elements(); ++i)
        t.floats()[i] = uniform(rng);
    return t;
}

TEST(Evaluate, HandComputedConvReluPool) {
    // X = 1..16 in a 4x4 plane; W sums each 2x2 window; bias -20; Relu; 2x2 max pool.
    auto g = graphOf(model("(float[1, 1, 4, 4] X) => (float[1, 1, 1, 1] Y, float[1, 1, 3, 3] R)",
                           "W = Constant <value = float[1, 1, 2, 2] {1, 1, 1, 1}> ()\n"
                           "  B = Constant <value = float[1] {-20}> ()\n"
                           "  C = Conv (X, W, B)\n"
                           "  R = Relu (C)\n"
                           "  Y = MaxPool <kernel_shape = [2, 2], strides = [2, 2]> (R)"));
    std::vector<float> x(16);
    for (int i = 0; i < 16; ++i)
        x[i] = float(i + 1);
    auto out = evaluate(*g, {fromFloats({1, 1, 4, 4}, x)});
    ASSERT_TRUE(out.ok()) << test::joined(out.diagnostics());
    // Window sums: 14 18 22 / 30 34 38 / 46 50 54, minus 20, relu.
    EXPECT_EQ(floatsOf((*out)[1]), (std::vector<float>{0, 0, 2, 10, 14, 18, 26, 30, 34}));
    EXPECT_EQ(floatsOf((*out)[0]), (std::vector<float>{14}));
}

TEST(Evaluate, HandComputedGemmSoftmax) {
    auto g = graphOf(model("(float[1, 2] X) => (float[1, 3] Y)",
                           "W = Constant <value = float[3, 2] {1, 0, 0, 1, 1, 1}> ()\n"
                           "  L = Gemm <transB = 1> (X, W)\n"
                           "  Y = Softmax (L)"));
    auto out = evaluate(*g, {fromFloats({1, 2}, std::vector<float>{std::log(2.f), 0.f})});
    ASSERT_TRUE(out.ok()) << test::joined(out.diagnostics());
    // Logits ln2, 0, ln2: exp = 2, 1, 2 -> 0.4, 0.2, 0.4.
    const auto y = floatsOf((*out)[0]);
    EXPECT_NEAR(y[0], 0.4f, 1e-6);
    EXPECT_NEAR(y[1], 0.2f, 1e-6);
    EXPECT_NEAR(y[2], 0.4f, 1e-6);
}

TEST(Evaluate, IntegerShapeArithmetic) {
    auto g = graphOf(model("(int64[3] A, int64[3] B) => (int64[3] Y, bool[3] E)",
                           "S = Add (A, B)\n  Y = Mod <fmod = 0> (S, B)\n  E = Equal (Y, A)"));
    auto out = evaluate(*g, {fromInt64s({3}, std::vector<std::int64_t>{-7, 8, 9}),
                             fromInt64s({3}, std::vector<std::int64_t>{3, -5, 4})});
    ASSERT_TRUE(out.ok()) << test::joined(out.diagnostics());
    // (-7+3) mod 3 = 2 (Python), (8-5) mod -5 = -2, 13 mod 4 = 1.
    EXPECT_EQ((*out)[0].toInt64s(), (std::vector<std::int64_t>{2, -2, 1}));
    EXPECT_EQ((*out)[1].toInt64s(), (std::vector<std::int64_t>{0, 0, 0}));
}

// Each sample: finite outputs, the same bits on a second run, and a batch of two equals the two
// images evaluated alone (no state or index leaks across the batch).
void checkSample(const std::string& file, const std::string& input, const ir::Shape& one) {
    SCOPED_TRACE(file);
    auto single = model::importOnnxFile(kSamples + "/" + file);
    ASSERT_TRUE(single.ok()) << test::joined(single.diagnostics());
    ir::Shape two = one;
    two[0] = 2;
    auto pair = model::importOnnxFile(kSamples + "/" + file, {.inputShapes = {{input, two}}});
    ASSERT_TRUE(pair.ok()) << test::joined(pair.diagnostics());
    const ir::Graph& g1 = *single->graph;
    const ir::Graph& g2 = *pair->graph;
    for (const ir::Op& op : g1.ops)
        EXPECT_TRUE(supports(g1, op)) << unsupportedReason(g1, op);

    const Tensor a = randomInput(g1.value(g1.inputs[0]), 1),
                 b = randomInput(g1.value(g1.inputs[0]), 2);
    auto ya = evaluate(g1, {a});
    ASSERT_TRUE(ya.ok()) << test::joined(ya.diagnostics());
    auto again = evaluate(g1, {a});
    ASSERT_TRUE(again.ok());
    EXPECT_EQ((*ya)[0].bytes, (*again)[0].bytes);
    for (float v : floatsOf((*ya)[0]))
        ASSERT_TRUE(std::isfinite(v));
    auto yb = evaluate(g1, {b});
    ASSERT_TRUE(yb.ok());

    Tensor both = zerosLike(g2.value(g2.inputs[0]));
    std::memcpy(both.bytes.data(), a.bytes.data(), a.bytes.size());
    std::memcpy(both.bytes.data() + a.bytes.size(), b.bytes.data(), b.bytes.size());
    auto y2 = evaluate(g2, {both});
    ASSERT_TRUE(y2.ok()) << test::joined(y2.diagnostics());
    const auto joined = floatsOf((*y2)[0]);
    auto first = floatsOf((*ya)[0]), second = floatsOf((*yb)[0]);
    first.insert(first.end(), second.begin(), second.end());
    EXPECT_EQ(joined, first);
}

TEST(Evaluate, Samples) {
    checkSample("resnet_tiny.onnx", "image", {1, 3, 64, 64});
    checkSample("mobilenet_tiny.onnx", "image", {1, 3, 64, 64});
    checkSample("transformer_block.onnx", "tokens", {1, 16, 64});
}

TEST(Evaluate, TransformerSampleAttentionRowsSumToOne) {
    auto m = model::importOnnxFile(kSamples + "/transformer_block.onnx");
    ASSERT_TRUE(m.ok());
    const ir::Graph& g = *m->graph;
    // Evaluate the graph up to the softmax by asking for its op directly, region by region.
    auto softmax = std::find_if(g.ops.begin(), g.ops.end(),
                                [](const ir::Op& op) { return op.type == "Softmax"; });
    ASSERT_NE(softmax, g.ops.end());
    ir::Graph upTo = g;
    upTo.outputs = {softmax->outputs[0]};
    auto out = evaluate(upTo, {randomInput(g.value(g.inputs[0]), 3)});
    ASSERT_TRUE(out.ok()) << test::joined(out.diagnostics());
    const Tensor& p = (*out)[0];
    const std::int64_t row = p.shape.back();
    for (std::int64_t r = 0; r < p.elements() / row; ++r) {
        double sum = 0;
        for (std::int64_t i = 0; i < row; ++i)
            sum += p.floats()[r * row + i];
        ASSERT_NEAR(sum, 1.0, 1e-5) << "row " << r;
    }
}

// A one-op graph built by hand, for ops whose outputs onnx's shape inference cannot size.
struct HandValue {
    std::string name;
    ir::DType dtype;
    ir::Shape shape;
    std::optional<Tensor> constant; // data of a constant input
};

std::shared_ptr<ir::Graph> handGraph(const std::string& type, std::vector<ir::Attribute> attributes,
                                     std::vector<HandValue> inputs,
                                     std::vector<HandValue> outputs) {
    auto g = std::make_shared<ir::Graph>();
    g->opsetVersion = 17;
    ir::Op op;
    op.name = "op";
    op.type = type;
    op.attributes = std::move(attributes);
    auto add = [&](HandValue& h) {
        ir::Value v;
        v.name = h.name;
        v.dtype = h.dtype;
        v.shape = h.shape;
        if (h.constant) {
            auto owner = std::make_shared<std::vector<std::byte>>(h.constant->bytes);
            v.isConstant = true;
            v.data = {owner, owner->data(), owner->size()};
        }
        g->values.push_back(std::move(v));
        return ir::ValueId(std::uint32_t(g->values.size() - 1));
    };
    for (HandValue& h : inputs) {
        op.inputs.push_back(add(h));
        if (!h.constant)
            g->inputs.push_back(op.inputs.back());
    }
    for (HandValue& h : outputs) {
        op.outputs.push_back(add(h));
        g->outputs.push_back(op.outputs.back());
    }
    g->ops.push_back(std::move(op));
    g->finalize();
    return g;
}

TEST(Evaluate, OpsWithoutNodeTests) {
    using ir::DType;
    // OneHot: onnx 1.12 cannot size its output, so the suite's tests never import.
    auto oneHot =
        handGraph("OneHot", {{"axis", std::int64_t(-1)}},
                  {{"indices", DType::Int64, {3}},
                   {"depth", DType::Int64, {}, fromInt64s({}, std::vector<std::int64_t>{3})},
                   {"values", DType::Float32, {2}, fromFloats({2}, std::vector<float>{0, 5})}},
                  {{"y", DType::Float32, {3, 3}}});
    auto y = evaluate(*oneHot, {fromInt64s({3}, std::vector<std::int64_t>{0, 2, -1})});
    ASSERT_TRUE(y.ok()) << test::joined(y.diagnostics());
    EXPECT_EQ(floatsOf((*y)[0]), (std::vector<float>{5, 0, 0, 0, 0, 5, 0, 0, 5}));

    auto lpPool = handGraph(
        "LpPool", {{"kernel_shape", std::vector<std::int64_t>{2, 2}}, {"p", std::int64_t(2)}},
        {{"x", DType::Float32, {1, 1, 2, 3}}}, {{"y", DType::Float32, {1, 1, 1, 2}}});
    y = evaluate(*lpPool, {fromFloats({1, 1, 2, 3}, std::vector<float>{3, 0, 1, 4, 0, 1})});
    ASSERT_TRUE(y.ok()) << test::joined(y.diagnostics());
    EXPECT_EQ(floatsOf((*y)[0]), (std::vector<float>{5, std::sqrt(2.f)}));

    auto fill = handGraph("ConstantOfShape", {}, {{"shape", DType::Int64, {2}}},
                          {{"y", DType::Int32, {2, 2}}});
    y = evaluate(*fill, {fromInt64s({2}, std::vector<std::int64_t>{2, 2})});
    ASSERT_TRUE(y.ok()) << test::joined(y.diagnostics());
    EXPECT_EQ((*y)[0].toInt64s(), (std::vector<std::int64_t>{0, 0, 0, 0}));
    // A value attribute is a tensor the IR does not keep: refused, not guessed.
    auto valued = handGraph("ConstantOfShape", {{"value", std::string("<tensor 1>")}},
                            {{"shape", DType::Int64, {1}}}, {{"y", DType::Float32, {2}}});
    EXPECT_NE(unsupportedReason(*valued, valued->ops[0]).find("value attribute"),
              std::string::npos);
}

// Einsum by hand-built graphs: onnx 1.12 cannot size its outputs, so neither the suite's
// Einsum tests nor text models import.
TEST(Evaluate, EinsumMatchesMatMulTransposeAndDiagonal) {
    using ir::DType;
    auto matmul = graphOf(
        model("(float[2, 3, 4] A, float[2, 4, 5] B) => (float[2, 3, 5] M)", "M = MatMul (A, B)"));
    const auto ab = sampleInputs(*matmul, 5);
    auto m = evaluate(*matmul, ab);
    ASSERT_TRUE(m.ok()) << test::joined(m.diagnostics());
    auto einsum = [](std::string equation, std::vector<HandValue> in, HandValue out) {
        return handGraph("Einsum", {{"equation", std::move(equation)}}, std::move(in),
                         {std::move(out)});
    };
    auto batched = einsum("bij, bjk -> bik",
                          {{"A", DType::Float32, {2, 3, 4}}, {"B", DType::Float32, {2, 4, 5}}},
                          {"E", DType::Float32, {2, 3, 5}});
    auto e = evaluate(*batched, ab);
    ASSERT_TRUE(e.ok()) << test::joined(e.diagnostics());
    EXPECT_TRUE(compare((*e)[0], (*m)[0], 1e-6, 1e-5).ok)
        << compare((*e)[0], (*m)[0], 1e-6, 1e-5).message;

    auto transpose = einsum("...ij->...ji", {{"M", DType::Float32, {2, 3, 5}}},
                            {"T", DType::Float32, {2, 5, 3}});
    auto t = evaluate(*transpose, {(*m)[0]});
    ASSERT_TRUE(t.ok()) << test::joined(t.diagnostics());
    for (int b = 0; b < 2; ++b)
        for (int r = 0; r < 3; ++r)
            for (int c = 0; c < 5; ++c)
                EXPECT_EQ((*t)[0].floats()[(b * 5 + c) * 3 + r],
                          (*m)[0].floats()[(b * 3 + r) * 5 + c]);

    const Tensor s = fromFloats({3, 3}, std::vector<float>{1, 2, 3, 4, 5, 6, 7, 8, 9});
    auto diagonal = einsum("ii->i", {{"S", DType::Float32, {3, 3}}}, {"D", DType::Float32, {3}});
    auto d = evaluate(*diagonal, {s});
    ASSERT_TRUE(d.ok()) << test::joined(d.diagnostics());
    EXPECT_EQ(floatsOf((*d)[0]), (std::vector<float>{1, 5, 9}));

    // Implicit output: labels used once, alphabetically ("ij,jk" is "ij,jk->ik").
    auto implicit = einsum("ij,jk", {{"S", DType::Float32, {3, 3}}, {"U", DType::Float32, {3, 3}}},
                           {"I", DType::Float32, {3, 3}});
    auto i = evaluate(*implicit, {s, s});
    ASSERT_TRUE(i.ok()) << test::joined(i.diagnostics());
    EXPECT_EQ(floatsOf((*i)[0]), (std::vector<float>{30, 36, 42, 66, 81, 96, 102, 126, 150}));
}

TEST(Evaluate, SampleInputsAreDeterministic) {
    auto g = graphOf(model("(float[2, 3] X, int64[2] I) => (float[2, 3] Y)", "Y = Relu (X)"));
    const auto a = sampleInputs(*g, 42), b = sampleInputs(*g, 42), c = sampleInputs(*g, 43);
    ASSERT_EQ(a.size(), g->inputs.size());
    EXPECT_EQ(a[0].bytes, b[0].bytes);
    EXPECT_NE(a[0].bytes, c[0].bytes);
    for (float v : floatsOf(a[0])) {
        EXPECT_GE(v, -1.f);
        EXPECT_LT(v, 1.f);
    }
    EXPECT_EQ(a[1].toInt64s(), (std::vector<std::int64_t>{0, 0}));
}

TEST(BadInput, UnsupportedOpIsNamed) {
    auto g = graphOf(
        model("(float[2, 3, 4] X, float[1, 16, 3] W, float[1, 16, 4] R) => (float[2, 1, 3, 4] Y)",
              "Y = RNN <hidden_size = 4> (X, W, R)"));
    ASSERT_FALSE(g->ops.empty());
    EXPECT_FALSE(supports(g->ops[0]));
    EXPECT_EQ(unsupportedReason(*g, g->ops[0]),
              "op type 'RNN' is not supported by the reference evaluator");
    auto out =
        evaluate(*g, {zeros(ir::DType::Float32, {2, 3, 4}), zeros(ir::DType::Float32, {1, 16, 3}),
                      zeros(ir::DType::Float32, {1, 16, 4})});
    ASSERT_FALSE(out.ok());
    EXPECT_TRUE(test::mentions(out.diagnostics(), "op type 'RNN' is not supported"))
        << test::joined(out.diagnostics());
    EXPECT_EQ(out.diagnostics().front().where.node, g->ops[0].name);
}

TEST(BadInput, UnsupportedAttributesAreNamed) {
    auto g = graphOf(model("(float[1, 3, 4, 4] X) => (float[1, 3, 4, 4] Y)",
                           "p = Constant <value = int64[8] {0, 0, 0, 0, 0, 0, 0, 0}> ()\n"
                           "  Y = Pad <mode = \"wrap\"> (X, p)"));
    if (g->ops.empty())
        GTEST_SKIP() << "the importer rejects mode wrap at opset 17";
    EXPECT_TRUE(supports(g->ops[0]) == false);
    EXPECT_NE(unsupportedReason(*g, g->ops[0]).find("mode 'wrap'"), std::string::npos);
}

TEST(BadInput, WrongInputs) {
    auto g = graphOf(model("(float[2, 3] X) => (float[2, 3] Y)", "Y = Relu (X)"));
    auto none = evaluate(*g, {});
    ASSERT_FALSE(none.ok());
    EXPECT_TRUE(test::mentions(none.diagnostics(), "the graph has 1 input(s), 0 were given"));
    auto shape = evaluate(*g, {zeros(ir::DType::Float32, {3, 2})});
    ASSERT_FALSE(shape.ok());
    EXPECT_TRUE(test::mentions(shape.diagnostics(),
                               "input 0 is float32 3x2, the graph expects float32 2x3"))
        << test::joined(shape.diagnostics());
    EXPECT_EQ(shape.diagnostics().front().where.value, "X");
    auto dtype = evaluate(*g, {zeros(ir::DType::Float64, {2, 3})});
    ASSERT_FALSE(dtype.ok());
    EXPECT_TRUE(test::mentions(dtype.diagnostics(), "input 0 is float64 2x3"))
        << test::joined(dtype.diagnostics());
}

TEST(BadInput, IndexOutOfRangeIsADiagnostic) {
    auto g = graphOf(model("(float[4, 2] X, int64[3] I) => (float[3, 2] Y)", "Y = Gather (X, I)"));
    auto out = evaluate(*g, {zeros(ir::DType::Float32, {4, 2}),
                             fromInt64s({3}, std::vector<std::int64_t>{0, 4, 1})});
    ASSERT_FALSE(out.ok());
    EXPECT_TRUE(test::mentions(out.diagnostics(), "Gather: index 4 is out of range for a dim of 4"))
        << test::joined(out.diagnostics());
}

TEST(BadInput, ConstantWithoutData) {
    auto m = test::importText(model("(float[2] X) => (float[2] Y)",
                                    "C = Constant <value = float[2] {1, 2}> ()\n  Y = Add (X, C)"));
    ASSERT_TRUE(m.ok());
    ir::Graph g = *m->graph;
    for (ir::Value& v : g.values)
        if (v.isConstant)
            v.data = {};
    auto out = evaluate(g, {zeros(ir::DType::Float32, {2})});
    ASSERT_FALSE(out.ok());
    EXPECT_TRUE(test::mentions(out.diagnostics(), "its data was not loaded"))
        << test::joined(out.diagnostics());
}

TEST(Supported, OpTypes) {
    const auto types = supportedOpTypes();
    std::string all;
    for (const auto& t : types)
        all += " " + t;
    std::cout << types.size() << " op types:" << all << '\n';
    EXPECT_TRUE(std::is_sorted(types.begin(), types.end()));
    for (const char* t : {"Conv",
                          "ConvTranspose",
                          "MaxPool",
                          "AveragePool",
                          "GlobalAveragePool",
                          "Gemm",
                          "MatMul",
                          "BatchNormalization",
                          "LayerNormalization",
                          "Softmax",
                          "Relu",
                          "Clip",
                          "Add",
                          "Concat",
                          "Split",
                          "Slice",
                          "Reshape",
                          "Transpose",
                          "Pad",
                          "ReduceMean",
                          "Gather",
                          "Resize",
                          "Where",
                          "Cast"})
        EXPECT_NE(std::find(types.begin(), types.end(), t), types.end()) << t;
    for (const auto& type : types) { // without a graph only attributes are looked at
        ir::Op bare;
        bare.type = type;
        supports(bare);
    }
    ir::Op custom;
    custom.type = "Relu";
    custom.domain = "com.example";
    EXPECT_FALSE(supports(custom));
}

TEST(Compare, AllcloseSemantics) {
    const float nan = std::numeric_limits<float>::quiet_NaN(), inf = INFINITY;
    const Tensor e = fromFloats({5}, std::vector<float>{1, 100, nan, inf, 0});
    auto c = compare(fromFloats({5}, std::vector<float>{1.0005f, 100.09f, nan, inf, 1e-8f}), e,
                     1e-7, 1e-3);
    EXPECT_TRUE(c.ok) << c.message;
    c = compare(fromFloats({5}, std::vector<float>{1, 100.2f, nan, inf, 0}), e, 1e-7, 1e-3);
    EXPECT_FALSE(c.ok);
    EXPECT_EQ(c.worstIndex, 1u);
    EXPECT_EQ(c.mismatches, 1u);
    EXPECT_NEAR(c.maxAbs, 0.2, 1e-4);
    c = compare(fromFloats({5}, std::vector<float>{1, 100, 0, inf, 0}), e, 1e-7, 1e-3);
    EXPECT_FALSE(c.ok); // NaN only matches NaN
    EXPECT_EQ(c.worstIndex, 2u);
    c = compare(fromFloats({5}, std::vector<float>{1, 100, nan, -inf, 0}), e, 1e-7, 1e-3);
    EXPECT_FALSE(c.ok);
    c = compare(fromFloats({1, 5}, std::vector<float>{1, 100, nan, inf, 0}), e, 1e-7, 1e-3);
    EXPECT_FALSE(c.ok);
    EXPECT_NE(c.message.find("shape"), std::string::npos);
    // Integers are exact, whatever the tolerance, even beyond 2^53.
    const std::int64_t big = (std::int64_t(1) << 60) + 1;
    c = compare(fromInt64s({1}, std::vector<std::int64_t>{big}),
                fromInt64s({1}, std::vector<std::int64_t>{big - 1}), 10, 10);
    EXPECT_FALSE(c.ok);
    c = compare(fromInt64s({1}, std::vector<std::int64_t>{big}),
                fromFloats({1}, std::vector<float>{1}), 1, 1);
    EXPECT_FALSE(c.ok);
    EXPECT_NE(c.message.find("dtype"), std::string::npos);
}

TEST(Tensor, HalfConversions) {
    EXPECT_EQ(floatToHalf(1.0f), 0x3c00);
    EXPECT_EQ(floatToHalf(-2.0f), 0xc000);
    EXPECT_EQ(floatToHalf(65504.f), 0x7bff);
    EXPECT_EQ(floatToHalf(65520.f), 0x7c00); // ties to even: rounds up to infinity
    EXPECT_EQ(floatToHalf(std::ldexp(1.f, -24)), 0x0001);
    EXPECT_EQ(floatToHalf(std::ldexp(1.f, -25)), 0x0000); // tie to even (zero)
    EXPECT_EQ(floatToHalf(std::ldexp(3.f, -26)), 0x0001);
    EXPECT_EQ(floatToHalf(1.0f + std::ldexp(1.f, -11)), 0x3c00); // tie to even
    EXPECT_EQ(floatToHalf(1.0f + std::ldexp(3.f, -11)), 0x3c02);
    EXPECT_TRUE(std::isnan(halfToFloat(floatToHalf(std::nanf("")))));
    // Every non-NaN half survives a round trip through float.
    for (std::uint32_t h = 0; h < 0x10000; ++h) {
        if ((h & 0x7c00) == 0x7c00 && (h & 0x3ff))
            continue;
        ASSERT_EQ(floatToHalf(halfToFloat(std::uint16_t(h))), h) << std::hex << h;
    }
    EXPECT_EQ(bfloat16ToFloat(0x3f80), 1.0f);
    EXPECT_EQ(floatToBfloat16(1.0f + std::ldexp(1.f, -8)), 0x3f80); // tie to even
    EXPECT_EQ(floatToBfloat16(1.0f + std::ldexp(3.f, -8)), 0x3f82);
}

// Larger models on request: STRATA_REFERENCE_MODELS=a.onnx:b.onnx (e.g. the benchmark exports,
// tests/bench/make_bench_models.sh). Prints the time each takes; asserts only finite outputs.
TEST(Evaluate, ModelsFromEnvironment) {
    const char* list = std::getenv("STRATA_REFERENCE_MODELS");
    if (!list || !*list)
        GTEST_SKIP() << "set STRATA_REFERENCE_MODELS to evaluate more models";
    std::stringstream paths(list);
    for (std::string path; std::getline(paths, path, ':');) {
        auto m = model::importOnnxFile(path);
        ASSERT_TRUE(m.ok()) << path << ": " << test::joined(m.diagnostics());
        const ir::Graph& g = *m->graph;
        std::vector<Tensor> inputs;
        for (ir::ValueId id : g.inputs) {
            const ir::Value& v = g.value(id);
            inputs.push_back(v.dtype == ir::DType::Float32 ? randomInput(v, 7) : zerosLike(v));
        }
        const auto start = std::chrono::steady_clock::now();
        auto out = evaluate(g, inputs);
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        ASSERT_TRUE(out.ok()) << path << ": " << test::joined(out.diagnostics());
        for (const Tensor& t : *out) {
            if (t.dtype != ir::DType::Float32)
                continue;
            for (float v : floatsOf(t))
                ASSERT_TRUE(std::isfinite(v)) << path;
        }
        std::cout << path << ": " << g.ops.size() << " ops, " << g.totalFlops() / 1e9
                  << " GFLOP, evaluated in " << seconds << " s\n";
    }
}

} // namespace
} // namespace strata::reference
