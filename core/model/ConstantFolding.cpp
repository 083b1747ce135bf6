#include "model/ConstantFolding.h"

#include "ir/Graph.h"
#include "model/ModelChecks.h"
#include "model/NodeInference.h"
#include "model/ReferenceFolding.h"

#include <algorithm>
#include <deque>
#include <onnx/defs/schema.h>
#include <onnx/shape_inference/implementation.h>
#include <optional>
#include <unordered_map>
#include <unordered_set>

namespace strata::model {

namespace {

constexpr int kMaxRounds = 32;

// A Constant node's value as a tensor named after its output; false for sparse or string values.
bool constantNodeTensor(onnx::NodeProto& node, onnx::TensorProto& out) {
    if (node.output_size() != 1 || node.attribute_size() != 1)
        return false;
    onnx::AttributeProto& a = *node.mutable_attribute(0);
    out.set_name(node.output(0));
    if (a.name() == "value" && a.has_t()) {
        if (a.t().data_type() == onnx::TensorProto::STRING)
            return false;
        out = std::move(*a.mutable_t());
        out.set_name(node.output(0));
        return true;
    }
    if (a.name() == "value_float") {
        out.set_data_type(onnx::TensorProto::FLOAT);
        out.add_float_data(a.f());
    } else if (a.name() == "value_floats") {
        out.set_data_type(onnx::TensorProto::FLOAT);
        out.add_dims(a.floats_size());
        *out.mutable_float_data() = a.floats();
    } else if (a.name() == "value_int") {
        out.set_data_type(onnx::TensorProto::INT64);
        out.add_int64_data(a.i());
    } else if (a.name() == "value_ints") {
        out.set_data_type(onnx::TensorProto::INT64);
        out.add_dims(a.ints_size());
        *out.mutable_int64_data() = a.ints();
    } else {
        return false;
    }
    return true;
}

// The static shape in an inferred type, if fully known.
std::optional<ir::Shape> staticShape(const onnx::TypeProto* type) {
    if (!type || !type->has_tensor_type() || !type->tensor_type().has_shape())
        return std::nullopt;
    ir::Shape shape;
    for (const auto& d : type->tensor_type().shape().dim()) {
        if (!d.has_dim_value() || d.dim_value() < 0)
            return std::nullopt;
        shape.push_back(d.dim_value());
    }
    return shape;
}

// Shape and Size read only their input's shape, which need not be a constant.
onnx::TensorProto foldShapeOp(const onnx::NodeProto& node, const ir::Shape& shape) {
    onnx::TensorProto out;
    out.set_name(node.output(0));
    out.set_data_type(onnx::TensorProto::INT64);
    if (node.op_type() == "Size") {
        out.add_int64_data(ir::elementCount(shape).value_or(0));
        return out;
    }
    const auto rank = std::ssize(shape);
    std::int64_t start = 0, end = rank;
    for (const auto& a : node.attribute()) {
        if (a.name() == "start")
            start = a.i();
        if (a.name() == "end")
            end = a.i();
    }
    if (start < 0)
        start += rank;
    if (end < 0)
        end += rank;
    start = std::clamp<std::int64_t>(start, 0, rank);
    end = std::clamp<std::int64_t>(end, start, rank);
    out.add_dims(end - start);
    for (auto i = start; i < end; ++i)
        out.add_int64_data(shape[std::size_t(i)]);
    return out;
}

// Folding state across rounds: nodes already refused are not evaluated again (their inputs do
// not change once they are all constants).
class Folder {
  public:
    Folder(onnx::ModelProto& model, std::int64_t opset) : m_model(model), m_opset(opset) {}

