// Folding one node with the reference evaluator's kernels, op by op against hand-computed
// results: the ops of the shape chains torchvision's ViT and Swin exports are made of, and the
// refusals that leave a node in the graph.

#include "model/ReferenceFolding.h"

#include <cstring>
#include <gtest/gtest.h>

namespace strata::model {
namespace {

onnx::TensorProto tensor(const std::string& name, onnx::TensorProto::DataType type,
                         std::vector<std::int64_t> shape, const void* data, std::size_t bytes) {
    onnx::TensorProto t;
    t.set_name(name);
    t.set_data_type(type);
    for (auto d : shape)
        t.add_dims(d);
    t.set_raw_data(std::string(static_cast<const char*>(data), bytes));
    return t;
}

onnx::TensorProto ints(const std::string& name, std::vector<std::int64_t> shape,
                       std::vector<std::int64_t> values) {
    return tensor(name, onnx::TensorProto::INT64, std::move(shape), values.data(),
                  values.size() * 8);
}

onnx::TensorProto floats(const std::string& name, std::vector<std::int64_t> shape,
                         std::vector<float> values) {
    return tensor(name, onnx::TensorProto::FLOAT, std::move(shape), values.data(),
                  values.size() * 4);
}

onnx::TensorProto bools(const std::string& name, std::vector<std::int64_t> shape,
                        std::vector<std::uint8_t> values) {
    return tensor(name, onnx::TensorProto::BOOL, std::move(shape), values.data(), values.size());
}

template <class T> std::vector<T> valuesOf(const onnx::TensorProto& t) {
    std::vector<T> out(t.raw_data().size() / sizeof(T));
    std::memcpy(out.data(), t.raw_data().data(), out.size() * sizeof(T));
    return out;
}

std::vector<std::int64_t> dimsOf(const onnx::TensorProto& t) {
    return {t.dims().begin(), t.dims().end()};
}

// A node reading the given tensors (by name) into output "o".
onnx::NodeProto node(const std::string& type, const std::vector<const onnx::TensorProto*>& inputs) {
    onnx::NodeProto n;
    n.set_op_type(type);
    n.set_name(type + "_0");
    for (const auto* in : inputs)
        n.add_input(in ? in->name() : "");
    n.add_output("o");
    return n;
}

void setInt(onnx::NodeProto& n, const std::string& name, std::int64_t v) {
    auto* a = n.add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto::INT);
    a->set_i(v);
}

void setInts(onnx::NodeProto& n, const std::string& name, std::vector<std::int64_t> v) {
    auto* a = n.add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto::INTS);
    for (auto x : v)
        a->add_ints(x);
}

onnx::TensorProto eval(const onnx::NodeProto& n, const std::vector<const onnx::TensorProto*>& in,
                       std::int64_t opset = 17) {
    auto r = evaluateWithReference(n, opset, in);
    EXPECT_TRUE(r.ok()) << n.op_type() << ": "
                        << (r.ok() ? std::string() : r.diagnostics().front().message);
    if (!r.ok() || r->size() != 1)
        return {};
    EXPECT_EQ((*r)[0].name(), "o");
    return (*r)[0];
}

std::string whyNot(const onnx::NodeProto& n, const std::vector<const onnx::TensorProto*>& in) {
    auto r = evaluateWithReference(n, 17, in);
    return r.ok() ? std::string("(folded)") : r.diagnostics().front().message;
}

TEST(ReferenceFolding, GatherAlongAxisAndScalarIndex) {
    auto data = ints("d", {2, 3}, {1, 2, 3, 4, 5, 6});
    auto idx = ints("i", {2}, {2, -3});
    auto n = node("Gather", {&data, &idx});
    setInt(n, "axis", 1);
    auto r = eval(n, {&data, &idx});
    EXPECT_EQ(dimsOf(r), (std::vector<std::int64_t>{2, 2}));
    EXPECT_EQ(valuesOf<std::int64_t>(r), (std::vector<std::int64_t>{3, 1, 6, 4}));
    auto scalar = ints("s", {}, {1});
    auto row = eval(node("Gather", {&data, &scalar}), {&data, &scalar});
    EXPECT_EQ(dimsOf(row), (std::vector<std::int64_t>{3}));
    EXPECT_EQ(valuesOf<std::int64_t>(row), (std::vector<std::int64_t>{4, 5, 6}));
}

