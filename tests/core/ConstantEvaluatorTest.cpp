// The evaluator behind constant folding, op by op against hand-computed results.

#include "model/ConstantEvaluator.h"

#include <gtest/gtest.h>

namespace strata::model {
namespace {

ConstTensor ints(ir::Shape shape, std::vector<std::int64_t> values) {
    ConstTensor t;
    t.dtype = ir::DType::Int64;
    t.shape = std::move(shape);
    t.ints = std::move(values);
    return t;
}

ConstTensor floats(ir::Shape shape, std::vector<double> values) {
    ConstTensor t;
    t.dtype = ir::DType::Float32;
    t.shape = std::move(shape);
    t.reals = std::move(values);
    return t;
}

onnx::NodeProto node(const std::string& type, int outputs = 1) {
    onnx::NodeProto n;
    n.set_op_type(type);
    for (int i = 0; i < outputs; ++i) n.add_output("o" + std::to_string(i));
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
    for (auto x : v) a->add_ints(x);
}

ConstTensor eval(const onnx::NodeProto& n, std::vector<const ConstTensor*> in, std::int64_t opset = 17) {
    auto r = evaluateConstantNode(n, opset, in);
    EXPECT_TRUE(r.has_value()) << n.op_type();
    return r ? (*r)[0] : ConstTensor{};
}

TEST(ConstantEvaluator, GatherAlongAxis) {
    auto data = ints({2, 3}, {1, 2, 3, 4, 5, 6});
    auto idx = ints({2}, {2, -3});
    auto n = node("Gather");
    setInt(n, "axis", 1);
    auto r = eval(n, {&data, &idx});
    EXPECT_EQ(r.shape, (ir::Shape{2, 2}));
    EXPECT_EQ(r.ints, (std::vector<std::int64_t>{3, 1, 6, 4}));
    auto scalar = ints({}, {1});
    auto row = eval(node("Gather"), {&data, &scalar});
    EXPECT_EQ(row.shape, (ir::Shape{3}));
    EXPECT_EQ(row.ints, (std::vector<std::int64_t>{4, 5, 6}));
}

TEST(ConstantEvaluator, SliceWithNegativeStep) {
    auto data = ints({5}, {0, 1, 2, 3, 4});
    auto starts = ints({1}, {-1}), ends = ints({1}, {-6}), axes = ints({1}, {0}), steps = ints({1}, {-2});
    auto r = eval(node("Slice"), {&data, &starts, &ends, &axes, &steps});
    EXPECT_EQ(r.ints, (std::vector<std::int64_t>{4, 2, 0}));
}

TEST(ConstantEvaluator, ReshapeZeroAndMinusOne) {
    auto data = ints({2, 3, 4}, std::vector<std::int64_t>(24, 7));
    auto shape = ints({2}, {0, -1});
    auto r = eval(node("Reshape"), {&data, &shape});
    EXPECT_EQ(r.shape, (ir::Shape{2, 12}));
    auto bad = ints({2}, {5, -1});
    EXPECT_FALSE(evaluateConstantNode(node("Reshape"), 17, {&data, &bad}).has_value());
}

TEST(ConstantEvaluator, UnsqueezeAttributeAndInputForms) {
    auto x = ints({2}, {3, 4});
    auto n11 = node("Unsqueeze");
    setInts(n11, "axes", {0});
    EXPECT_EQ(eval(n11, {&x}, 11).shape, (ir::Shape{1, 2}));
    auto axes = ints({2}, {0, -1});
    EXPECT_EQ(eval(node("Unsqueeze"), {&x, &axes}, 13).shape, (ir::Shape{1, 2, 1}));
}

TEST(ConstantEvaluator, ConcatAndBroadcastArithmetic) {
    auto a = ints({1}, {1}), b = ints({2}, {-1, 8});
    auto n = node("Concat");
    setInt(n, "axis", 0);
    EXPECT_EQ(eval(n, {&a, &b}).ints, (std::vector<std::int64_t>{1, -1, 8}));
    auto m = ints({2, 1}, {10, 20}), v = ints({3}, {1, 2, 3});
    auto sum = eval(node("Add"), {&m, &v});
    EXPECT_EQ(sum.shape, (ir::Shape{2, 3}));
    EXPECT_EQ(sum.ints, (std::vector<std::int64_t>{11, 12, 13, 21, 22, 23}));
    auto seven = ints({}, {-7}), two = ints({}, {2});
    EXPECT_EQ(eval(node("Div"), {&seven, &two}).ints[0], -3); // truncates like C++
    auto zero = ints({}, {0});
    EXPECT_FALSE(evaluateConstantNode(node("Div"), 17, {&seven, &zero}).has_value());
}

TEST(ConstantEvaluator, CastWhereRangeConstantOfShape) {
    auto f = floats({2}, {2.7, -1.5});
    auto n = node("Cast");
    setInt(n, "to", 7);
    EXPECT_EQ(eval(n, {&f}).ints, (std::vector<std::int64_t>{2, -1}));
    ConstTensor cond = ints({2}, {1, 0});
    cond.dtype = ir::DType::Bool;
    auto a = ints({2}, {1, 2}), b = ints({2}, {9, 9});
    EXPECT_EQ(eval(node("Where"), {&cond, &a, &b}).ints, (std::vector<std::int64_t>{1, 9}));
    auto s = ints({}, {1}), l = ints({}, {7}), d = ints({}, {2});
    EXPECT_EQ(eval(node("Range"), {&s, &l, &d}).ints, (std::vector<std::int64_t>{1, 3, 5}));
    auto shape = ints({2}, {2, 2});
    auto zeros = eval(node("ConstantOfShape"), {&shape});
    EXPECT_EQ(zeros.dtype, ir::DType::Float32);
    EXPECT_EQ(zeros.reals, (std::vector<double>{0, 0, 0, 0}));
}

TEST(ConstantEvaluator, ReduceAndTranspose) {
    auto x = ints({2, 3}, {1, 2, 3, 4, 5, 6});
    auto n = node("ReduceProd");
    setInts(n, "axes", {1});
    setInt(n, "keepdims", 0);
    auto r = eval(n, {&x});
    EXPECT_EQ(r.shape, (ir::Shape{2}));
    EXPECT_EQ(r.ints, (std::vector<std::int64_t>{6, 120}));
    auto t = eval(node("Transpose"), {&x});
    EXPECT_EQ(t.shape, (ir::Shape{3, 2}));
    EXPECT_EQ(t.ints, (std::vector<std::int64_t>{1, 4, 2, 5, 3, 6}));
}

TEST(ConstantEvaluator, RefusesLargeResultsAndUnknownOps) {
    auto shape = ints({2}, {1024, 1024});
    EXPECT_FALSE(evaluateConstantNode(node("ConstantOfShape"), 17, {&shape}).has_value());
    auto x = ints({1}, {1});
    EXPECT_FALSE(evaluateConstantNode(node("Conv"), 17, {&x}).has_value());
}

} // namespace
} // namespace strata::model
