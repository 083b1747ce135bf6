#include "model/GraphBuilder.h"

#include "ir/GraphHash.h"
#include "model/AttributeConvert.h"
#include "model/DataDependence.h"
#include "model/ModelChecks.h"
#include "model/OpCost.h"
#include "model/TensorConvert.h"

#include <cstdint>
#include <cstring>
#include <limits>
#include <unordered_map>
#include <unordered_set>

namespace strata::model {

namespace {

constexpr int kMaxReportedShapeErrors = 10;

class Builder {
  public:
    Builder(const BuildInputs& in, std::vector<Diagnostic>& notes)
        : m_in(in), m_graphProto(in.model->graph()), m_notes(notes) {}

    Expected<std::shared_ptr<ir::Graph>> run() {
        indexModel();
        removeAliases();
        markLive();
        m_graph = std::make_shared<ir::Graph>();
        m_graph->name = m_graphProto.name();
        m_graph->sourcePath = m_in.file;
        m_graph->parameterCount = m_in.parameterCount;
        m_graph->opsetVersion = defaultOpset(*m_in.model);

        for (const auto& input : m_graphProto.input())
            if (!m_constants.count(input.name()))
                if (auto id = valueFor(input.name())) m_graph->inputs.push_back(*id);
        for (int i = 0; i < m_graphProto.node_size(); ++i)
            if (m_live[i]) addOp(i);
        for (const auto& output : m_graphProto.output())
            if (auto id = valueFor(resolve(output.name()))) m_graph->outputs.push_back(*id);

        if (m_shapeErrors > kMaxReportedShapeErrors)
            m_errors.push_back(error("... and " + std::to_string(m_shapeErrors - kMaxReportedShapeErrors) +
                                         " more values whose shape is unknown",
                                     {.file = m_in.file}));
        if (!m_errors.empty()) return std::move(m_errors);
        if (m_graph->ops.empty())
            return error("no compute ops remain after constant folding: the model's outputs are "
                         "constants",
                         {.file = m_in.file});

        m_graph->finalize();
        for (ir::Op& op : m_graph->ops) op.cost = estimateCost(*m_graph, op);
        m_graph->contentHash = ir::contentHash(*m_graph);
        return m_graph;
    }

  private:
    void indexModel() {
        for (const auto& t : m_graphProto.initializer()) m_constants.emplace(t.name(), &t);
        for (const auto& v : m_graphProto.input()) m_types.emplace(v.name(), &v.type());
        for (const auto& v : m_graphProto.value_info()) m_types.emplace(v.name(), &v.type());
        for (const auto& v : m_graphProto.output()) m_types.emplace(v.name(), &v.type());
        for (const auto& v : m_graphProto.output()) m_graphOutputs.insert(v.name());
        for (int i = 0; i < m_graphProto.node_size(); ++i)
            for (const auto& out : m_graphProto.node(i).output())
                if (!out.empty()) m_producer.emplace(out, i);
        for (const auto& node : m_graphProto.node())
            for (const auto& in : node.input())
                m_read.insert(in);
    }

    std::string resolve(const std::string& name) const {
        std::string current = name;
        for (auto it = m_alias.find(current); it != m_alias.end(); it = m_alias.find(current))
            current = it->second;
        return current;
    }

    // A Dropout forwards its input when nothing reads its mask and nothing is dropped: no
    // training_mode, or a constant false one, or a constant ratio of 0 (Swin-T's export sets
    // training_mode true with ratio 0). Training with a real ratio stays an op, which the
    // runtime refuses with the reason.
    bool dropoutForwardsItsInput(const onnx::NodeProto& node) const {
        if (node.output_size() >= 2 && !node.output(1).empty() && isRead(node.output(1)))
            return false;
        if (node.input_size() < 3 || node.input(2).empty())
            return true;
        if (constantScalar(node.input(2)) == 0.0)
            return true;
        return node.input_size() >= 2 && !node.input(1).empty() &&
               constantScalar(node.input(1)) == 0.0;
    }

    bool isRead(const std::string& name) const {
        return m_graphOutputs.count(name) || m_read.count(name);
    }

    // The value of a one-element float, double or bool constant; NaN otherwise.
    double constantScalar(const std::string& name) const {
        const double unknown = std::numeric_limits<double>::quiet_NaN();
        const auto it = m_constants.find(name);
        if (it == m_constants.end())
            return unknown;
        const onnx::TensorProto& t = *it->second;
        std::int64_t elements = 1;
        for (const auto d : t.dims())
            elements *= d;
        if (elements != 1 || t.data_location() == onnx::TensorProto::EXTERNAL)
            return unknown;
        const std::string& raw = t.raw_data();
        switch (t.data_type()) {
        case onnx::TensorProto::FLOAT: {
            if (t.float_data_size() == 1)
                return t.float_data(0);
            float v = 0;
            if (raw.size() != sizeof v)
                return unknown;
            std::memcpy(&v, raw.data(), sizeof v);
            return v;
        }
        case onnx::TensorProto::DOUBLE: {
            if (t.double_data_size() == 1)
                return t.double_data(0);
            double v = 0;
            if (raw.size() != sizeof v)
                return unknown;
            std::memcpy(&v, raw.data(), sizeof v);
            return v;
        }
        case onnx::TensorProto::BOOL:
            if (t.int32_data_size() == 1)
                return t.int32_data(0) != 0 ? 1.0 : 0.0;
            return raw.size() == 1 ? (raw[0] != 0 ? 1.0 : 0.0) : unknown;
        default:
            return unknown;
        }
    }