TEST(ReferenceFolding, SliceWithNegativeStep) {
    auto data = ints("d", {5}, {0, 1, 2, 3, 4});
    auto starts = ints("s", {1}, {-1}), ends = ints("e", {1}, {-6}), axes = ints("a", {1}, {0}),
         steps = ints("t", {1}, {-2});
    const std::vector<const onnx::TensorProto*> in{&data, &starts, &ends, &axes, &steps};
    EXPECT_EQ(valuesOf<std::int64_t>(eval(node("Slice", in), in)),
              (std::vector<std::int64_t>{4, 2, 0}));
}

TEST(ReferenceFolding, ReshapeZeroAndMinusOne) {
    auto data = ints("d", {2, 3, 4}, std::vector<std::int64_t>(24, 7));
    auto shape = ints("s", {2}, {0, -1});
    EXPECT_EQ(dimsOf(eval(node("Reshape", {&data, &shape}), {&data, &shape})),
              (std::vector<std::int64_t>{2, 12}));
    auto bad = ints("b", {2}, {5, -1});
    EXPECT_NE(whyNot(node("Reshape", {&data, &bad}), {&data, &bad}), "(folded)");
}

TEST(ReferenceFolding, UnsqueezeAttributeAndInputForms) {
    auto x = ints("x", {2}, {3, 4});
    auto n11 = node("Unsqueeze", {&x});
    setInts(n11, "axes", {0});
    EXPECT_EQ(dimsOf(eval(n11, {&x}, 11)), (std::vector<std::int64_t>{1, 2}));
    auto axes = ints("a", {2}, {0, -1});
    EXPECT_EQ(dimsOf(eval(node("Unsqueeze", {&x, &axes}), {&x, &axes}, 13)),
              (std::vector<std::int64_t>{1, 2, 1}));
}

TEST(ReferenceFolding, ConcatAndBroadcastArithmetic) {
    auto a = ints("a", {1}, {1}), b = ints("b", {2}, {-1, 8});
    auto n = node("Concat", {&a, &b});
    setInt(n, "axis", 0);
    EXPECT_EQ(valuesOf<std::int64_t>(eval(n, {&a, &b})), (std::vector<std::int64_t>{1, -1, 8}));
    auto m = ints("m", {2, 1}, {10, 20}), v = ints("v", {3}, {1, 2, 3});
    auto sum = eval(node("Add", {&m, &v}), {&m, &v});
    EXPECT_EQ(dimsOf(sum), (std::vector<std::int64_t>{2, 3}));
    EXPECT_EQ(valuesOf<std::int64_t>(sum), (std::vector<std::int64_t>{11, 12, 13, 21, 22, 23}));
    auto product = eval(node("Mul", {&m, &v}), {&m, &v});
    EXPECT_EQ(valuesOf<std::int64_t>(product), (std::vector<std::int64_t>{10, 20, 30, 20, 40, 60}));
    auto seven = ints("s", {}, {-7}), zero = ints("z", {}, {0});
    EXPECT_NE(whyNot(node("Div", {&seven, &zero}), {&seven, &zero}), "(folded)");
}

TEST(ReferenceFolding, CastEqualWhereRange) {
    auto f = floats("f", {2}, {2.7f, -1.5f});
    auto cast = node("Cast", {&f});
    setInt(cast, "to", onnx::TensorProto::INT64);
    EXPECT_EQ(valuesOf<std::int64_t>(eval(cast, {&f})), (std::vector<std::int64_t>{2, -1}));
    auto toFloat = node("Cast", {&f});
    setInt(toFloat, "to", onnx::TensorProto::DOUBLE);
    EXPECT_EQ(valuesOf<double>(eval(toFloat, {&f})), (std::vector<double>{2.7f, -1.5f}));

    auto shape = ints("shape", {3}, {1, -1, -1}), minusOnes = ints("m", {3}, {-1, -1, -1});
    auto equal = eval(node("Equal", {&shape, &minusOnes}), {&shape, &minusOnes});
    EXPECT_EQ(equal.data_type(), onnx::TensorProto::BOOL);
    EXPECT_EQ(valuesOf<std::uint8_t>(equal), (std::vector<std::uint8_t>{0, 1, 1}));

    auto cond = bools("c", {2}, {1, 0});
    auto a = ints("a", {2}, {1, 2}), b = ints("b", {2}, {9, 9});
    EXPECT_EQ(valuesOf<std::int64_t>(eval(node("Where", {&cond, &a, &b}), {&cond, &a, &b})),
              (std::vector<std::int64_t>{1, 9}));

    auto s = ints("s", {}, {1}), l = ints("l", {}, {7}), d = ints("d", {}, {2});
    auto range = eval(node("Range", {&s, &l, &d}), {&s, &l, &d});
    EXPECT_EQ(dimsOf(range), (std::vector<std::int64_t>{3}));
    EXPECT_EQ(valuesOf<std::int64_t>(range), (std::vector<std::int64_t>{1, 3, 5}));
    auto fs = floats("fs", {}, {0.f}), fl = floats("fl", {}, {2.f}), fd = floats("fd", {}, {0.5f});
    EXPECT_EQ(valuesOf<float>(eval(node("Range", {&fs, &fl, &fd}), {&fs, &fl, &fd})),
              (std::vector<float>{0.f, 0.5f, 1.f, 1.5f}));
}

