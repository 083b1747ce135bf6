#include "model/ConstantFolding.h"

#include "model/ConstantEvaluator.h"
#include "model/ModelChecks.h"

#include <onnx/defs/schema.h>
#include <onnx/shape_inference/implementation.h>

#include <deque>
#include <unordered_map>
#include <unordered_set>

namespace strata::model {

namespace {

constexpr int kMaxRounds = 32;

// A Constant node's value as a tensor named `name`; false for sparse or string values.
bool constantNodeTensor(onnx::NodeProto& node, onnx::TensorProto& out) {
    if (node.output_size() != 1 || node.attribute_size() != 1) return false;
    onnx::AttributeProto& a = *node.mutable_attribute(0);
    const std::string& name = node.output(0);
    if (a.name() == "value" && a.has_t()) {
        out = std::move(*a.mutable_t());
        out.set_name(name);
        return true;
    }
    ConstTensor c;
    if (a.name() == "value_float") {
        c.dtype = ir::DType::Float32;
        c.reals = {a.f()};
    } else if (a.name() == "value_floats") {
        c.dtype = ir::DType::Float32;
        c.reals.assign(a.floats().begin(), a.floats().end());
        c.shape = {a.floats_size()};
    } else if (a.name() == "value_int") {
        c.ints = {a.i()};
    } else if (a.name() == "value_ints") {
        c.ints.assign(a.ints().begin(), a.ints().end());
        c.shape = {a.ints_size()};
    } else {
        return false;
    }
    encodeConstTensor(c, name, out);
    return true;
}

// The static shape of `name` from inferred types, if fully known.
std::optional<ir::Shape> staticShape(const onnx::TypeProto* type) {
    if (!type || !type->has_tensor_type() || !type->tensor_type().has_shape()) return std::nullopt;
    ir::Shape shape;
    for (const auto& d : type->tensor_type().shape().dim()) {
        if (!d.has_dim_value() || d.dim_value() < 0) return std::nullopt;
        shape.push_back(d.dim_value());
    }
    return shape;
}

std::optional<ConstTensor> foldShapeOp(const onnx::NodeProto& node, const ir::Shape& shape) {
    ConstTensor out;
    out.dtype = ir::DType::Int64;
    if (node.op_type() == "Size") {
        auto n = ir::elementCount(shape);
        if (!n) return std::nullopt;
        out.ints = {*n};
        return out;
    }
    const auto rank = std::ssize(shape);
    std::int64_t start = 0, end = rank;
    for (const auto& a : node.attribute()) {
        if (a.name() == "start") start = a.i();
        if (a.name() == "end") end = a.i();
    }
    if (start < 0) start += rank;
    if (end < 0) end += rank;
    start = std::clamp<std::int64_t>(start, 0, rank);
    end = std::clamp<std::int64_t>(end, start, rank);
    out.ints.assign(shape.begin() + start, shape.begin() + end);
    out.shape = {end - start};
    return out;
}

class FoldRound {
  public:
    FoldRound(onnx::ModelProto& model, std::int64_t opset) : m_model(model), m_opset(opset) {
        auto& g = *model.mutable_graph();
        for (const auto& t : g.initializer()) m_constants.emplace(t.name(), &t);
        for (const auto& v : g.input()) m_types.emplace(v.name(), &v.type());
        for (const auto& v : g.value_info()) m_types.emplace(v.name(), &v.type());
        for (const auto& v : g.output()) {
            m_types.emplace(v.name(), &v.type());
            m_graphOutputs.insert(v.name());
        }
    }

    // Folds what it can; returns the number of nodes removed.
    int run() {
        auto& g = *m_model.mutable_graph();
        std::vector<bool> remove(g.node_size(), false);
        int folded = 0;
        for (int i = 0; i < g.node_size(); ++i) {
            if (foldNode(*g.mutable_node(i))) {
                remove[i] = true;
                ++folded;
            }
        }
        if (folded == 0) return 0;
        google::protobuf::RepeatedPtrField<onnx::NodeProto> kept;
        for (int i = 0; i < g.node_size(); ++i)
            if (!remove[i]) *kept.Add() = std::move(*g.mutable_node(i));
        g.mutable_node()->Swap(&kept);
        for (auto& t : m_newConstants) *g.add_initializer() = std::move(t);
        return folded;
    }

