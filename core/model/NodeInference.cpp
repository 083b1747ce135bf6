#include "model/NodeInference.h"

#include <onnx/defs/schema.h>
#include <onnx/shape_inference/implementation.h>
#include <unordered_map>

namespace strata::model {

Expected<std::vector<onnx::TypeProto>>
inferNodeTypes(const onnx::NodeProto& node, std::int64_t opset,
               const std::vector<const onnx::TypeProto*>& inputTypes,
               const std::vector<const onnx::TensorProto*>& inputData) {
    const Location where{.node = node.name()};
    if (!node.domain().empty() && node.domain() != "ai.onnx")
        return error(node.op_type() + ": not in the default domain", where);
    const onnx::OpSchema* schema =
        onnx::OpSchemaRegistry::Schema(node.op_type(), int(opset), /*domain=*/"");
    if (!schema || !schema->has_type_and_shape_inference_function())
        return error(node.op_type() + ": onnx has no shape inference for this op at opset " +
                         std::to_string(opset),
                     where);
    std::unordered_map<std::string, onnx::TypeProto*> types;
    std::unordered_map<std::string, const onnx::TensorProto*> data;
    for (int i = 0; i < node.input_size(); ++i) {
        const auto k = std::size_t(i);
        // The context's interface is not const-correct; inference only reads input types.
        if (k < inputTypes.size() && inputTypes[k])
            types.emplace(node.input(i), const_cast<onnx::TypeProto*>(inputTypes[k]));
        if (k < inputData.size() && inputData[k])
            data.emplace(node.input(i), inputData[k]);
    }
    onnx::NodeProto copy = node; // the context wants a mutable node
    onnx::shape_inference::InferenceContextImpl ctx(copy, types, data, {});
    try {
        schema->GetTypeAndShapeInferenceFunction()(ctx);
    } catch (const std::exception& e) {
        return error(node.op_type() + ": onnx's shape inference fails: " + e.what(), where);
    }
    std::vector<onnx::TypeProto> outputs;
    for (int k = 0; k < node.output_size(); ++k)
        outputs.push_back(*ctx.getOutputType(std::size_t(k)));
    return outputs;
}

bool staticDims(const onnx::TypeProto& type, std::vector<std::int64_t>& dims) {
    if (!type.has_tensor_type() || !type.tensor_type().has_shape())
        return false;
    dims.clear();
    for (const auto& d : type.tensor_type().shape().dim()) {
        if (!d.has_dim_value() || d.dim_value() < 0)
            return false;
        dims.push_back(d.dim_value());
    }
    return true;
}

} // namespace strata::model
