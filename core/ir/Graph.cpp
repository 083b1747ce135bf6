#include "ir/Graph.h"

#include <limits>
#include <map>

namespace strata::ir {

std::string_view opClassName(OpClass opClass) {
    switch (opClass) {
    case OpClass::Conv: return "conv";
    case OpClass::MatMul: return "matmul";
    case OpClass::Elementwise: return "elementwise";
    case OpClass::Normalization: return "normalization";
    case OpClass::Pooling: return "pooling";
    case OpClass::Reduction: return "reduction";
    case OpClass::Softmax: return "softmax";
    case OpClass::DataMovement: return "data-movement";
    case OpClass::Other: return "other";
    }
    return "other";
}

std::optional<std::int64_t> elementCount(const Shape& shape) {
    std::int64_t n = 1;
    for (std::int64_t d : shape) {
        if (d < 0) return std::nullopt;
        if (__builtin_mul_overflow(n, d, &n)) return std::nullopt;
    }
    return n;
}

std::string shapeToString(const Shape& shape) {
    if (shape.empty()) return "scalar";
    std::string out;
    for (std::size_t i = 0; i < shape.size(); ++i) {
        if (i) out += 'x';
        out += std::to_string(shape[i]);
    }
    return out;
}

std::int64_t Value::elements() const {
    return elementCount(shape).value_or(std::numeric_limits<std::int64_t>::max());
}

std::uint64_t Value::bytes() const {
    return static_cast<std::uint64_t>(elements()) * dtypeSize(dtype);
}

const Attribute* Op::attribute(std::string_view attrName) const {
    for (const Attribute& a : attributes)
        if (a.name == attrName) return &a;
    return nullptr;
}

std::int64_t Op::attrInt(std::string_view attrName, std::int64_t fallback) const {
    const Attribute* a = attribute(attrName);
    if (!a) return fallback;
    if (const auto* v = std::get_if<std::int64_t>(&a->value)) return *v;
    return fallback;
}

std::vector<std::int64_t> Op::attrInts(std::string_view attrName) const {
    const Attribute* a = attribute(attrName);
    if (!a) return {};
    if (const auto* v = std::get_if<std::vector<std::int64_t>>(&a->value)) return *v;
    return {};
}

std::optional<OpId> Graph::findOp(std::string_view opName) const {
    auto it = m_opByName.find(std::string(opName));
    if (it == m_opByName.end()) return std::nullopt;
    return it->second;
}

std::optional<ValueId> Graph::findValue(std::string_view valueName) const {
    auto it = m_valueByName.find(std::string(valueName));
    if (it == m_valueByName.end()) return std::nullopt;
    return it->second;
}

double Graph::totalFlops() const {
    double total = 0;
    for (const Op& op : ops) total += op.cost.flops;
    return total;
}

std::vector<std::pair<std::string, int>> Graph::opTypeCounts() const {
    std::map<std::string, int> counts;
    for (const Op& op : ops) ++counts[op.type];
    return {counts.begin(), counts.end()};
}

void Graph::finalize() {
    m_opByName.clear();
    m_valueByName.clear();
    for (Value& v : values) v.consumers.clear();
    for (std::uint32_t i = 0; i < values.size(); ++i) m_valueByName.emplace(values[i].name, ValueId(i));
    for (std::uint32_t i = 0; i < ops.size(); ++i) {
        m_opByName.emplace(ops[i].name, OpId(i));
        for (ValueId in : ops[i].inputs)
            if (in.valid()) values[in.index].consumers.push_back(OpId(i));
        for (ValueId out : ops[i].outputs) values[out.index].producer = OpId(i);
    }
}

} // namespace strata::ir