TEST(ReferenceFolding, ConstantOfShapeWithAndWithoutValue) {
    auto shape = ints("s", {2}, {2, 3});
    auto zeros = eval(node("ConstantOfShape", {&shape}), {&shape});
    EXPECT_EQ(zeros.data_type(), onnx::TensorProto::FLOAT);
    EXPECT_EQ(valuesOf<float>(zeros), std::vector<float>(6, 0.f));

    auto ones = node("ConstantOfShape", {&shape});
    auto* value = ones.add_attribute();
    value->set_name("value");
    value->set_type(onnx::AttributeProto::TENSOR);
    *value->mutable_t() = ints("", {1}, {1});
    auto r = eval(ones, {&shape});
    EXPECT_EQ(r.data_type(), onnx::TensorProto::INT64);
    EXPECT_EQ(dimsOf(r), (std::vector<std::int64_t>{2, 3}));
    EXPECT_EQ(valuesOf<std::int64_t>(r), std::vector<std::int64_t>(6, 1));
}

TEST(ReferenceFolding, ExpandBroadcastsToTheShape) {
    auto token = floats("t", {1, 1, 3}, {0.5f, 1.5f, 2.5f});
    auto shape = ints("s", {3}, {2, 1, 1});
    auto r = eval(node("Expand", {&token, &shape}), {&token, &shape});
    EXPECT_EQ(dimsOf(r), (std::vector<std::int64_t>{2, 1, 3}));
    EXPECT_EQ(valuesOf<float>(r), (std::vector<float>{0.5f, 1.5f, 2.5f, 0.5f, 1.5f, 2.5f}));
}

TEST(ReferenceFolding, OpsBeyondShapeArithmetic) {
    // No list of "shape ops": whatever has a reference kernel folds (here a Softmax and a
    // Trilu, as attention masks are built).
    auto x = floats("x", {2}, {0.f, 0.f});
    EXPECT_EQ(valuesOf<float>(eval(node("Softmax", {&x}), {&x})), (std::vector<float>{0.5f, 0.5f}));
    auto m = ints("m", {2, 2}, {1, 1, 1, 1});
    EXPECT_EQ(valuesOf<std::int64_t>(eval(node("Trilu", {&m}), {&m})),
              (std::vector<std::int64_t>{1, 1, 0, 1}));
}

TEST(ReferenceFolding, RefusesWhatItCannotEvaluate) {
    auto shape = ints("s", {2}, {4096, 4096});
    EXPECT_NE(whyNot(node("ConstantOfShape", {&shape}), {&shape}).find("computed at run time"),
              std::string::npos);
    auto square = floats("q", {2, 2}, {1.f, 2.f, 3.f, 4.f});
    EXPECT_NE(whyNot(node("Det", {&square}), {&square}).find("not supported"), std::string::npos);
    auto x = ints("x", {3}, {3, 1, 2});
    auto data = ints("d", {3}, {1, 2, 3}), idx = ints("i", {1}, {5});
    EXPECT_NE(whyNot(node("Gather", {&data, &idx}), {&data, &idx}).find("out of range"),
              std::string::npos);
    auto custom = node("Relu", {&x});
    custom.set_domain("com.example");
    EXPECT_NE(whyNot(custom, {&x}), "(folded)");
}

} // namespace
} // namespace strata::model