    // One pass in topological order: a node whose inputs were folded earlier in the pass folds
    // too. Returns the number of nodes removed.
    int runPass() {
        auto& g = *m_model.mutable_graph();
        m_constants.clear();
        m_types.clear();
        m_graphOutputs.clear();
        m_newConstants.clear();
        m_localTypes.clear();
        m_locallyTyped.clear();
        for (const auto& t : g.initializer())
            m_constants.emplace(t.name(), &t);
        for (const auto& v : g.input())
            m_types.emplace(v.name(), &v.type());
        for (const auto& v : g.value_info())
            m_types.emplace(v.name(), &v.type());
        for (const auto& v : g.output()) {
            m_types.emplace(v.name(), &v.type());
            m_graphOutputs.insert(v.name());
        }

        std::vector<bool> remove(g.node_size(), false);
        int folded = 0;
        for (int i = 0; i < g.node_size(); ++i) {
            if (foldNode(*g.mutable_node(i))) {
                remove[i] = true;
                ++folded;
            } else {
                inferLocally(g.node(i));
            }
        }
        if (folded == 0)
            return 0;
        google::protobuf::RepeatedPtrField<onnx::NodeProto> kept;
        for (int i = 0; i < g.node_size(); ++i)
            if (!remove[i])
                *kept.Add() = std::move(*g.mutable_node(i));
        g.mutable_node()->Swap(&kept);
        for (auto& t : m_newConstants)
            *g.add_initializer() = std::move(t);
        return folded;
    }

    // After the last pass: the static types this pass found where onnx's whole-graph inference
    // did not (Einsum, whose dims onnx 1.12 leaves unknown, and what follows it) go into
    // value_info, where the IR builder reads types.
    void keepLocalTypes() {
        auto& g = *m_model.mutable_graph();
        std::unordered_map<std::string, onnx::ValueInfoProto*> infos;
        for (auto& v : *g.mutable_value_info())
            infos.emplace(v.name(), &v);
        for (const auto& name : m_locallyTyped) {
            auto it = infos.find(name);
            onnx::ValueInfoProto* info = it != infos.end() ? it->second : g.add_value_info();
            info->set_name(name);
            *info->mutable_type() = *m_types.at(name);
        }
    }

  private:
    void addConstant(onnx::TensorProto t) {
        m_newConstants.push_back(std::move(t));
        m_constants[m_newConstants.back().name()] = &m_newConstants.back();
    }

    // The static shape of `name`: a constant's dims, or its inferred type.
    std::optional<ir::Shape> shapeOf(const std::string& name) const {
        if (auto c = m_constants.find(name); c != m_constants.end())
            return ir::Shape(c->second->dims().begin(), c->second->dims().end());
        auto it = m_types.find(name);
        return staticShape(it == m_types.end() ? nullptr : it->second);
    }

    // A node that stays gets its output types again from what this pass has folded so far, so
    // a Shape op further on sees a shape that only folding made static.
    void inferLocally(const onnx::NodeProto& node) {
        bool known = true;
        for (const auto& out : node.output())
            known = known && (out.empty() || shapeOf(out));
        if (known)
            return;
        std::vector<const onnx::TypeProto*> types;
        std::vector<const onnx::TensorProto*> data;
        for (const auto& in : node.input()) {
            const onnx::TensorProto* constant = nullptr;
            const onnx::TypeProto* type = nullptr;
            if (auto c = m_constants.find(in); c != m_constants.end()) {
                constant = c->second;
                auto& t = m_localTypes.emplace_back();
                t.mutable_tensor_type()->set_elem_type(constant->data_type());
                auto* shape = t.mutable_tensor_type()->mutable_shape();
                for (auto d : constant->dims())
                    shape->add_dim()->set_dim_value(d);
                type = &t;
            } else if (auto it = m_types.find(in); it != m_types.end()) {
                type = it->second;
            }
            types.push_back(type);
            data.push_back(constant);
        }
        auto inferred = inferNodeTypes(node, m_opset, types, data);
        if (!inferred)
            return;
        std::vector<std::int64_t> dims;
        for (int k = 0; k < node.output_size(); ++k) {
            auto& type = (*inferred)[std::size_t(k)];
            if (node.output(k).empty() || !staticDims(type, dims))
                continue;
            m_localTypes.push_back(std::move(type));
            m_types[node.output(k)] = &m_localTypes.back();
            m_locallyTyped.push_back(node.output(k));
        }
    }

