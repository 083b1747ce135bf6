#include "OnnxBuilder.h"

#include <bit>
#include <functional>
#include <numeric>
#include <stdexcept>
#include <type_traits>

namespace strata::samples {
namespace {

constexpr const char* kProducerName = "strata-samples";
constexpr const char* kProducerVersion = "0.1.0";

// raw_data is little-endian by the ONNX spec; spelling the bytes out keeps the files identical
// on any host.
template <class T> void appendLittleEndian(std::string& out, T value) {
    using Bits = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;
    const auto bits = std::bit_cast<Bits>(value);
    for (std::size_t i = 0; i < sizeof(T); ++i) {
        out.push_back(static_cast<char>((bits >> (8 * i)) & 0xff));
    }
}

std::int64_t elementCount(const std::vector<std::int64_t>& dims) {
    return std::accumulate(dims.begin(), dims.end(), std::int64_t{1}, std::multiplies<>());
}

template <class T>
void fillTensor(onnx::TensorProto& tensor, const std::string& name,
                const std::vector<std::int64_t>& dims, const std::vector<T>& values) {
    if (static_cast<std::int64_t>(values.size()) != elementCount(dims)) {
        throw std::logic_error("tensor '" + name + "': value count does not match its dims");
    }
    tensor.set_name(name);
    tensor.set_data_type(std::is_same_v<T, float> ? onnx::TensorProto::FLOAT
                                                  : onnx::TensorProto::INT64);
    for (std::int64_t dim : dims) {
        tensor.add_dims(dim);
    }
    std::string raw;
    raw.reserve(values.size() * sizeof(T));
    for (T value : values) {
        appendLittleEndian(raw, value);
    }
    tensor.set_raw_data(std::move(raw));
}

void fillValueInfo(onnx::ValueInfoProto& info, const std::string& name,
                   const std::vector<Dim>& dims) {
    info.set_name(name);
    auto* tensorType = info.mutable_type()->mutable_tensor_type();
    tensorType->set_elem_type(onnx::TensorProto::FLOAT);
    auto* shape = tensorType->mutable_shape();
    for (const Dim& dim : dims) {
        auto* d = shape->add_dim();
        if (const auto* size = std::get_if<std::int64_t>(&dim)) {
            d->set_dim_value(*size);
        } else {
            d->set_dim_param(std::get<std::string>(dim));
        }
    }
}

void fillAttribute(onnx::AttributeProto& proto, const Attr& attr) {
    proto.set_name(attr.name);
    if (const auto* i = std::get_if<std::int64_t>(&attr.value)) {
        proto.set_type(onnx::AttributeProto::INT);
        proto.set_i(*i);
    } else if (const auto* f = std::get_if<float>(&attr.value)) {
        proto.set_type(onnx::AttributeProto::FLOAT);
        proto.set_f(*f);
    } else if (const auto* s = std::get_if<std::string>(&attr.value)) {
        proto.set_type(onnx::AttributeProto::STRING);
        proto.set_s(*s);
    } else {
        proto.set_type(onnx::AttributeProto::INTS);
        for (std::int64_t v : std::get<std::vector<std::int64_t>>(attr.value)) {
            proto.add_ints(v);
        }
    }
}

} // namespace

OnnxBuilder::OnnxBuilder(const std::string& graphName, std::uint64_t seed)
    : m_graph(m_model.mutable_graph()), m_rng(seed) {
    m_model.set_ir_version(kIrVersion);
    m_model.set_producer_name(kProducerName);
    m_model.set_producer_version(kProducerVersion);
    auto* opset = m_model.add_opset_import();
    opset->set_domain("");
    opset->set_version(kOpsetVersion);
    m_graph->set_name(graphName);
}

void OnnxBuilder::addInput(const std::string& name, const std::vector<Dim>& dims) {
    claimValueName(name);
    fillValueInfo(*m_graph->add_input(), name, dims);
}

void OnnxBuilder::addOutput(const std::string& name, const std::vector<Dim>& dims) {
    // The output names a value some node already produced, so no new name is claimed.
    fillValueInfo(*m_graph->add_output(), name, dims);
}

std::string OnnxBuilder::node(std::string_view opType, const std::string& name,
                              const std::vector<std::string>& inputs,
                              const std::vector<Attr>& attrs, const std::string& output) {
    if (name.empty() || !m_nodeNames.insert(name).second) {
        throw std::logic_error("node name '" + name + "' is empty or used twice");
    }
    const std::string outputName = output.empty() ? name + "_out" : output;
    claimValueName(outputName);

    auto* proto = m_graph->add_node();
    proto->set_op_type(std::string(opType));
    proto->set_name(name);
    for (const auto& input : inputs) {
        proto->add_input(input);
    }
    proto->add_output(outputName);
    for (const auto& attr : attrs) {
        fillAttribute(*proto->add_attribute(), attr);
    }
    return outputName;
}

std::string OnnxBuilder::randomWeight(const std::string& name,
                                      const std::vector<std::int64_t>& dims, float center) {
    std::vector<float> values(static_cast<std::size_t>(elementCount(dims)));
    for (float& value : values) {
        value = center + symmetric(m_rng, kWeightAmplitude);
    }
    return floatInitializer(name, dims, values);
}

std::string OnnxBuilder::floatInitializer(const std::string& name,
                                          const std::vector<std::int64_t>& dims,
                                          const std::vector<float>& values) {
    claimValueName(name);
    fillTensor(*m_graph->add_initializer(), name, dims, values);
    return name;
}

std::string OnnxBuilder::constantFloats(const std::string& name,
                                        const std::vector<std::int64_t>& dims,
                                        const std::vector<float>& values) {
    auto [output, tensor] = addConstantNode(name);
    fillTensor(tensor, {}, dims, values);
    return output;
}

std::string OnnxBuilder::constantInt64s(const std::string& name,
                                        const std::vector<std::int64_t>& dims,
                                        const std::vector<std::int64_t>& values) {
    auto [output, tensor] = addConstantNode(name);
    fillTensor(tensor, {}, dims, values);
    return output;
}

std::pair<std::string, onnx::TensorProto&> OnnxBuilder::addConstantNode(const std::string& name) {
    std::string output = node("Constant", name, {});
    auto* attr = m_graph->mutable_node(m_graph->node_size() - 1)->add_attribute();
    attr->set_name("value");
    attr->set_type(onnx::AttributeProto::TENSOR);
    return {std::move(output), *attr->mutable_t()};
}

onnx::ModelProto OnnxBuilder::finish(const std::string& docString) {
    m_model.set_doc_string(docString);
    m_graph = nullptr;
    return std::move(m_model);
}

void OnnxBuilder::claimValueName(const std::string& name) {
    if (name.empty() || !m_valueNames.insert(name).second) {
        throw std::logic_error("value name '" + name + "' is empty or used twice");
    }
}

} // namespace strata::samples
