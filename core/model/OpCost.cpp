#include "model/OpCost.h"

#include "tiling/EinsumEquation.h"

#include <array>
#include <numeric>
#include <variant>
#include <vector>
#include <string>
#include <utility>

namespace strata::model {

namespace {

using ir::OpClass;

// Sorted by name for binary search.
constexpr std::array<std::pair<std::string_view, OpClass>, 113> kClasses = {{
    {"Abs", OpClass::Elementwise},
    {"Acos", OpClass::Elementwise},
    {"Acosh", OpClass::Elementwise},
    {"Add", OpClass::Elementwise},
    {"And", OpClass::Elementwise},
    {"ArgMax", OpClass::Reduction},
    {"ArgMin", OpClass::Reduction},
    {"Asin", OpClass::Elementwise},
    {"Asinh", OpClass::Elementwise},
    {"Atan", OpClass::Elementwise},
    {"Atanh", OpClass::Elementwise},
    {"AveragePool", OpClass::Pooling},
    {"BatchNormalization", OpClass::Normalization},
    {"BitShift", OpClass::Elementwise},
    {"Cast", OpClass::Elementwise},
    {"CastLike", OpClass::Elementwise},
    {"Ceil", OpClass::Elementwise},
    {"Celu", OpClass::Elementwise},
    {"Clip", OpClass::Elementwise},
    {"Concat", OpClass::DataMovement},
    {"ConstantOfShape", OpClass::DataMovement},
    {"Conv", OpClass::Conv},
    {"ConvTranspose", OpClass::Conv},
    {"Cos", OpClass::Elementwise},
    {"Cosh", OpClass::Elementwise},
    {"CumSum", OpClass::Reduction},
    {"DepthToSpace", OpClass::DataMovement},
    {"DequantizeLinear", OpClass::Elementwise},
    {"Div", OpClass::Elementwise},
    {"Dropout", OpClass::Elementwise},
    {"Einsum", OpClass::MatMul},
    {"Elu", OpClass::Elementwise},
    {"Equal", OpClass::Elementwise},
    {"Erf", OpClass::Elementwise},
    {"Exp", OpClass::Elementwise},
    {"Expand", OpClass::DataMovement},
    {"Flatten", OpClass::DataMovement},
    {"Floor", OpClass::Elementwise},
    {"Gather", OpClass::DataMovement},
    {"GatherElements", OpClass::DataMovement},
    {"GatherND", OpClass::DataMovement},
    {"Gelu", OpClass::Elementwise},
    {"Gemm", OpClass::MatMul},
    {"GlobalAveragePool", OpClass::Pooling},
    {"GlobalLpPool", OpClass::Pooling},
    {"GlobalMaxPool", OpClass::Pooling},
    {"Greater", OpClass::Elementwise},
    {"GreaterOrEqual", OpClass::Elementwise},
    {"GroupNormalization", OpClass::Normalization},
    {"HardSigmoid", OpClass::Elementwise},
    {"HardSwish", OpClass::Elementwise},
    {"Hardmax", OpClass::Softmax},
    {"Identity", OpClass::DataMovement},
    {"InstanceNormalization", OpClass::Normalization},
    {"IsInf", OpClass::Elementwise},
    {"IsNaN", OpClass::Elementwise},
    {"LRN", OpClass::Normalization},
    {"LayerNormalization", OpClass::Normalization},
    {"LeakyRelu", OpClass::Elementwise},
    {"Less", OpClass::Elementwise},
    {"LessOrEqual", OpClass::Elementwise},
    {"Log", OpClass::Elementwise},
    {"LogSoftmax", OpClass::Softmax},
    {"LpNormalization", OpClass::Normalization},
    {"LpPool", OpClass::Pooling},
    {"MatMul", OpClass::MatMul},
    {"MatMulInteger", OpClass::MatMul},
    {"Max", OpClass::Elementwise},
    {"MaxPool", OpClass::Pooling},
    {"Mean", OpClass::Elementwise},
    {"MeanVarianceNormalization", OpClass::Normalization},
    {"Min", OpClass::Elementwise},
    {"Mish", OpClass::Elementwise},
    {"Mod", OpClass::Elementwise},
    {"Mul", OpClass::Elementwise},
    {"Neg", OpClass::Elementwise},
    {"Not", OpClass::Elementwise},
    {"OneHot", OpClass::DataMovement},
    {"Or", OpClass::Elementwise},
    {"PRelu", OpClass::Elementwise},
    {"Pad", OpClass::DataMovement},
    {"Pow", OpClass::Elementwise},
    {"QuantizeLinear", OpClass::Elementwise},
    {"Reciprocal", OpClass::Elementwise},
    {"ReduceL1", OpClass::Reduction},
    {"ReduceL2", OpClass::Reduction},
    {"ReduceLogSum", OpClass::Reduction},
    {"ReduceLogSumExp", OpClass::Reduction},
    {"ReduceMax", OpClass::Reduction},
    {"ReduceMean", OpClass::Reduction},
    {"ReduceMin", OpClass::Reduction},
    {"ReduceProd", OpClass::Reduction},
    {"ReduceSum", OpClass::Reduction},
    {"ReduceSumSquare", OpClass::Reduction},
    {"Relu", OpClass::Elementwise},
    {"Reshape", OpClass::DataMovement},
    {"Resize", OpClass::Elementwise},
    {"Selu", OpClass::Elementwise},
    {"Shape", OpClass::DataMovement},
    {"Sigmoid", OpClass::Elementwise},
    {"Sign", OpClass::Elementwise},
    {"Sin", OpClass::Elementwise},
    {"Slice", OpClass::DataMovement},
    {"Softmax", OpClass::Softmax},
    {"Softplus", OpClass::Elementwise},
    {"SpaceToDepth", OpClass::DataMovement},
    {"Split", OpClass::DataMovement},
    {"Sqrt", OpClass::Elementwise},
    {"Squeeze", OpClass::DataMovement},
    {"Sub", OpClass::Elementwise},
    {"Tanh", OpClass::Elementwise},
    {"Tile", OpClass::DataMovement},
    {"Transpose", OpClass::DataMovement},
}};

const ir::Value* input(const ir::Graph& g, const ir::Op& op, std::size_t i) {
    return i < op.inputs.size() && op.inputs[i].valid() ? &g.value(op.inputs[i]) : nullptr;
}

double product(const ir::Shape& s, std::size_t from = 0) {
    double p = 1;
    for (std::size_t i = from; i < s.size(); ++i) p *= double(s[i]);
    return p;
}

// An Einsum evaluates, for every combination of its labels' values (output and summed ones
// alike), the product of one element per operand and adds it in: operands - 1 multiplies and one
// add, so 2 x the product of all label extents for a contraction of two. 0 when the equation
// does not parse against the shapes (import reports that elsewhere).
double einsumFlops(const ir::Graph& g, const ir::Op& op) {
    const ir::Attribute* equation = op.attribute("equation");
    const auto* text = equation ? std::get_if<std::string>(&equation->value) : nullptr;
    if (!text) return 0;
    std::vector<ir::Shape> shapes;
    for (ir::ValueId v : op.inputs) {
        if (!v.valid()) return 0;
        shapes.push_back(g.value(v).shape);
    }
    std::string why;
    const auto labels = tiling::parseEinsum(*text, shapes, why);
    if (!labels || shapes.empty()) return 0;
    double combinations = 1;
    for (std::int64_t size : labels->sizes) combinations *= double(size);
    return double(shapes.size()) * combinations;
}

double flopsOf(const ir::Graph& g, const ir::Op& op, double outElems) {
    const std::string& t = op.type;
    switch (op.opClass) {
    case OpClass::Conv: {
        // 2 x MACs. Conv: each output element needs (Cin/group) x kernel MACs; the weight's
        // dims 1.. are exactly that. ConvTranspose: each input element scatters into
        // (Cout/group) x kernel outputs; again the weight's dims 1...
        const ir::Value* w = input(g, op, 1);
        if (!w || w->shape.size() < 2) return 0;
        if (t == "ConvTranspose") {
            const ir::Value* x = input(g, op, 0);
            return x ? 2.0 * double(x->elements()) * product(w->shape, 1) : 0;
        }
        return 2.0 * outElems * product(w->shape, 1);
    }
    case OpClass::MatMul: {
        if (t == "Einsum") return einsumFlops(g, op);
        const ir::Value* a = input(g, op, 0);
        if (!a || a->shape.empty()) return 0;
        std::int64_t k = a->shape.back();
        if (t == "Gemm" && op.attrInt("transA", 0) && a->shape.size() == 2) k = a->shape[0];
        return 2.0 * outElems * double(k);
    }
    case OpClass::Pooling: {
        if (t.rfind("Global", 0) == 0) {
            const ir::Value* x = input(g, op, 0);
            return x ? double(x->elements()) : 0;
        }
        const auto kernel = op.attrInts("kernel_shape");
        return outElems * std::accumulate(kernel.begin(), kernel.end(), 1.0,
                                          [](double a, std::int64_t b) { return a * double(b); });
    }
    case OpClass::Reduction: {
        const ir::Value* x = input(g, op, 0);
        return x ? double(x->elements()) : 0;
    }
    case OpClass::Softmax: return 5.0 * outElems;       // max, subtract, exp, sum, divide
    case OpClass::Normalization:
        return t == "BatchNormalization" ? 2.0 * outElems // folded scale and shift
                                         : 5.0 * outElems; // mean, variance, normalise, scale, shift
    case OpClass::Elementwise:
        return (t == "Cast" || t == "Dropout") ? 0.0 : outElems;
    case OpClass::DataMovement:
    case OpClass::Other: return 0;
    }
    return 0;
}

} // namespace

ir::OpClass classifyOp(std::string_view opType) {
    auto it = std::lower_bound(kClasses.begin(), kClasses.end(), opType,
                               [](const auto& entry, std::string_view key) { return entry.first < key; });
    return it != kClasses.end() && it->first == opType ? it->second : OpClass::Other;
}

ir::OpCost estimateCost(const ir::Graph& graph, const ir::Op& op) {
    ir::OpCost cost;
    double outElems = 0;
    for (ir::ValueId id : op.outputs) {
        const ir::Value& v = graph.value(id);
        outElems += double(v.elements());
        cost.bytesWritten += v.bytes();
    }
    for (std::size_t i = 0; i < op.inputs.size(); ++i) {
        if (!op.inputs[i].valid()) continue;
        const ir::Value& v = graph.value(op.inputs[i]);
        cost.bytesRead += v.bytes();
        // A data-movement op's operands after the first (Reshape's shape, Slice's starts,
        // Gather's indices) are arguments, not weights.
        const bool argument = op.opClass == OpClass::DataMovement && i >= 1;
        if (v.isConstant && !argument) cost.parameters += static_cast<std::uint64_t>(v.elements());
    }
    // Multi-output ops (Split, TopK) count the first output for per-element rules.
    if (op.outputs.size() > 1) outElems = double(graph.value(op.outputs[0]).elements());
    cost.flops = flopsOf(graph, op, outElems);
    return cost;
}

} // namespace strata::model