    bool foldNode(onnx::NodeProto& node) {
        if (!node.domain().empty() && node.domain() != "ai.onnx")
            return false;
        const std::string& op = node.op_type();
        if (op == "Constant") {
            onnx::TensorProto t;
            if (!constantNodeTensor(node, t))
                return false;
            addConstant(std::move(t));
            return true;
        }
        if (node.output_size() == 0 || node.input_size() == 0)
            return false;
        for (const auto& out : node.output())
            if (out.empty() || m_graphOutputs.count(out))
                return false; // keep what the user sees
        if ((op == "Shape" || op == "Size") && node.input_size() == 1) {
            auto shape = shapeOf(node.input(0));
            if (!shape)
                return false;
            addConstant(foldShapeOp(node, *shape));
            return true;
        }
        std::vector<const onnx::TensorProto*> inputs;
        for (const auto& in : node.input()) {
            if (in.empty()) {
                inputs.push_back(nullptr);
                continue;
            }
            auto c = m_constants.find(in);
            if (c == m_constants.end())
                return false;
            inputs.push_back(c->second);
        }
        if (m_refused.count(node.output(0)))
            return false;
        auto results = evaluateWithReference(node, m_opset, inputs);
        if (!results) {
            m_refused.insert(node.output(0));
            return false;
        }
        for (auto& t : *results)
            addConstant(std::move(t));
        return true;
    }

    onnx::ModelProto& m_model;
    std::int64_t m_opset;
    std::unordered_map<std::string, const onnx::TensorProto*> m_constants;
    std::unordered_map<std::string, const onnx::TypeProto*> m_types;
    std::unordered_set<std::string> m_graphOutputs;
    std::unordered_set<std::string> m_refused;    // first outputs of nodes that cannot fold
    std::deque<onnx::TensorProto> m_newConstants; // deques: pointers into them stay valid
    std::deque<onnx::TypeProto> m_localTypes;     // types inferred during this pass ...
    std::vector<std::string> m_locallyTyped;      // ... and the values they belong to
};

// Types inferred before a value was folded would shadow the constant's own (onnx prefers
// value_info to initializers): inference starts afresh, from the constants' exact types (which
// models of IR version 3, whose initializers must be graph inputs, would otherwise not have).
void resetValueInfo(onnx::GraphProto& g) {
    g.clear_value_info();
    std::unordered_set<std::string> inputs;
    for (const auto& v : g.input())
        inputs.insert(v.name());
    for (const auto& t : g.initializer()) {
        if (inputs.count(t.name()))
            continue;
        auto* info = g.add_value_info();
        info->set_name(t.name());
        auto* tensor = info->mutable_type()->mutable_tensor_type();
        tensor->set_elem_type(t.data_type());
        auto* shape = tensor->mutable_shape();
        for (auto d : t.dims())
            shape->add_dim()->set_dim_value(d);
    }
}

} // namespace

Expected<FoldReport> inferShapesAndFold(onnx::ModelProto& model, const std::string& file) {
    FoldReport report;
    Folder folder(model, defaultOpset(model));
    for (int round = 0; round < kMaxRounds; ++round) {
        resetValueInfo(*model.mutable_graph());
        try {
            // No data propagation: onnx 1.12's crashes (SIGSEGV) on nodes after a shape error
            // (fuzz_OnnxImport, docs/FUZZING.md), and the folding below computes the shape
            // tensors it would.
            onnx::ShapeInferenceOptions options(/*check_type=*/false, /*error_mode=*/1,
                                                /*data_prop=*/false);
            onnx::shape_inference::InferShapes(model, onnx::OpSchemaRegistry::Instance(), options);
        } catch (const std::exception& e) {
            return error(std::string("shape inference failed: ") + e.what(), {.file = file});
        }
        ++report.rounds;
        const int folded = folder.runPass();
        report.foldedNodes += folded;
        if (folded == 0) {
            folder.keepLocalTypes();
            return report;
        }
    }
    return report;
}

} // namespace strata::model
