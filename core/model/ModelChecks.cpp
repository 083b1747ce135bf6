#include "model/ModelChecks.h"

#include "ir/DType.h"

#include <algorithm>
#include <deque>
#include <unordered_map>
#include <unordered_set>

namespace strata::model {

std::int64_t defaultOpset(const onnx::ModelProto& model) {
    for (const auto& opset : model.opset_import())
        if (opset.domain().empty() || opset.domain() == "ai.onnx") return opset.version();
    return 0;
}

bool isValidUtf8(const std::string& text) {
    const auto* s = reinterpret_cast<const unsigned char*>(text.data());
    const std::size_t n = text.size();
    for (std::size_t i = 0; i < n;) {
        unsigned char c = s[i];
        std::size_t extra = 0;
        std::uint32_t cp = 0;
        if (c < 0x80) {
            ++i;
            continue;
        } else if ((c & 0xE0) == 0xC0) {
            extra = 1;
            cp = c & 0x1F;
        } else if ((c & 0xF0) == 0xE0) {
            extra = 2;
            cp = c & 0x0F;
        } else if ((c & 0xF8) == 0xF0) {
            extra = 3;
            cp = c & 0x07;
        } else {
            return false;
        }
        if (i + extra >= n) return false;
        for (std::size_t k = 1; k <= extra; ++k) {
            if ((s[i + k] & 0xC0) != 0x80) return false;
            cp = (cp << 6) | (s[i + k] & 0x3F);
        }
        // Overlong encodings, surrogates and code points past U+10FFFF are invalid.
        if ((extra == 1 && cp < 0x80) || (extra == 2 && cp < 0x800) ||
            (extra == 3 && cp < 0x10000) || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
            return false;
        i += extra + 1;
    }
    return true;
}

namespace {

// A printable excerpt of a name that may be huge or not UTF-8.
std::string excerpt(const std::string& name) {
    std::string out;
    for (char c : name.substr(0, 40)) out += (c >= 0x20 && c < 0x7f) ? c : '?';
    if (name.size() > 40) out += "...";
    return out;
}

bool checkName(const std::string& name, const std::string& what, const Location& where,
               std::vector<Diagnostic>& out) {
    if (name.size() > kMaxNameBytes) {
        out.push_back(error(what + " name '" + excerpt(name) + "' is " +
                                std::to_string(name.size()) + " bytes long; names are limited to " +
                                std::to_string(kMaxNameBytes) + " bytes",
                            where));
        return false;
    }
    if (!isValidUtf8(name)) {
        out.push_back(error(what + " name '" + excerpt(name) + "' is not valid UTF-8", where));
        return false;
    }
    return true;
}

bool hasSubgraph(const onnx::NodeProto& node) {
    return std::any_of(node.attribute().begin(), node.attribute().end(), [](const auto& a) {
        return a.type() == onnx::AttributeProto::GRAPH ||
               a.type() == onnx::AttributeProto::GRAPHS || a.has_g() || a.graphs_size() > 0;
    });
}

bool isSupportedDomain(const std::string& domain) {
    return domain.empty() || domain == "ai.onnx";
}

void checkValueInfo(const onnx::ValueInfoProto& info, const std::string& role,
                    const std::string& file, std::vector<Diagnostic>& out) {
    Location where{.file = file, .value = excerpt(info.name())};
    if (!info.has_type()) return; // outputs may omit types; shape inference fills them
    const auto& type = info.type();
    if (!type.has_tensor_type()) {
        const char* kind = type.has_sequence_type() ? "a sequence"
                           : type.has_map_type()    ? "a map"
                           : type.has_optional_type() ? "an optional"
                           : type.has_sparse_tensor_type() ? "a sparse tensor"
                                                           : "not a tensor";
        out.push_back(error(role + " is " + std::string(kind) +
                                "; Strata's compiler handles dense tensors only",
                            where));
        return;
    }
    const auto& tensor = type.tensor_type();
    if (tensor.elem_type() != 0 && !ir::isValidDType(tensor.elem_type()))
        out.push_back(error(role + " has unknown element type " +
                                std::to_string(tensor.elem_type()),
                            where));
    if (!tensor.has_shape()) return;
    std::int64_t elements = 1;
    for (int i = 0; i < tensor.shape().dim_size(); ++i) {
        const auto& dim = tensor.shape().dim(i);
        if (!dim.has_dim_value()) continue; // dynamic: InputShapes decides it
        const std::int64_t d = dim.dim_value();
        if (d < 0) {
            out.push_back(error(role + " has negative dimension " + std::to_string(d) +
                                    " at axis " + std::to_string(i),
                                where));
            return;
        }
        if (d == 0 && role.starts_with("graph input")) {
            out.push_back(error(role + " has dimension 0 at axis " + std::to_string(i) +
                                    "; Strata needs non-empty inputs",
                                where));
            return;
        }
        if (__builtin_mul_overflow(elements, d, &elements) || elements > kMaxTensorElements) {
            out.push_back(error(role + " is too large: dimension " + std::to_string(d) +
                                    " at axis " + std::to_string(i) +
                                    " makes it exceed 2^40 elements",
                                where));
            return;
        }
    }
}

} // namespace

void checkTensor(const onnx::TensorProto& tensor, const Location& where,
                 std::vector<Diagnostic>& out) {
    if (!ir::isValidDType(tensor.data_type())) {
        out.push_back(error("tensor has unknown element type " +
                                std::to_string(tensor.data_type()),
                            where));
        return;
    }
    std::int64_t elements = 1;
    for (int i = 0; i < tensor.dims_size(); ++i) {
        const std::int64_t d = tensor.dims(i);
        if (d < 0) {
            out.push_back(error("tensor has negative dimension " + std::to_string(d) +
                                    " at axis " + std::to_string(i),
                                where));
            return;
        }
        if (__builtin_mul_overflow(elements, d, &elements) || elements > kMaxTensorElements) {
            out.push_back(error("tensor is too large: dimension " + std::to_string(d) +
                                    " at axis " + std::to_string(i) +
                                    " makes it exceed 2^40 elements",
                                where));
            return;
        }
    }
    if (tensor.data_location() == onnx::TensorProto::EXTERNAL) return; // checked on load
    const auto type = static_cast<ir::DType>(tensor.data_type());
    const std::size_t elemSize = ir::dtypeSize(type);
    const auto n = static_cast<std::uint64_t>(elements);
    if (tensor.has_raw_data()) {
        if (elemSize > 0 && tensor.raw_data().size() != n * elemSize)
            out.push_back(error("raw_data holds " + std::to_string(tensor.raw_data().size()) +
                                    " bytes but dims " + "need " + std::to_string(n * elemSize) +
                                    " (" + std::to_string(n) + " x " + std::to_string(elemSize) +
                                    "-byte elements)",
                                where));
        return;
    }
    // Typed fields: complex types store two numbers per element.
    std::uint64_t stored = 0;
    std::uint64_t perElement = 1;
    switch (type) {
    case ir::DType::Float32: stored = tensor.float_data_size(); break;
    case ir::DType::Complex64: stored = tensor.float_data_size(); perElement = 2; break;
    case ir::DType::Float64: stored = tensor.double_data_size(); break;
    case ir::DType::Complex128: stored = tensor.double_data_size(); perElement = 2; break;
    case ir::DType::Int64: stored = tensor.int64_data_size(); break;
    case ir::DType::UInt32:
    case ir::DType::UInt64: stored = tensor.uint64_data_size(); break;
    case ir::DType::String: stored = tensor.string_data_size(); break;
    default: stored = tensor.int32_data_size(); break;
    }
    if (stored != n * perElement)
        out.push_back(error("tensor holds " + std::to_string(stored) + " values but dims need " +
                                std::to_string(n * perElement),
                            where));
}

void checkGraphStructure(onnx::ModelProto& model, const std::string& file,
                         std::vector<Diagnostic>& out) {
    onnx::GraphProto& graph = *model.mutable_graph();
    const std::size_t errorsBefore = out.size();

    if (defaultOpset(model) == 0)
        out.push_back(error("the model imports no opset of the default ONNX domain", {.file = file}));
    if (graph.node_size() == 0)
        out.push_back(error("the graph has no nodes", {.file = file}));
    if (graph.sparse_initializer_size() > 0)
        out.push_back(error("sparse initializers are not supported", {.file = file}));

    // Where each value is defined: graph input, initializer or a node output.
    std::unordered_map<std::string, int> producer; // node index, -1 for inputs/initializers
    auto define = [&](const std::string& name, int node, const Location& where) {
        if (name.empty()) return;
        auto [it, inserted] = producer.emplace(name, node);
        if (!inserted && !(node < 0 && it->second < 0)) {
            const std::string first =
                it->second < 0 ? "a graph input or initializer"
                               : "node '" + graph.node(it->second).name() + "'";
            out.push_back(error("value '" + excerpt(name) + "' is defined twice (first by " +
                                    first + "); ONNX graphs must be in SSA form",
                                where));
        }
    };
    for (const auto& init : graph.initializer()) {
        Location where{.file = file, .value = excerpt(init.name())};
        if (!checkName(init.name(), "initializer", where, out)) continue;
        checkTensor(init, where, out);
        define(init.name(), -1, where);
    }
    for (const auto& input : graph.input()) {
        Location where{.file = file, .value = excerpt(input.name())};
        if (!checkName(input.name(), "graph input", where, out)) continue;
        checkValueInfo(input, "graph input '" + excerpt(input.name()) + "'", file, out);
        define(input.name(), -1, where);
    }

    // Node names: must be valid; empty or duplicate ones get unique replacements.
    std::unordered_set<std::string> nodeNames;
    int renamed = 0;
    for (int i = 0; i < graph.node_size(); ++i) {
        onnx::NodeProto& node = *graph.mutable_node(i);
        Location where{.file = file, .node = excerpt(node.name())};
        if (!checkName(node.name(), "node", where, out)) continue;
        if (!checkName(node.op_type(), "op type", where, out)) continue;
        if (node.name().empty() || nodeNames.count(node.name())) {
            std::string base = node.name().empty() ? node.op_type() + "_" + std::to_string(i)
                                                   : node.name();
            std::string candidate = base;
            for (int k = 1; nodeNames.count(candidate); ++k) candidate = base + "_" + std::to_string(k);
            if (!node.name().empty()) ++renamed;
            node.set_name(candidate);
        }
        nodeNames.insert(node.name());
        where.node = node.name();
        if (!isSupportedDomain(node.domain()))
            out.push_back(error("op '" + node.op_type() + "' is in domain '" + excerpt(node.domain()) +
                                    "', which Strata does not support (only the default ONNX "
                                    "domain)",
                                where));
        if (hasSubgraph(node))
            out.push_back(error("op '" + node.op_type() +
                                    "' has a subgraph; control flow (If/Loop/Scan) is not "
                                    "supported by Strata's compiler",
                                where));
        for (const auto& attr : node.attribute())
            if (attr.has_t()) checkTensor(attr.t(), where, out);
        for (const auto& name : node.output()) {
            if (!checkName(name, "value", where, out)) continue;
            define(name, i, where);
        }
    }
    if (renamed > 0)
        out.push_back(warning(std::to_string(renamed) +
                                  " node(s) had a name used before; they were renamed with a "
                                  "numeric suffix",
                              {.file = file}));
    if (out.size() > errorsBefore && hasErrors({out.begin() + errorsBefore, out.end()})) return;

    // Every input must be defined; then sort (Kahn, stable by original index).
    const int n = graph.node_size();
    std::vector<int> pending(n, 0);
    std::vector<std::vector<int>> users(n);
    for (int i = 0; i < n; ++i) {
        const auto& node = graph.node(i);
        for (const auto& in : node.input()) {
            if (in.empty()) continue; // omitted optional input
            auto it = producer.find(in);
            if (it == producer.end()) {
                out.push_back(error("input '" + excerpt(in) + "' of op '" + node.op_type() +
                                        "' is not produced by any node, graph input or "
                                        "initializer",
                                    {.file = file, .node = node.name()}));
                continue;
            }
            if (it->second >= 0) {
                users[it->second].push_back(i);
                ++pending[i];
            }
        }
    }
    for (const auto& output : graph.output()) {
        if (!checkName(output.name(), "graph output", {.file = file}, out)) continue;
        if (!producer.count(output.name()))
            out.push_back(error("graph output is not produced by any node, graph input or "
                                "initializer",
                                {.file = file, .value = excerpt(output.name())}));
        checkValueInfo(output, "graph output '" + excerpt(output.name()) + "'", file, out);
    }
    if (hasErrors({out.begin() + errorsBefore, out.end()})) return;

    std::vector<int> order;
    order.reserve(n);
    std::vector<int> ready;
    for (int i = n - 1; i >= 0; --i)
        if (pending[i] == 0) ready.push_back(i);
    // `ready` is a max-heap on -index so the earliest node goes first: stable order.
    auto later = [](int a, int b) { return a > b; };
    std::make_heap(ready.begin(), ready.end(), later);
    while (!ready.empty()) {
        std::pop_heap(ready.begin(), ready.end(), later);
        int i = ready.back();
        ready.pop_back();
        order.push_back(i);
        for (int user : users[i])
            if (--pending[user] == 0) {
                ready.push_back(user);
                std::push_heap(ready.begin(), ready.end(), later);
            }
    }
    if (static_cast<int>(order.size()) != n) {
        std::string names;
        int listed = 0;
        for (int i = 0; i < n && listed < 5; ++i)
            if (pending[i] > 0) {
                names += (listed++ ? ", '" : "'") + graph.node(i).name() + "'";
            }
        out.push_back(error("the graph has a cycle: " + std::to_string(n - order.size()) +
                                " node(s) depend on their own outputs, among them " + names,
                            {.file = file}));
        return;
    }
    bool sorted = std::is_sorted(order.begin(), order.end());
    if (!sorted) {
        google::protobuf::RepeatedPtrField<onnx::NodeProto> nodes;
        nodes.Reserve(n);
        for (int i : order) *nodes.Add() = std::move(*graph.mutable_node(i));
        graph.mutable_node()->Swap(&nodes);
    }
}

namespace {

const onnx::AttributeProto* findAttr(const onnx::NodeProto& node, const char* name) {
    for (const auto& a : node.attribute())
        if (a.name() == name) return &a;
    return nullptr;
}

void requireAll(const onnx::NodeProto& node, const char* attr, std::int64_t minimum,
                const Location& where, std::vector<Diagnostic>& out) {
    const auto* a = findAttr(node, attr);
    if (!a) return;
    for (std::int64_t v : a->ints())
        if (v < minimum) {
            out.push_back(error("attribute '" + std::string(attr) + "' has value " +
                                    std::to_string(v) + "; it must be at least " +
                                    std::to_string(minimum),
                                where));
            return;
        }
}

} // namespace

void checkAttributeRanges(const onnx::GraphProto& graph, const std::string& file,
                          std::vector<Diagnostic>& out) {
    static const std::unordered_set<std::string> kWindowed = {
        "Conv", "ConvTranspose", "ConvInteger", "QLinearConv", "MaxPool", "AveragePool",
        "LpPool", "MaxUnpool", "MaxRoiPool", "DeformConv"};
    for (const auto& node : graph.node()) {
        if (!kWindowed.count(node.op_type())) continue;
        Location where{.file = file, .node = node.name()};
        requireAll(node, "strides", 1, where, out);
        requireAll(node, "dilations", 1, where, out);
        requireAll(node, "kernel_shape", 1, where, out);
        requireAll(node, "pads", 0, where, out);
        requireAll(node, "output_padding", 0, where, out);
        if (const auto* g = findAttr(node, "group"); g && g->i() < 1)
            out.push_back(error("attribute 'group' has value " + std::to_string(g->i()) +
                                    "; it must be at least 1",
                                where));
    }
}

} // namespace strata::model
