#include "model/InputShapes.h"

#include <set>

namespace strata::model {

void applyInputShapes(onnx::ModelProto& model, const ImportOptions& options,
                      const std::string& file, std::vector<Diagnostic>& out) {
    onnx::GraphProto& graph = *model.mutable_graph();
    std::set<std::string> initializers;
    for (const auto& t : graph.initializer()) initializers.insert(t.name());
    std::set<std::string> unused;
    for (const auto& [name, shape] : options.inputShapes) unused.insert(name);

    std::string inputNames;
    for (auto& input : *graph.mutable_input()) {
        if (initializers.count(input.name())) continue;
        inputNames += (inputNames.empty() ? "" : ", ") + input.name();
        Location where{.file = file, .value = input.name()};
        auto* tensor = input.mutable_type()->mutable_tensor_type();
        if (auto it = options.inputShapes.find(input.name()); it != options.inputShapes.end()) {
            unused.erase(input.name());
            auto* shape = tensor->mutable_shape();
            if (shape->dim_size() > 0 && shape->dim_size() != std::ssize(it->second))
                out.push_back(warning("the given shape has rank " + std::to_string(it->second.size()) +
                                          " but the model declares rank " +
                                          std::to_string(shape->dim_size()),
                                      where));
            shape->clear_dim();
            for (std::int64_t d : it->second) shape->add_dim()->set_dim_value(d);
            continue;
        }
        if (!tensor->has_shape()) {
            out.push_back(error("graph input has no shape; give one with --input-shape " +
                                    input.name() + "=...",
                                where));
            continue;
        }
        for (int axis = 0; axis < tensor->shape().dim_size(); ++axis) {
            auto* dim = tensor->mutable_shape()->mutable_dim(axis);
            if (dim->has_dim_value()) continue;
            const std::string symbol = dim->has_dim_param() ? "'" + dim->dim_param() + "'" : "(unnamed)";
            const std::string value = std::to_string(options.defaultDynamicDim);
            if (axis == 0)
                out.push_back(note("dynamic batch dim " + symbol + " set to " + value, where));
            else
                out.push_back(warning("dynamic dim " + symbol + " at axis " + std::to_string(axis) +
                                          " set to " + value + "; choose it with --input-shape " +
                                          input.name() + "=...",
                                      where));
            dim->set_dim_value(options.defaultDynamicDim);
        }
    }
    for (const auto& name : unused)
        out.push_back(error("--input-shape names '" + name + "', which is not a graph input (inputs: " +
                                inputNames + ")",
                            {.file = file}));

    graph.clear_value_info();
    for (auto& output : *graph.mutable_output())
        if (output.has_type() && output.type().has_tensor_type())
            output.mutable_type()->mutable_tensor_type()->clear_shape();
}

} // namespace strata::model
