#include "model/DataDependence.h"

#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>

namespace strata::model {

namespace {

// Whether input `index` of `op` sets its output's shape by its values (default domain, opsets
// up to 18). Inputs not listed shape the output through their own shape only.
bool valuesSetShape(std::string_view op, int index) {
    static const std::unordered_map<std::string_view, std::vector<int>> kInputs{
        {"Reshape", {1}},
        {"Expand", {1}},
        {"Tile", {1}},
        {"Slice", {1, 2, 3, 4}},
        {"Range", {0, 1, 2}},
        {"ConstantOfShape", {0}},
        {"Pad", {1, 3}},
        {"Resize", {2, 3}},
        {"Upsample", {1}},
        {"TopK", {1}},
        {"OneHot", {1}},
        {"Squeeze", {1}},
        {"Unsqueeze", {1}},
        {"Split", {1}},
        {"ReduceSum", {1}},
        {"ReduceMean", {1}},
        {"ReduceMax", {1}},
        {"ReduceMin", {1}},
        {"ReduceProd", {1}},
        {"ReduceL1", {1}},
        {"ReduceL2", {1}},
        {"ReduceLogSum", {1}},
        {"ReduceLogSumExp", {1}},
        {"ReduceSumSquare", {1}},
        {"NonZero", {0}},
        {"Compress", {1}},
        {"Unique", {0}},
        {"NonMaxSuppression", {0, 1, 2, 3, 4}},
        {"CenterCropPad", {1}},
    };
    auto it = kInputs.find(op);
    if (it == kInputs.end())
        return false;
    for (int i : it->second)
        if (i == index)
            return true;
    return false;
}

enum class Need { Shape, Values };

} // namespace

std::vector<std::string> graphInputsShaping(const onnx::GraphProto& graph,
                                            const std::string& value) {
    std::unordered_set<std::string> initializers;
    for (const auto& t : graph.initializer())
        initializers.insert(t.name());
    std::unordered_map<std::string, const onnx::NodeProto*> producer;
    for (const auto& node : graph.node())
        for (const auto& out : node.output())
            if (!out.empty())
                producer.emplace(out, &node);

    std::unordered_set<std::string> seen[2]; // by Need
    std::vector<std::pair<std::string, Need>> stack{{value, Need::Shape}};
    auto push = [&](const std::string& name, Need need) {
        if (!name.empty() && !initializers.count(name) && seen[int(need)].insert(name).second)
            stack.emplace_back(name, need);
    };
    while (!stack.empty()) {
        const auto [name, need] = stack.back();
        stack.pop_back();
        auto it = producer.find(name);
        if (it == producer.end())
            continue; // a graph input (its shape is static; its values are what we look for)
        const onnx::NodeProto& node = *it->second;
        const bool readsShape = node.op_type() == "Shape" || node.op_type() == "Size";
        for (int i = 0; i < node.input_size(); ++i) {
            if (need == Need::Values)
                push(node.input(i), readsShape ? Need::Shape : Need::Values);
            else
                push(node.input(i), valuesSetShape(node.op_type(), i) ? Need::Values : Need::Shape);
        }
    }
    std::vector<std::string> inputs;
    for (const auto& v : graph.input())
        if (seen[int(Need::Values)].count(v.name()))
            inputs.push_back(v.name());
    return inputs;
}

} // namespace strata::model
