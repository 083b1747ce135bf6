// Indexing and generators: Gather, GatherElements, GatherND, ScatterElements, ScatterND,
// OneHot, Trilu, EyeLike, Range, CumSum, Shape, Size, ConstantOfShape. Indices are checked:
// one out of range is an error naming it, not a read out of bounds.

#include "reference/Kernels.h"

#include <cstring>

namespace strata::reference::kernels {

namespace {

using Result = std::optional<std::string>;

std::string indexError(std::int64_t index, std::int64_t dim) {
    return "index " + std::to_string(index) + " is out of range for a dim of " +
           std::to_string(dim);
}

// An index that may count from the back; nullopt when outside [-dim, dim).
std::optional<std::int64_t> wrapIndex(std::int64_t index, std::int64_t dim) {
    if (index < -dim || index >= dim)
        return std::nullopt;
    return index < 0 ? index + dim : index;
}

Result gatherKernel(const KernelContext& ctx) {
    const Tensor& data = ctx.in(0);
    const auto indices = ctx.in(1).toInt64s();
    const ir::Shape& iShape = ctx.in(1).shape;
    const auto axis = normalizeAxis(ctx.op.attrInt("axis", 0), std::int64_t(data.shape.size()));
    if (!axis)
        return "axis out of range";
    const auto a = std::size_t(*axis);
    const auto strides = stridesOf(data.shape);
    const auto iStrides = stridesOf(iShape);
    const std::int64_t dim = data.shape[a];
    std::optional<std::string> failure;
    // Output dims: data[:axis], indices dims, data[axis+1:].
    gatherElements(data, ctx.output, ctx.region, [&](const Index& i) -> std::int64_t {
        std::int64_t at = 0;
        for (std::size_t d = 0; d < iShape.size(); ++d)
            at += i[a + d] * iStrides[d];
        const auto k = wrapIndex(indices[std::size_t(at)], dim);
        if (!k) {
            failure = indexError(indices[std::size_t(at)], dim);
            return -1;
        }
        std::int64_t offset = *k * strides[a];
        for (std::size_t d = 0; d < a; ++d)
            offset += i[d] * strides[d];
        for (std::size_t d = a + 1; d < data.shape.size(); ++d)
            offset += i[d - 1 + iShape.size()] * strides[d];
        return offset;
    });
    return failure;
}

std::string indicesCheck(const SupportQuery& q) {
    if (!q.graph)
        return {};
    if (!isIndexType(q.inputType(1)))
        return "indices must be int32 or int64";
    if (q.inputType(0) != q.outputType(0))
        return "data and output dtypes differ";
    return {};
}

Result gatherElementsKernel(const KernelContext& ctx) {
    const Tensor& data = ctx.in(0);
    const auto indices = ctx.in(1).toInt64s();
    const auto axis = normalizeAxis(ctx.op.attrInt("axis", 0), std::int64_t(data.shape.size()));
    if (!axis)
        return "axis out of range";
    const auto a = std::size_t(*axis);
    const auto strides = stridesOf(data.shape);
    const auto iStrides = stridesOf(ctx.in(1).shape);
    std::optional<std::string> failure;
    gatherElements(data, ctx.output, ctx.region, [&](const Index& i) -> std::int64_t {
        const std::int64_t raw = indices[std::size_t(dot(i, iStrides))];
        const auto k = wrapIndex(raw, data.shape[a]);
        if (!k) {
            failure = indexError(raw, data.shape[a]);
            return -1;
        }
        Index j = i;
        j[a] = *k;
        return dot(j, strides);
    });
    return failure;
}

// GatherND: indices [..., m] pick slices data[b..., i0..im-1, ...] (batch_dims leading dims
// shared).
Result gatherNdKernel(const KernelContext& ctx) {
    const Tensor& data = ctx.in(0);
    const auto indices = ctx.in(1).toInt64s();
    const ir::Shape& iShape = ctx.in(1).shape;
    const auto batch = std::size_t(ctx.op.attrInt("batch_dims", 0));
    const auto m = std::size_t(iShape.back());
    const std::size_t q = iShape.size();
    if (batch + m > data.shape.size())
        return "index tuples are longer than the data's rank";
    const auto strides = stridesOf(data.shape);
    const auto iStrides = stridesOf(iShape);
    std::optional<std::string> failure;
    // Output dims: indices dims [:-1], then data dims [batch + m:].
    gatherElements(data, ctx.output, ctx.region, [&](const Index& i) -> std::int64_t {
        std::int64_t tuple = 0;
        for (std::size_t d = 0; d + 1 < q; ++d)
            tuple += i[d] * iStrides[d];
        std::int64_t offset = 0;
        for (std::size_t d = 0; d < batch; ++d)
            offset += i[d] * strides[d];
        for (std::size_t k = 0; k < m; ++k) {
            const std::int64_t raw = indices[std::size_t(tuple + std::int64_t(k))];
            const auto v = wrapIndex(raw, data.shape[batch + k]);
            if (!v) {
                failure = indexError(raw, data.shape[batch + k]);
                return -1;
            }
            offset += *v * strides[batch + k];
        }
        for (std::size_t d = batch + m; d < data.shape.size(); ++d)
            offset += i[q - 1 + d - batch - m] * strides[d];
        return offset;
    });
    return failure;
}

std::string gatherNdCheck(const SupportQuery& q) {
    if (q.graph && q.inputType(1) != ir::DType::Int64)
        return "indices must be int64";
    return indicesCheck(q);
}

// Scatter: the output is `data` with updates written over it. A region copies its part of data,
// then applies, in order, every update that lands inside it. `target(u, at, failure)` sets `at`
// to the data index update element u (a flat offset into updates) writes to.
template <class Target> Result scatter(const KernelContext& ctx, Target target) {
    const Tensor& data = ctx.in(0);
    const Tensor& updates = ctx.in(2);
    const std::string reduction = attrString(ctx.op, "reduction", "none");
    const auto strides = stridesOf(data.shape);
    gatherElements(data, ctx.output, ctx.region, [&](const Index& i) { return dot(i, strides); });
    std::optional<std::string> failure;
    visitAny(data.dtype, [&]<class T>(TypeTag<T>) {
        T* out = ctx.output.data<T>();
        const T* upd = updates.data<T>();
        Index at(data.shape.size());
        for (std::int64_t u = 0; u < updates.elements() && !failure; ++u) {
            if (!target(u, at, failure))
                continue;
            bool inside = true;
            for (std::size_t d = 0; d < at.size(); ++d)
                inside = inside && at[d] >= ctx.region[d].begin && at[d] < ctx.region[d].end;
            if (!inside)
                continue;
            T& dst = out[dot(at, strides)];
            const T v = upd[u];
            if constexpr (std::is_same_v<T, bool>) {
                dst = reduction == "add" ? (dst || v) : reduction == "mul" ? (dst && v) : v;
            } else {
                const auto a = load(dst), b = load(v);
                using C = std::remove_cv_t<decltype(a)>;
                dst = reduction == "add"   ? store<T>(C(a + b))
                      : reduction == "mul" ? store<T>(C(a * b))
                                           : v;
            }
        }
    });
    return failure;
}

// Index of flat offset `u` in `shape`, written to at[first], at[first + 1], ...
void unravel(std::int64_t u, const ir::Shape& shape, Index& at, std::size_t first) {
    for (std::size_t d = shape.size(); d-- > 0;) {
        at[first + d] = u % shape[d];
        u /= shape[d];
    }
}

Result scatterElementsKernel(const KernelContext& ctx) {
    const Tensor& data = ctx.in(0);
    const auto indices = ctx.in(1).toInt64s();
    const ir::Shape& iShape = ctx.in(1).shape;
    const auto axis = normalizeAxis(ctx.op.attrInt("axis", 0), std::int64_t(data.shape.size()));
    if (!axis)
        return "axis out of range";
    const auto a = std::size_t(*axis);
    return scatter(ctx, [&](std::int64_t u, Index& at, std::optional<std::string>& failure) {
        unravel(u, iShape, at, 0);
        const auto k = wrapIndex(indices[std::size_t(u)], data.shape[a]);
        if (!k) {
            failure = indexError(indices[std::size_t(u)], data.shape[a]);
            return false;
        }
        at[a] = *k;
        return true;
    });
}

// ScatterND: updates are indices.shape[:-1] + data.shape[m:]; each index tuple of length m
// names a slice of data.
Result scatterNdKernel(const KernelContext& ctx) {
    const Tensor& data = ctx.in(0);
    const auto indices = ctx.in(1).toInt64s();
    const auto m = std::size_t(ctx.in(1).shape.back());
    if (m > data.shape.size())
        return "index tuples are longer than the data's rank";
    const ir::Shape sliceShape(data.shape.begin() + std::ptrdiff_t(m), data.shape.end());
    const std::int64_t slice = ir::elementCount(sliceShape).value_or(0);
    return scatter(ctx, [&](std::int64_t u, Index& at, std::optional<std::string>& failure) {
        const std::int64_t t = u / slice;
        for (std::size_t k = 0; k < m; ++k) {
            const std::int64_t raw = indices[std::size_t(t) * m + k];
            const auto v = wrapIndex(raw, data.shape[k]);
            if (!v) {
                failure = indexError(raw, data.shape[k]);
                return false;
            }
            at[k] = *v;
        }
        unravel(u % slice, sliceShape, at, m);
        return true;
    });
}

std::string scatterCheck(const SupportQuery& q) {
    const std::string reduction = attrString(q.op, "reduction", "none");
    if (reduction != "none" && reduction != "add" && reduction != "mul")
        return "reduction '" + reduction + "' is not supported";
    if (q.graph && q.inputType(2) != q.inputType(0))
        return "updates and data dtypes differ";
    return indicesCheck(q);
}

Result oneHotKernel(const KernelContext& ctx) {
    const auto indices = ctx.in(0).toInt64s();
    const ir::Shape& iShape = ctx.in(0).shape;
    const std::int64_t depth = std::int64_t(ctx.in(1).at(0));
    const auto rank = std::int64_t(ctx.outShape().size());
    const auto axis = normalizeAxis(ctx.op.attrInt("axis", -1), rank);
    if (!axis)
        return "axis out of range";
    const auto a = std::size_t(*axis);
    const auto iStrides = stridesOf(iShape);
    const auto outStrides = stridesOf(ctx.outShape());
    const Tensor& values = ctx.in(2);
    const std::size_t size = ir::dtypeSize(values.dtype);
    forEachIndex(ctx.region, [&](const Index& i) {
        std::int64_t at = 0;
        for (std::size_t d = 0, k = 0; d < i.size(); ++d)
            if (d != a)
                at += i[d] * iStrides[k++];
        std::int64_t v = indices[std::size_t(at)];
        if (v < 0)
            v += depth;
        const bool on = v == i[a];
        std::memcpy(ctx.output.bytes.data() + dot(i, outStrides) * std::int64_t(size),
                    values.bytes.data() + (on ? size : 0), size);
    });
    return std::nullopt;
}

std::string oneHotCheck(const SupportQuery& q) {
    if (q.graph &&
        (q.inputType(2) != q.outputType(0) || q.graph->value(q.op.inputs[2]).elements() != 2))
        return "values must hold [off, on] in the output's dtype";
    return {};
}

Result triluKernel(const KernelContext& ctx) {
    const bool upper = ctx.op.attrInt("upper", 1) != 0;
    const std::int64_t k = ctx.has(1) ? std::int64_t(ctx.in(1).at(0)) : 0;
    const std::size_t r = ctx.outShape().size();
    if (r < 2)
        return "input must be at least 2-D";
    const auto strides = stridesOf(ctx.outShape());
    const std::size_t size = ir::dtypeSize(ctx.output.dtype);
    forEachIndex(ctx.region, [&](const Index& i) {
        const std::int64_t diagonal = i[r - 1] - i[r - 2];
        const bool keep = upper ? diagonal >= k : diagonal <= k;
        const std::int64_t at = dot(i, strides) * std::int64_t(size);
        if (keep)
            std::memcpy(ctx.output.bytes.data() + at, ctx.in(0).bytes.data() + at, size);
        else
            std::memset(ctx.output.bytes.data() + at, 0, size);
    });
    return std::nullopt;
}

Result eyeLikeKernel(const KernelContext& ctx) {
    const std::int64_t k = ctx.op.attrInt("k", 0);
    const auto strides = stridesOf(ctx.outShape());
    visitAny(ctx.output.dtype, [&]<class T>(TypeTag<T>) {
        T* out = ctx.output.data<T>();
        forEachIndex(ctx.region, [&](const Index& i) {
            out[dot(i, strides)] = convertElement<T>(i[1] - i[0] == k ? 1.0 : 0.0);
        });
    });
    return std::nullopt;
}

std::string triluCheck(const SupportQuery& q) {
    if (q.graph && q.inputType(0) != q.outputType(0))
        return "input and output dtypes differ";
    return {};
}

std::string eyeLikeCheck(const SupportQuery& q) {
    if (q.graph && q.graph->value(q.op.inputs[0]).shape.size() != 2)
        return "input must be 2-D";
    return {};
}

Result rangeKernel(const KernelContext& ctx) {
    visitNumeric(ctx.output.dtype, [&]<class T>(TypeTag<T>) {
        const auto start = load(ctx.in(0).data<T>()[0]);
        const auto delta = load(ctx.in(2).data<T>()[0]);
        using C = std::remove_cv_t<decltype(start)>;
        T* out = ctx.output.data<T>();
        for (std::int64_t i = ctx.region[0].begin; i < ctx.region[0].end; ++i)
            out[i] = store<T>(C(start + C(i) * delta));
    });
    return std::nullopt;
}

std::string rangeCheck(const SupportQuery& q) {
    if (!q.graph)
        return {};
    for (std::size_t i = 0; i < 3; ++i)
        if (q.inputType(i) != q.outputType(0))
            return "inputs and output must share a dtype";
    return checkTypes(q, isNumericType);
}

Result cumSumKernel(const KernelContext& ctx) {
    const Tensor& x = ctx.in(0);
    const auto axis = normalizeAxis(std::int64_t(ctx.in(1).at(0)), std::int64_t(x.shape.size()));
    if (!axis)
        return "axis out of range";
    const auto a = std::size_t(*axis);
    const bool exclusive = ctx.op.attrInt("exclusive", 0) != 0;
    const bool reverse = ctx.op.attrInt("reverse", 0) != 0;
    const auto strides = stridesOf(x.shape);
    visitNumeric(x.dtype, [&]<class T>(TypeTag<T>) {
        const T* X = x.data<T>();
        T* Y = ctx.output.data<T>();
        forEachIndex(ctx.region, [&](const Index& i) {
            const std::int64_t at = dot(i, strides), n = x.shape[a], pos = i[a];
            const std::int64_t lo = reverse ? pos + exclusive : 0;
            const std::int64_t hi = reverse ? n : pos + 1 - exclusive;
            Compute<T> sum = 0;
            for (std::int64_t k = lo; k < hi; ++k)
                sum = Compute<T>(sum + load(X[at + (k - pos) * strides[a]]));
            Y[at] = store<T>(sum);
        });
    });
    return std::nullopt;
}

std::string cumSumCheck(const SupportQuery& q) {
    if (!q.graph)
        return {};
    if (q.inputType(0) != q.outputType(0) || !isNumericType(q.inputType(0)))
        return "dtype is not supported";
    return {};
}

// Shape (with opset 15's start/end), Size, ConstantOfShape: values known from shapes alone.
Result shapeKernel(const KernelContext& ctx) {
    const ir::Shape& shape = ctx.in(0).shape;
    const auto rank = std::int64_t(shape.size());
    std::int64_t start = ctx.op.attrInt("start", 0);
    if (start < 0)
        start += rank;
    start = std::clamp<std::int64_t>(start, 0, rank);
    std::int64_t* out = ctx.output.data<std::int64_t>();
    for (std::int64_t i = ctx.region[0].begin; i < ctx.region[0].end; ++i)
        out[i] = shape[std::size_t(start + i)];
    return std::nullopt;
}

Result sizeKernel(const KernelContext& ctx) {
    ctx.output.data<std::int64_t>()[0] = ctx.in(0).elements();
    return std::nullopt;
}

Result constantOfShapeKernel(const KernelContext& ctx) {
    const auto strides = stridesOf(ctx.outShape());
    const std::size_t size = ir::dtypeSize(ctx.output.dtype);
    forEachRow(ctx.region, [&](const Index& index, std::int64_t count) {
        std::memset(ctx.output.bytes.data() + dot(index, strides) * std::int64_t(size), 0,
                    std::size_t(count) * size);
    });
    return std::nullopt;
}

std::string constantOfShapeCheck(const SupportQuery& q) {
    // The value attribute is a tensor, which the IR does not keep.
    if (hasAttr(q.op, "value"))
        return "a value attribute is not supported (only zeros)";
    return {};
}

constexpr KernelInfo kIndexKernels[] = {
    {"ConstantOfShape", constantOfShapeKernel, constantOfShapeCheck},
    {"CumSum", cumSumKernel, cumSumCheck},
    {"EyeLike", eyeLikeKernel, eyeLikeCheck},
    {"Gather", gatherKernel, indicesCheck},
    {"GatherElements", gatherElementsKernel, indicesCheck},
    {"GatherND", gatherNdKernel, gatherNdCheck},
    {"OneHot", oneHotKernel, oneHotCheck},
    {"Range", rangeKernel, rangeCheck},
    {"ScatterElements", scatterElementsKernel, scatterCheck},
    {"ScatterND", scatterNdKernel, scatterCheck},
    {"Shape", shapeKernel, nullptr},
    {"Size", sizeKernel, nullptr},
    {"Trilu", triluKernel, triluCheck},
};

} // namespace

std::span<const KernelInfo> indexKernels() {
    return kIndexKernels;
}

} // namespace strata::reference::kernels
