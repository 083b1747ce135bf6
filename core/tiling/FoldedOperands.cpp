#include "tiling/FoldedOperands.h"

#include <string_view>
#include <unordered_map>

namespace strata::tiling {
namespace {

// Per op type, a bit per input the op's kernel takes from the graph at compile time
// (compiler/emit/KernelCall.cpp's handlers read them with constantInts or constantScalar and
// keep only the inputs before them).
unsigned foldedInputsOf(std::string_view type) {
    static const std::unordered_map<std::string_view, unsigned> kFolded = [] {
        std::unordered_map<std::string_view, unsigned> m;
        for (std::string_view t : {"Reshape", "Squeeze", "Unsqueeze", "Expand", "Split"})
            m.emplace(t, 0b10u);      // shape, axes, split
        m.emplace("Slice", 0b11110u); // starts, ends, axes, steps
        m.emplace("Pad", 0b1110u);    // pads, constant_value, axes
        m.emplace("Resize", 0b1110u); // roi, scales, sizes
        m.emplace("Clip", 0b110u);    // min, max
        for (std::string_view t :
             {"ReduceL1", "ReduceL2", "ReduceLogSum", "ReduceLogSumExp", "ReduceMax", "ReduceMean",
              "ReduceMin", "ReduceProd", "ReduceSum", "ReduceSumSquare"})
            m.emplace(t, 0b10u); // axes
        return m;
    }();
    const auto it = kFolded.find(type);
    return it == kFolded.end() ? 0u : it->second;
}

} // namespace

bool isFoldedOperand(const ir::Graph& graph, const ir::Op& op, std::size_t input) {
    if (!op.domain.empty() || input >= op.inputs.size() || input >= 32 ||
        !op.inputs[input].valid() || !graph.value(op.inputs[input]).isConstant)
        return false;
    return (foldedInputsOf(op.type) >> input) & 1u;
}

} // namespace strata::tiling
