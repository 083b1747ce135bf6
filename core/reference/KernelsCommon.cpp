#include "reference/Kernels.h"

namespace strata::reference::kernels {

ir::DType SupportQuery::inputType(std::size_t i) const {
    if (!graph || !hasInput(i))
        return ir::DType::Undefined;
    return graph->value(op.inputs[i]).dtype;
}

ir::DType SupportQuery::outputType(std::size_t i) const {
    if (!graph || i >= op.outputs.size())
        return ir::DType::Undefined;
    return graph->value(op.outputs[i]).dtype;
}

double attrFloat(const ir::Op& op, std::string_view name, double fallback) {
    const ir::Attribute* a = op.attribute(name);
    if (!a)
        return fallback;
    if (const auto* v = std::get_if<double>(&a->value))
        return *v;
    if (const auto* v = std::get_if<std::int64_t>(&a->value))
        return double(*v);
    return fallback;
}

std::string attrString(const ir::Op& op, std::string_view name, std::string_view fallback) {
    const ir::Attribute* a = op.attribute(name);
    if (a)
        if (const auto* v = std::get_if<std::string>(&a->value))
            return *v;
    return std::string(fallback);
}

std::vector<double> attrFloats(const ir::Op& op, std::string_view name) {
    const ir::Attribute* a = op.attribute(name);
    if (a)
        if (const auto* v = std::get_if<std::vector<double>>(&a->value))
            return *v;
    return {};
}

bool hasAttr(const ir::Op& op, std::string_view name) {
    return op.attribute(name) != nullptr;
}

bool isFloatType(ir::DType t) {
    return t == ir::DType::Float32 || t == ir::DType::Float64 || t == ir::DType::Float16 ||
           t == ir::DType::BFloat16;
}

bool isNumericType(ir::DType t) {
    return visitNumeric(t, []<class T>(TypeTag<T>) {});
}

bool isIndexType(ir::DType t) {
    return t == ir::DType::Int32 || t == ir::DType::Int64;
}

std::vector<std::int64_t> stridesOf(const ir::Shape& shape) {
    std::vector<std::int64_t> strides(shape.size(), 1);
    for (std::size_t d = shape.size(); d-- > 1;)
        strides[d - 1] = strides[d] * shape[d];
    return strides;
}

std::optional<std::int64_t> normalizeAxis(std::int64_t axis, std::int64_t rank) {
    if (axis < -rank || axis >= rank)
        return std::nullopt;
    return axis < 0 ? axis + rank : axis;
}

std::int64_t dot(const Index& index, const std::vector<std::int64_t>& strides) {
    std::int64_t sum = 0;
    for (std::size_t d = 0; d < index.size(); ++d)
        sum += index[d] * strides[d];
    return sum;
}

std::vector<std::int64_t> broadcastStrides(const ir::Shape& inShape, std::size_t outRank) {
    std::vector<std::int64_t> out(outRank, 0);
    const auto strides = stridesOf(inShape);
    const std::size_t shift = outRank - inShape.size();
    for (std::size_t d = 0; d < inShape.size(); ++d)
        out[shift + d] = inShape[d] == 1 ? 0 : strides[d];
    return out;
}

bool broadcastsTo(const ir::Shape& in, const ir::Shape& out) {
    if (in.size() > out.size())
        return false;
    const std::size_t shift = out.size() - in.size();
    for (std::size_t d = 0; d < in.size(); ++d)
        if (in[d] != 1 && in[d] != out[shift + d])
            return false;
    return true;
}

double scalarInput(const KernelContext& ctx, std::size_t i, double fallback) {
    if (!ctx.has(i) || ctx.in(i).elements() == 0)
        return fallback;
    return ctx.in(i).at(0);
}

} // namespace strata::reference::kernels
