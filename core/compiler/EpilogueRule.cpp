#include "compiler/EpilogueRule.h"

#include <algorithm>
#include <array>
#include <string_view>

namespace strata::compiler {
namespace {

bool foldable(const std::string& type) {
    static constexpr std::array<std::string_view, 11> kTypes = {
        "Relu", "Clip", "Sigmoid", "HardSigmoid", "HardSwish", "LeakyRelu",
        "Elu",  "Tanh", "Add",     "Sub",         "Mul"};
    return std::find(kTypes.begin(), kTypes.end(), type) != kTypes.end();
}

} // namespace

bool takesEpilogues(const ir::Op& op) {
    return op.domain.empty() && (op.type == "Conv" || op.type == "Gemm" || op.type == "MatMul");
}

const ir::Op* epilogueConsumer(const ir::Graph& graph, const ir::Op& producer) {
    if (producer.outputs.empty() || !producer.outputs[0].valid())
        return nullptr;
    const ir::ValueId v = producer.outputs[0];
    const ir::Value& value = graph.value(v);
    if (value.dtype != ir::DType::Float32 || value.consumers.size() != 1 ||
        std::find(graph.outputs.begin(), graph.outputs.end(), v) != graph.outputs.end())
        return nullptr;
    const ir::Op& consumer = graph.op(value.consumers.front());
    if (!consumer.domain.empty() || !foldable(consumer.type) || consumer.outputs.empty() ||
        std::count(consumer.inputs.begin(), consumer.inputs.end(), v) != 1)
        return nullptr;
    const ir::Value& out = graph.value(consumer.outputs[0]);
    if (out.dtype != ir::DType::Float32 || out.shape != value.shape)
        return nullptr;
    return &consumer;
}

} // namespace strata::compiler
