#pragma once
// Internal to bounds inference: what a per-op rule sees, the helpers rules share, and the rules
// themselves, grouped by op family (one .cpp per family). inputRegions() in RegionInference.cpp
// picks the rule, calls it once per requested output and unions the answers.

#include "ir/ConstantValues.h"
#include "tiling/Region.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace strata::tiling::rules {

using InputRegions = std::vector<std::optional<Region>>;

// One requested output of one op. `out` is clamped to the output's shape and not empty.
struct RuleContext {
    const ir::Graph& graph;
    const ir::Op& op;
    std::size_t outputIndex;
    const Region& out;

    std::size_t inputCount() const { return op.inputs.size(); }
    bool hasInput(std::size_t i) const { return i < op.inputs.size() && op.inputs[i].valid(); }
    const ir::Shape& inputShape(std::size_t i) const { return graph.value(op.inputs[i]).shape; }
    const ir::Shape& outputShape() const { return graph.value(op.outputs[outputIndex]).shape; }
    // Elements of constant input `i` (int64 or int32); nullopt when absent or not constant.
    std::optional<std::vector<std::int64_t>> constantInput(std::size_t i) const;
};

// A rule answers for one output; entries are clamped and empty ones dropped by the caller.
using Rule = InputRegions (*)(const RuleContext&);

// --- shared helpers (RegionRules.cpp) ---

using ir::constantFloats;
using ir::constantInts;

// Every present input whole: the conservative answer, and the start of most rules.
InputRegions fullInputs(const RuleContext& ctx);

// The region of an input broadcast (numpy rules, right-aligned) to an output region: a dim of
// size 1 is [0,1), others follow the output. The input's rank must not exceed the output's.
Region broadcastRegion(const Region& out, const ir::Shape& inShape);

// Negative axes count from the back; nullopt when out of range.
std::optional<std::size_t> normalizeAxis(std::int64_t axis, std::size_t rank);

std::int64_t floorDiv(std::int64_t a, std::int64_t b); // b > 0
std::int64_t ceilDiv(std::int64_t a, std::int64_t b);  // b > 0

// A string attribute, or `fallback`.
std::string_view attrString(const ir::Op& op, std::string_view name, std::string_view fallback);

// --- rules, by family ---

// RegionInference.cpp: same-position ops.
InputRegions elementwiseRule(const RuleContext& ctx);
InputRegions castLikeRule(const RuleContext& ctx);

// RegionRulesConv.cpp: sliding windows.
InputRegions convRule(const RuleContext& ctx);
InputRegions convTransposeRule(const RuleContext& ctx);
InputRegions poolRule(const RuleContext& ctx);
InputRegions globalPoolRule(const RuleContext& ctx);

// RegionRulesMatMul.cpp: contractions.
InputRegions matMulRule(const RuleContext& ctx);
InputRegions gemmRule(const RuleContext& ctx);
InputRegions einsumRule(const RuleContext& ctx);

// RegionRulesReduce.cpp: ops that read whole axes (normalizations, softmax, reductions).
InputRegions batchNormRule(const RuleContext& ctx);
InputRegions instanceNormRule(const RuleContext& ctx);
InputRegions layerNormRule(const RuleContext& ctx);
InputRegions groupNormRule(const RuleContext& ctx);
InputRegions softmaxRule(const RuleContext& ctx);
InputRegions reduceRule(const RuleContext& ctx);
InputRegions argReduceRule(const RuleContext& ctx);

// RegionRulesShape.cpp: data movement.
InputRegions transposeRule(const RuleContext& ctx);
InputRegions reshapeRule(const RuleContext& ctx);
InputRegions concatRule(const RuleContext& ctx);
InputRegions splitRule(const RuleContext& ctx);
InputRegions sliceRule(const RuleContext& ctx);
InputRegions padRule(const RuleContext& ctx);
InputRegions gatherRule(const RuleContext& ctx);
InputRegions expandRule(const RuleContext& ctx);
InputRegions tileRule(const RuleContext& ctx);
InputRegions resizeRule(const RuleContext& ctx);
InputRegions spaceDepthRule(const RuleContext& ctx);

} // namespace strata::tiling::rules
