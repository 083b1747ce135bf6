// inputRegions(): picks the rule for an op, runs it once per requested output and unions the
// answers. Elementwise rules live here; the other families have their own RegionRules*.cpp.

#include "tiling/FoldedOperands.h"
#include "tiling/Region.h"
#include "tiling/RegionRules.h"

#include <algorithm>
#include <cassert>
#include <string_view>
#include <unordered_map>

namespace strata::tiling {

namespace rules {

// Same position in every operand, with numpy broadcasting. Scalars (Clip's min/max, Dropout's
// ratio) are rank 0 and come out as the one-element region.
InputRegions elementwiseRule(const RuleContext& ctx) {
    InputRegions regions(ctx.inputCount());
    for (std::size_t i = 0; i < ctx.inputCount(); ++i)
        if (ctx.hasInput(i)) regions[i] = broadcastRegion(ctx.out, ctx.inputShape(i));
    return regions;
}

// CastLike reads only the dtype of its second input, never its data.
InputRegions castLikeRule(const RuleContext& ctx) {
    InputRegions regions(ctx.inputCount());
    regions[0] = broadcastRegion(ctx.out, ctx.inputShape(0));
    return regions;
}

} // namespace rules

namespace {

using rules::Rule;

// Same-position ops: broadcasting arithmetic, activations, comparisons, logic, casts.
// clang-format off
constexpr std::string_view kElementwise[] = {
    "Abs", "Acos", "Acosh", "Add", "And", "Asin", "Asinh", "Atan", "Atanh", "BitShift",
    "BitwiseAnd", "BitwiseNot", "BitwiseOr", "BitwiseXor", "Cast", "Ceil", "Celu", "Clip", "Cos",
    "Cosh", "Div", "Dropout", "Elu", "Equal", "Erf", "Exp", "Floor", "Gelu", "Greater",
    "GreaterOrEqual", "HardSigmoid", "HardSwish", "Identity", "IsInf", "IsNaN", "LeakyRelu",
    "Less", "LessOrEqual", "Log", "Max", "Mean", "Min", "Mish", "Mod", "Mul", "Neg", "Not", "Or",
    "Pow", "PRelu", "Reciprocal", "Relu", "Round", "Selu", "Shrink", "Sigmoid", "Sign", "Sin",
    "Sinh", "Softplus", "Softsign", "Sqrt", "Sub", "Sum", "Tan", "Tanh", "ThresholdedRelu",
    "Where", "Xor",
};
// clang-format on

// Rules of the default ONNX domain; ops not listed need their whole inputs.
Rule ruleFor(const ir::Op& op) {
    if (!op.domain.empty()) return rules::fullInputs;
    static const std::unordered_map<std::string_view, Rule> kRules = [] {
        std::unordered_map<std::string_view, Rule> m;
        for (std::string_view t : kElementwise) m.emplace(t, rules::elementwiseRule);
        m["Expand"] = rules::expandRule;
        m["CastLike"] = rules::castLikeRule;
        m["Conv"] = rules::convRule;
        m["ConvTranspose"] = rules::convTransposeRule;
        for (std::string_view t : {"MaxPool", "AveragePool", "LpPool"})
            m.emplace(t, rules::poolRule);
        for (std::string_view t : {"GlobalAveragePool", "GlobalMaxPool", "GlobalLpPool"})
            m.emplace(t, rules::globalPoolRule);
        m["MatMul"] = rules::matMulRule;
        m["Gemm"] = rules::gemmRule;
        m["Einsum"] = rules::einsumRule;
        m["BatchNormalization"] = rules::batchNormRule;
        m["InstanceNormalization"] = rules::instanceNormRule;
        m["LayerNormalization"] = rules::layerNormRule;
        m["GroupNormalization"] = rules::groupNormRule;
        for (std::string_view t : {"Softmax", "LogSoftmax", "Hardmax"})
            m.emplace(t, rules::softmaxRule);
        for (std::string_view t :
             {"ReduceL1", "ReduceL2", "ReduceLogSum", "ReduceLogSumExp", "ReduceMax", "ReduceMean",
              "ReduceMin", "ReduceProd", "ReduceSum", "ReduceSumSquare"})
            m.emplace(t, rules::reduceRule);
        for (std::string_view t : {"ArgMax", "ArgMin"}) m.emplace(t, rules::argReduceRule);
        m["Transpose"] = rules::transposeRule;
        for (std::string_view t : {"Reshape", "Flatten", "Squeeze", "Unsqueeze"})
            m.emplace(t, rules::reshapeRule);
        m["Concat"] = rules::concatRule;
        m["Split"] = rules::splitRule;
        m["Slice"] = rules::sliceRule;
        m["Pad"] = rules::padRule;
        m["Gather"] = rules::gatherRule;
        m["Tile"] = rules::tileRule;
        for (std::string_view t : {"Resize", "Upsample"}) m.emplace(t, rules::resizeRule);
        for (std::string_view t : {"DepthToSpace", "SpaceToDepth"})
            m.emplace(t, rules::spaceDepthRule);
        return m;
    }();
    auto it = kRules.find(op.type);
    return it == kRules.end() ? rules::fullInputs : it->second;
}

// Clamps to `shape`; a region of the wrong rank is a caller bug, answered with the whole shape.
Region clampRegion(const Region& region, const ir::Shape& shape) {
    assert(region.size() == shape.size());
    if (region.size() != shape.size()) return fullRegion(shape);
    Region out(region.size());
    for (std::size_t d = 0; d < region.size(); ++d) {
        const std::int64_t begin = std::clamp<std::int64_t>(region[d].begin, 0, shape[d]);
        const std::int64_t end = std::clamp<std::int64_t>(region[d].end, begin, shape[d]);
        out[d] = {begin, end};
    }
    return out;
}

} // namespace

std::vector<std::optional<Region>>
inputRegions(const ir::Graph& graph, const ir::Op& op,
             const std::vector<std::optional<Region>>& outputRegions) {
    std::vector<std::optional<Region>> result(op.inputs.size());
    const Rule rule = ruleFor(op);
    const std::size_t outputs = std::min(outputRegions.size(), op.outputs.size());
    for (std::size_t k = 0; k < outputs; ++k) {
        if (!outputRegions[k] || !op.outputs[k].valid()) continue;
        const Region out = clampRegion(*outputRegions[k], graph.value(op.outputs[k]).shape);
        if (regionEmpty(out)) continue; // nothing to compute, nothing to read
        const auto part = rule(rules::RuleContext{graph, op, k, out});
        assert(part.size() == op.inputs.size());
        for (std::size_t i = 0; i < part.size(); ++i) {
            if (!part[i] || !op.inputs[i].valid() || isFoldedOperand(graph, op, i))
                continue;
            Region in = clampRegion(*part[i], graph.value(op.inputs[i]).shape);
            if (regionEmpty(in)) continue;
            result[i] = result[i] ? regionUnion(*result[i], in) : std::move(in);
        }
    }
    return result;
}

} // namespace strata::tiling