    // Identity, and Dropout that drops nothing (above), forward their input. Their output
    // becomes an alias of the input; when the output is a graph output, the input is renamed to
    // it instead so the user still sees the output's name.
    void removeAliases() {
        m_removed.assign(m_graphProto.node_size(), false);
        std::unordered_set<std::string> renamedSources;
        for (int i = 0; i < m_graphProto.node_size(); ++i) {
            const auto& node = m_graphProto.node(i);
            const bool isDropout = node.op_type() == "Dropout" && dropoutForwardsItsInput(node);
            if (!(node.op_type() == "Identity" || isDropout) || node.input_size() < 1) continue;
            if (!node.domain().empty() && node.domain() != "ai.onnx") continue;
            const std::string in = resolve(node.input(0));
            const std::string& out = node.output(0);
            if (!m_graphOutputs.count(out)) {
                m_alias[out] = in;
                m_removed[i] = true;
                ++m_aliasesRemoved;
                continue;
            }
            auto producer = m_producer.find(in);
            if (producer == m_producer.end() || m_graphOutputs.count(in) || renamedSources.count(in))
                continue; // the Identity stays: graph input/constant passed through to an output
            m_alias[in] = out;
            m_rename[producer->second].emplace(in, out);
            renamedSources.insert(in);
            m_removed[i] = true;
            ++m_aliasesRemoved;
        }
        if (m_aliasesRemoved)
            m_notes.push_back(note("removed " + std::to_string(m_aliasesRemoved) +
                                       " Identity/Dropout op(s)",
                                   {.file = m_in.file}));
    }

    std::string outputName(int node, const std::string& name) const {
        if (auto it = m_rename.find(node); it != m_rename.end())
            if (auto r = it->second.find(name); r != it->second.end()) return r->second;
        return name;
    }

    void markLive() {
        const int n = m_graphProto.node_size();
        m_live.assign(n, false);
        // Producer of each (renamed) output among kept nodes.
        std::unordered_map<std::string, int> producer;
        for (int i = 0; i < n; ++i)
            if (!m_removed[i])
                for (const auto& out : m_graphProto.node(i).output())
                    if (!out.empty()) producer.emplace(outputName(i, out), i);
        std::vector<int> stack;
        for (const auto& o : m_graphProto.output())
            if (auto it = producer.find(resolve(o.name())); it != producer.end()) stack.push_back(it->second);
        while (!stack.empty()) {
            int i = stack.back();
            stack.pop_back();
            if (m_live[i]) continue;
            m_live[i] = true;
            for (const auto& in : m_graphProto.node(i).input())
                if (auto it = producer.find(resolve(in)); it != producer.end()) stack.push_back(it->second);
        }
        int dead = 0;
        for (int i = 0; i < n; ++i) dead += !m_removed[i] && !m_live[i];
        if (dead)
            m_notes.push_back(note("removed " + std::to_string(dead) +
                                       " op(s) whose results reach no graph output",
                                   {.file = m_in.file}));
    }

    void shapeError(std::string message, const std::string& value) {
        if (++m_shapeErrors <= kMaxReportedShapeErrors)
            m_errors.push_back(error(std::move(message), {.file = m_in.file, .value = value}));
    }

    // The IR value named `name`, created on first use. `typeName` is the name whose inferred
    // type describes it (differs from `name` for a renamed output).
    std::optional<ir::ValueId> valueFor(const std::string& name, const std::string& typeName = {}) {
        if (auto it = m_valueIds.find(name); it != m_valueIds.end()) return it->second;
        if (!m_triedValues.insert(name).second)
            return std::nullopt; // failed, and was reported
        ir::Value v;
        v.name = name;
        const std::string& lookup = typeName.empty() ? name : typeName;
        if (auto c = m_constants.find(lookup); c != m_constants.end()) {
            if (!initConstant(v, *c->second)) return std::nullopt;
        } else if (!initFromType(v, lookup)) {
            return std::nullopt;
        }
        if (v.dtype == ir::DType::String) {
            shapeError("string tensors are not supported by Strata's compiler", name);
            return std::nullopt;
        }
        const auto elements = ir::elementCount(v.shape);
        if (!elements || *elements > kMaxTensorElements) {
            shapeError("tensor is too large (" + ir::shapeToString(v.shape) + ")", name);
            return std::nullopt;
        }
        ir::ValueId id(static_cast<std::uint32_t>(m_graph->values.size()));
        m_graph->values.push_back(std::move(v));
        m_valueIds.emplace(name, id);
        return id;
    }

