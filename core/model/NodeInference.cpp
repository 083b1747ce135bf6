#include "model/NodeInference.h"

#include <algorithm>
#include <map>
#include <onnx/defs/schema.h>
#include <onnx/shape_inference/implementation.h>
#include <optional>
#include <unordered_map>

namespace strata::model {

namespace {

// Einsum's output dims from its equation and static input shapes (onnx 1.12 infers only the
// output's rank). Letters name dims; "..." stands for broadcast leading dims. nullopt for an
// equation it does not understand or dims that disagree.
std::optional<std::vector<std::int64_t>>
einsumShape(std::string equation, const std::vector<std::vector<std::int64_t>>& inputs) {
    equation.erase(std::remove(equation.begin(), equation.end(), ' '), equation.end());
    const auto arrow = equation.find("->");
    const std::string lhs = equation.substr(0, arrow);
    std::vector<std::string> terms;
    for (std::size_t start = 0;;) {
        const auto comma = lhs.find(',', start);
        terms.push_back(lhs.substr(start, comma == std::string::npos ? comma : comma - start));
        if (comma == std::string::npos)
            break;
        start = comma + 1;
    }
    if (terms.size() != inputs.size())
        return std::nullopt;
    std::map<char, std::int64_t> dims;
    std::map<char, int> uses;
    std::vector<std::int64_t> ellipsis; // numpy-broadcast of every term's "..." dims
    for (std::size_t t = 0; t < terms.size(); ++t) {
        std::string term = terms[t];
        const auto dots = term.find("...");
        const std::size_t letters = term.size() - (dots == std::string::npos ? 0 : 3);
        if (letters > inputs[t].size() ||
            (dots == std::string::npos && letters != inputs[t].size()))
            return std::nullopt;
        const std::size_t ellipsisRank = inputs[t].size() - letters;
        std::size_t axis = 0;
        for (std::size_t i = 0; i < term.size(); ++i) {
            if (term.compare(i, 3, "...") == 0) {
                if (ellipsis.size() < ellipsisRank)
                    ellipsis.insert(ellipsis.begin(), ellipsisRank - ellipsis.size(), 1);
                for (std::size_t e = 0; e < ellipsisRank; ++e) {
                    std::int64_t& out = ellipsis[ellipsis.size() - ellipsisRank + e];
                    const std::int64_t d = inputs[t][axis + e];
                    if (out == 1)
                        out = d;
                    else if (d != 1 && d != out)
                        return std::nullopt;
                }
                axis += ellipsisRank;
                i += 2;
                continue;
            }
            const char c = term[i];
            if (!std::isalpha(static_cast<unsigned char>(c)))
                return std::nullopt;
            const std::int64_t d = inputs[t][axis++];
            auto [it, inserted] = dims.emplace(c, d);
            if (!inserted && it->second != d) {
                if (it->second == 1)
                    it->second = d; // broadcast
                else if (d != 1)
                    return std::nullopt;
            }
            ++uses[c];
        }
    }
    std::vector<std::int64_t> out;
    if (arrow == std::string::npos) { // implicit: "...", then letters used once, alphabetically
        out = ellipsis;
        for (const auto& [c, n] : uses)
            if (n == 1)
                out.push_back(dims[c]);
        return out;
    }
    const std::string rhs = equation.substr(arrow + 2);
    for (std::size_t i = 0; i < rhs.size(); ++i) {
        if (rhs.compare(i, 3, "...") == 0) {
            out.insert(out.end(), ellipsis.begin(), ellipsis.end());
            i += 2;
            continue;
        }
        auto it = dims.find(rhs[i]);
        if (it == dims.end())
            return std::nullopt;
        out.push_back(it->second);
    }
    return out;
}

// Fills in what onnx 1.12's inference leaves unknown for ops real models use.
void completeTypes(const onnx::NodeProto& node,
                   const std::vector<const onnx::TypeProto*>& inputTypes,
                   std::vector<onnx::TypeProto>& outputs) {
    if (node.op_type() != "Einsum" || outputs.size() != 1)
        return;
    std::vector<std::vector<std::int64_t>> shapes;
    for (const auto* type : inputTypes) {
        shapes.emplace_back();
        if (!type || !staticDims(*type, shapes.back()))
            return;
    }
    for (const auto& a : node.attribute()) {
        if (a.name() != "equation")
            continue;
        auto shape = einsumShape(a.s(), shapes);
        if (!shape)
            return;
        auto* tensor = outputs[0].mutable_tensor_type();
        if (tensor->elem_type() == 0 && inputTypes[0])
            tensor->set_elem_type(inputTypes[0]->tensor_type().elem_type());
        tensor->mutable_shape()->clear_dim();
        for (auto d : *shape)
            tensor->mutable_shape()->add_dim()->set_dim_value(d);
    }
}

} // namespace

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
    completeTypes(node, inputTypes, outputs);
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