  private:
    const ConstTensor* decoded(const std::string& name) {
        if (auto it = m_decoded.find(name); it != m_decoded.end()) return &it->second;
        auto c = m_constants.find(name);
        if (c == m_constants.end()) return nullptr;
        auto n = ir::elementCount({c->second->dims().begin(), c->second->dims().end()});
        if (!n || *n > kMaxFoldedElements) return nullptr;
        auto value = decodeConstTensor(*c->second);
        if (!value) return nullptr;
        return &m_decoded.emplace(name, std::move(*value)).first->second;
    }

    void addConstant(const std::string& name, ConstTensor value) {
        m_newConstants.emplace_back();
        encodeConstTensor(value, name, m_newConstants.back());
        m_decoded.emplace(name, std::move(value));
        m_constants.emplace(name, nullptr); // known; the decoded value is what folding reads
    }

    bool foldNode(onnx::NodeProto& node) {
        if (!node.domain().empty() && node.domain() != "ai.onnx") return false;
        const std::string& op = node.op_type();
        if (op == "Constant") {
            onnx::TensorProto t;
            if (!constantNodeTensor(node, t)) return false;
            m_constants.emplace(t.name(), nullptr);
            m_newConstants.push_back(std::move(t));
            // Register after the move so decoded() can read it this round.
            m_constants[m_newConstants.back().name()] = &m_newConstants.back();
            return true;
        }
        if (node.output_size() == 0) return false;
        for (const auto& out : node.output())
            if (out.empty() || m_graphOutputs.count(out)) return false; // keep what the user sees
        if ((op == "Shape" || op == "Size") && node.input_size() == 1) {
            auto it = m_types.find(node.input(0));
            auto shape = staticShape(it == m_types.end() ? nullptr : it->second);
            if (!shape) return false;
            auto value = foldShapeOp(node, *shape);
            if (!value) return false;
            addConstant(node.output(0), std::move(*value));
            return true;
        }
        std::vector<const ConstTensor*> inputs;
        for (const auto& in : node.input()) {
            if (in.empty()) {
                inputs.push_back(nullptr);
                continue;
            }
            const ConstTensor* c = decoded(in);
            if (!c) return false;
            inputs.push_back(c);
        }
        if (inputs.empty()) return false;
        auto results = evaluateConstantNode(node, m_opset, inputs);
        if (!results || std::ssize(*results) != node.output_size()) return false;
        for (int k = 0; k < node.output_size(); ++k) addConstant(node.output(k), std::move((*results)[k]));
        return true;
    }

    onnx::ModelProto& m_model;
    std::int64_t m_opset;
    std::unordered_map<std::string, const onnx::TensorProto*> m_constants;
    std::unordered_map<std::string, const onnx::TypeProto*> m_types;
    std::unordered_set<std::string> m_graphOutputs;
    std::unordered_map<std::string, ConstTensor> m_decoded;
    std::deque<onnx::TensorProto> m_newConstants; // deque: pointers into it stay valid
};

} // namespace

Expected<FoldReport> inferShapesAndFold(onnx::ModelProto& model, const std::string& file) {
    FoldReport report;
    const std::int64_t opset = defaultOpset(model);
    for (int round = 0; round < kMaxRounds; ++round) {
        try {
            onnx::ShapeInferenceOptions options(/*check_type=*/false, /*error_mode=*/1,
                                                /*data_prop=*/true);
            onnx::shape_inference::InferShapes(model, onnx::OpSchemaRegistry::Instance(), options);
        } catch (const std::exception& e) {
            return error(std::string("shape inference failed: ") + e.what(), {.file = file});
        }
        ++report.rounds;
        const int folded = FoldRound(model, opset).run();
        report.foldedNodes += folded;
        if (folded == 0) return report;
    }
    return report;
}

} // namespace strata::model