    bool initConstant(ir::Value& v, const onnx::TensorProto& t) {
        v.isConstant = true;
        v.isInitializer = m_in.initializerNames.count(t.name()) > 0;
        v.dtype = static_cast<ir::DType>(t.data_type());
        v.shape.assign(t.dims().begin(), t.dims().end());
        if (t.data_location() == onnx::TensorProto::EXTERNAL) {
            auto it = m_in.externalData.find(t.name());
            if (it == m_in.externalData.end()) {
                m_errors.push_back(error("external data of this tensor was not loaded",
                                         {.file = m_in.file, .value = t.name()}));
                return false;
            }
            v.data = it->second;
        } else {
            v.data = referenceTensorData(t, m_in.model);
        }
        return true;
    }

    bool initFromType(ir::Value& v, const std::string& lookup) {
        auto it = m_types.find(lookup);
        const onnx::TypeProto* type = it == m_types.end() ? nullptr : it->second;
        if (!type || !type->has_tensor_type() || type->tensor_type().elem_type() == 0) {
            if (type && !type->has_tensor_type())
                shapeError("value is not a tensor (sequence, map or optional types are not "
                           "supported)",
                           v.name);
            else
                shapeError(producerText(lookup) + "its type could not be inferred", v.name);
            return false;
        }
        const auto& tensor = type->tensor_type();
        v.dtype = static_cast<ir::DType>(tensor.elem_type());
        if (!tensor.has_shape()) {
            shapeError(producerText(lookup) + "its shape could not be inferred" +
                           dataDependence(lookup),
                       v.name);
            return false;
        }
        for (const auto& d : tensor.shape().dim()) {
            if (!d.has_dim_value() || d.dim_value() < 0) {
                shapeError(
                    producerText(lookup) + "its shape is not static (dim " +
                        (d.has_dim_param() ? "'" + d.dim_param() + "'" : std::string("?")) + ")" +
                        dataDependence(lookup,
                                       "; it depends on data Strata cannot know before running"),
                    v.name);
                return false;
            }
            v.shape.push_back(d.dim_value());
        }
        return true;
    }

    // "; it depends on the data of graph input 'ids', which ...", or `otherwise` when no graph
    // input's data reaches `name`.
    std::string dataDependence(const std::string& name, const std::string& otherwise = {}) const {
        std::string inputs;
        for (const auto& input : graphInputsShaping(m_graphProto, name))
            inputs += (inputs.empty() ? "'" : ", '") + input + "'";
        return inputs.empty() ? otherwise
                              : "; it depends on the data of graph input " + inputs +
                                    ", which Strata cannot know before running";
    }

    std::string producerText(const std::string& name) const {
        auto it = m_producer.find(name);
        if (it == m_producer.end()) return "";
        const auto& node = m_graphProto.node(it->second);
        return "output of '" + node.name() + "' (" + node.op_type() + "): ";
    }

    void addOp(int index) {
        const onnx::NodeProto& node = m_graphProto.node(index);
        ir::Op op;
        op.name = node.name();
        op.type = node.op_type();
        op.domain = node.domain() == "ai.onnx" ? "" : node.domain();
        op.opClass = classifyOp(op.type);
        for (const auto& a : node.attribute()) op.attributes.push_back({a.name(), convertAttribute(a)});
        bool ok = true;
        for (const auto& in : node.input()) {
            if (in.empty()) {
                op.inputs.emplace_back();
                continue;
            }
            auto id = valueFor(resolve(in));
            ok = ok && id;
            op.inputs.push_back(id.value_or(ir::ValueId{}));
        }
        for (const auto& out : node.output()) {
            if (out.empty()) continue;
            auto id = valueFor(outputName(index, out), out);
            ok = ok && id;
            op.outputs.push_back(id.value_or(ir::ValueId{}));
        }
        if (ok) m_graph->ops.push_back(std::move(op));
    }

    const BuildInputs& m_in;
    const onnx::GraphProto& m_graphProto;
    std::vector<Diagnostic>& m_notes;
    std::vector<Diagnostic> m_errors;
    int m_shapeErrors = 0;
    int m_aliasesRemoved = 0;

    std::unordered_map<std::string, const onnx::TensorProto*> m_constants;
    std::unordered_map<std::string, const onnx::TypeProto*> m_types;
    std::unordered_set<std::string> m_graphOutputs;
    std::unordered_set<std::string> m_read; // every name some node takes as an input
    std::unordered_map<std::string, int> m_producer;
    std::unordered_map<std::string, std::string> m_alias;
    std::unordered_map<int, std::unordered_map<std::string, std::string>> m_rename;
    std::vector<bool> m_removed;
    std::vector<bool> m_live;

    std::shared_ptr<ir::Graph> m_graph;
    std::unordered_map<std::string, ir::ValueId> m_valueIds;
    std::unordered_set<std::string> m_triedValues; // those without an id failed
};

} // namespace

Expected<std::shared_ptr<ir::Graph>> buildGraph(const BuildInputs& inputs,
                                                std::vector<Diagnostic>& notes) {
    return Builder(inputs, notes).run();
}

} // namespace strata::model
