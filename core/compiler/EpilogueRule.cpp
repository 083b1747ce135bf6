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

// A float32 value of `shape`, no graph output, read by exactly `readers` ops.
bool intermediate(const ir::Graph& graph, ir::ValueId v, std::size_t readers) {
    const ir::Value& value = graph.value(v);
    return value.dtype == ir::DType::Float32 && value.consumers.size() == readers &&
           std::find(graph.outputs.begin(), graph.outputs.end(), v) == graph.outputs.end();
}

bool sameShapeFloatOutput(const ir::Graph& graph, const ir::Op& op, const ir::Value& like) {
    if (!op.domain.empty() || op.outputs.empty() || !op.outputs[0].valid())
        return false;
    const ir::Value& out = graph.value(op.outputs[0]);
    return out.dtype == ir::DType::Float32 && out.shape == like.shape;
}

} // namespace

const ir::Op* siluSigmoid(const ir::Graph& graph, const ir::Op& producer) {
    if (producer.outputs.empty() || !producer.outputs[0].valid())
        return nullptr;
    const ir::ValueId v = producer.outputs[0];
    if (!intermediate(graph, v, 2))
        return nullptr;
    const ir::Value& value = graph.value(v);
    const ir::Op& a = graph.op(value.consumers[0]);
    const ir::Op& b = graph.op(value.consumers[1]);
    const ir::Op& sigmoid = a.type == "Sigmoid" ? a : b;
    const ir::Op& mul = a.type == "Sigmoid" ? b : a;
    if (sigmoid.type != "Sigmoid" || mul.type != "Mul" || sigmoid.inputs.size() != 1 ||
        mul.inputs.size() != 2 || !sameShapeFloatOutput(graph, sigmoid, value) ||
        !sameShapeFloatOutput(graph, mul, value) || !intermediate(graph, sigmoid.outputs[0], 1))
        return nullptr;
    const ir::ValueId s = sigmoid.outputs[0];
    const bool reads =
        (mul.inputs[0] == v && mul.inputs[1] == s) || (mul.inputs[0] == s && mul.inputs[1] == v);
    return reads ? &sigmoid : nullptr;
}

bool takesEpilogues(const ir::Op& op) {
    return op.domain.empty() && (op.type == "Conv" || op.type == "Gemm" || op.type == "MatMul");
}

const ir::Op* epilogueConsumer(const ir::Graph& graph, const ir::Op& producer) {
    if (producer.outputs.empty() || !producer.outputs[0].valid())
        return nullptr;
    const ir::ValueId v = producer.outputs[0];
    const ir::Value& value = graph.value(v);
    if (const ir::Op* sigmoid = siluSigmoid(graph, producer))
        return &graph.op(graph.value(sigmoid->outputs[0]).consumers.front());
    if (!intermediate(graph, v, 1))
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
