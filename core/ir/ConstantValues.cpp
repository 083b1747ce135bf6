#include "ir/ConstantValues.h"

#include <cstring>

namespace strata::ir {
namespace {

template <class T, class Out>
std::vector<Out> readAs(const TensorData& data, std::size_t count) {
    std::vector<Out> out(count);
    for (std::size_t i = 0; i < count; ++i) {
        T v; // memcpy: constant bytes carry no alignment promise
        std::memcpy(&v, data.data + i * sizeof(T), sizeof(T));
        out[i] = v;
    }
    return out;
}

// The value `id` names when it is a constant whose element count is known.
const Value* constantWithElements(const Graph& graph, ValueId id) {
    if (!id.valid()) return nullptr;
    const Value& v = graph.value(id);
    if (!v.isConstant || !elementCount(v.shape)) return nullptr;
    return &v;
}

} // namespace

std::optional<std::vector<std::int64_t>> constantInts(const Graph& graph, ValueId id) {
    const Value* v = constantWithElements(graph, id);
    if (!v) return std::nullopt;
    const std::size_t n = static_cast<std::size_t>(v->elements());
    if (v->dtype == DType::Int64 && v->data.size == n * 8) return readAs<std::int64_t, std::int64_t>(v->data, n);
    if (v->dtype == DType::Int32 && v->data.size == n * 4) return readAs<std::int32_t, std::int64_t>(v->data, n);
    return std::nullopt;
}

std::optional<std::vector<double>> constantFloats(const Graph& graph, ValueId id) {
    const Value* v = constantWithElements(graph, id);
    if (!v) return std::nullopt;
    const std::size_t n = static_cast<std::size_t>(v->elements());
    if (v->dtype == DType::Float32 && v->data.size == n * 4) return readAs<float, double>(v->data, n);
    if (v->dtype == DType::Float64 && v->data.size == n * 8) return readAs<double, double>(v->data, n);
    return std::nullopt;
}

} // namespace strata::ir
