#include "model/ReferenceFolding.h"

#include "model/AttributeConvert.h"
#include "model/NodeInference.h"
#include "model/TensorConvert.h"
#include "reference/Evaluator.h"

namespace strata::model {

namespace {

Diagnostic refused(const onnx::NodeProto& node, const std::string& why) {
    return error(node.op_type() + ": " + why, {.node = node.name()});
}

ir::Shape dimsOf(const onnx::TensorProto& t) {
    return {t.dims().begin(), t.dims().end()};
}

// The outputs' types from onnx's inference function for the op, fed the input values; each
// must be static.
Expected<std::vector<onnx::TypeProto>>
inferOutputTypes(const onnx::NodeProto& node, std::int64_t opset,
                 const std::vector<const onnx::TensorProto*>& inputs) {
    std::vector<onnx::TypeProto> inputTypes(inputs.size());
    std::vector<const onnx::TypeProto*> typePointers(inputs.size(), nullptr);
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        if (!inputs[i])
            continue;
        auto* tensor = inputTypes[i].mutable_tensor_type();
        tensor->set_elem_type(inputs[i]->data_type());
        auto* shape = tensor->mutable_shape();
        for (auto d : inputs[i]->dims())
            shape->add_dim()->set_dim_value(d);
        typePointers[i] = &inputTypes[i];
    }
    auto outputs = inferNodeTypes(node, opset, typePointers, inputs);
    if (!outputs)
        return outputs.takeDiagnostics();
    std::vector<std::int64_t> dims;
    for (std::size_t k = 0; k < outputs->size(); ++k)
        if (!staticDims((*outputs)[k], dims))
            return refused(node, "the shape of output " + std::to_string(k) + " is not static");
    return outputs;
}

Expected<reference::Tensor> toTensor(const onnx::NodeProto& node, const onnx::TensorProto& t) {
    if (t.data_location() == onnx::TensorProto::EXTERNAL)
        return refused(node, "input '" + t.name() + "' has external data");
    ir::Value v;
    v.name = t.name();
    v.dtype = static_cast<ir::DType>(t.data_type());
    v.shape = dimsOf(t);
    v.isConstant = true;
    v.data = referenceTensorData(t, nullptr); // copied out below while `t` is alive
    auto tensor = reference::constantTensor(v);
    if (!tensor)
        return refused(node, tensor.diagnostics().front().message);
    return tensor;
}

onnx::TensorProto toProto(const reference::Tensor& t, const std::string& name) {
    onnx::TensorProto out;
    out.set_name(name);
    out.set_data_type(int(t.dtype));
    for (auto d : t.shape)
        out.add_dims(d);
    out.set_raw_data(std::string(reinterpret_cast<const char*>(t.bytes.data()), t.bytes.size()));
    return out;
}

ir::ValueId addValue(ir::Graph& g, std::string name, ir::DType dtype, ir::Shape shape,
                     bool constant) {
    ir::Value v;
    v.name = std::move(name);
    v.dtype = dtype;
    v.shape = std::move(shape);
    v.isConstant = constant;
    g.values.push_back(std::move(v));
    return ir::ValueId(static_cast<std::uint32_t>(g.values.size() - 1));
}

} // namespace

Expected<std::vector<onnx::TensorProto>>
evaluateWithReference(const onnx::NodeProto& node, std::int64_t opset,
                      const std::vector<const onnx::TensorProto*>& inputs,
                      const FoldLimits& limits) {
    if (!node.domain().empty() && node.domain() != "ai.onnx")
        return refused(node, "only default-domain ops are folded");
    if (std::ssize(inputs) != node.input_size())
        return refused(node, "one tensor per input is needed");
    auto outputTypes = inferOutputTypes(node, opset, inputs);
    if (!outputTypes)
        return outputTypes.takeDiagnostics();
    for (const auto& type : *outputTypes) {
        ir::Shape shape;
        for (const auto& d : type.tensor_type().shape().dim())
            shape.push_back(d.dim_value());
        const auto n = ir::elementCount(shape);
        if (!n || *n > limits.maxOutputElements)
            return refused(node, "the result " + ir::shapeToString(shape) + " has more than " +
                                     std::to_string(limits.maxOutputElements) +
                                     " elements; it is computed at run time");
    }
    for (const auto* in : inputs) {
        if (!in)
            continue;
        const auto n = ir::elementCount(dimsOf(*in));
        if (!n || *n > limits.maxInputElements)
            return refused(node, "input '" + in->name() + "' has more than " +
                                     std::to_string(limits.maxInputElements) +
                                     " elements; it is computed at run time");
    }

    // A one-op IR graph: constant inputs, outputs typed as onnx inferred them.
    ir::Graph g;
    g.opsetVersion = opset;
    ir::Op op;
    op.name = node.name().empty() ? node.output(0) : node.name();
    op.type = node.op_type();
    for (const auto& a : node.attribute())
        op.attributes.push_back({a.name(), convertAttribute(a)});

    // ConstantOfShape's fill value is a tensor attribute, which the IR does not keep: it is
    // Expand of that (scalar) value to the shape.
    std::vector<const onnx::TensorProto*> operands = inputs;
    onnx::TensorProto fill;
    if (node.op_type() == "ConstantOfShape") {
        for (const auto& a : node.attribute())
            if (a.name() == "value" && a.has_t())
                fill = a.t();
        if (fill.data_type() != 0) {
            fill.clear_dims(); // a one-element tensor; Expand broadcasts a scalar to any shape
            fill.set_name(op.name + ":value");
            op.type = "Expand";
            op.attributes.clear();
            operands.insert(operands.begin(), &fill);
        }
    }

    for (const auto* in : operands)
        op.inputs.push_back(
            in ? addValue(g, in->name(), static_cast<ir::DType>(in->data_type()), dimsOf(*in), true)
               : ir::ValueId{});
    for (int k = 0; k < node.output_size(); ++k) {
        const auto& type = (*outputTypes)[std::size_t(k)].tensor_type();
        ir::Shape shape;
        for (const auto& d : type.shape().dim())
            shape.push_back(d.dim_value());
        op.outputs.push_back(addValue(g, node.output(k), static_cast<ir::DType>(type.elem_type()),
                                      std::move(shape), false));
    }
    g.ops.push_back(std::move(op));
    g.finalize();
    const ir::Op& theOp = g.ops.front();
    if (std::string why = reference::unsupportedReason(g, theOp); !why.empty())
        return error(why, {.node = node.name()});

    std::vector<reference::Tensor> tensors(operands.size()); // decoded only once supported
    std::vector<const reference::Tensor*> pointers(operands.size(), nullptr);
    for (std::size_t i = 0; i < operands.size(); ++i) {
        if (!operands[i])
            continue;
        auto tensor = toTensor(node, *operands[i]);
        if (!tensor)
            return tensor.takeDiagnostics();
        tensors[i] = std::move(*tensor);
        pointers[i] = &tensors[i];
    }
    std::vector<onnx::TensorProto> results;
    for (std::size_t k = 0; k < theOp.outputs.size(); ++k) {
        reference::Tensor out = reference::zerosLike(g.value(theOp.outputs[k]));
        auto done =
            reference::computeRegion(g, theOp, pointers, tiling::fullRegion(out.shape), out, k);
        if (!done)
            return done.takeDiagnostics();
        results.push_back(toProto(out, node.output(int(k))));
    }
    return results;
}

} // namespace strata::model
