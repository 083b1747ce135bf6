// Reductions (ReduceSum, ReduceMean, ReduceMax, ReduceMin, ReduceProd, ReduceL1, ReduceL2,
// ReduceLogSum, ReduceLogSumExp, ReduceSumSquare) and ArgMax/ArgMin. Each output element is
// computed on its own from the input elements it reduces, so a region maps directly.

#include "reference/Kernels.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace strata::reference::kernels {

namespace {

using Result = std::optional<std::string>;

// Which input dims a reduction removes and how output indices map back to input offsets.
struct Reduction {
    std::vector<bool> reduced;
    std::vector<std::int64_t> offsets; // of the reduced elements from an output element's base
    bool keepDims = true;
    std::vector<std::int64_t> inStrides;

    // Offset of the first input element reduced into output element `out`.
    std::int64_t base(const Index& out) const {
        std::int64_t offset = 0;
        std::size_t o = 0;
        for (std::size_t d = 0; d < reduced.size(); ++d) {
            if (reduced[d]) {
                if (keepDims)
                    ++o;
                continue;
            }
            offset += out[o++] * inStrides[d];
        }
        return offset;
    }
};

Reduction reductionOf(const ir::Shape& inShape, const std::vector<bool>& reduced, bool keepDims) {
    Reduction r;
    r.reduced = reduced;
    r.keepDims = keepDims;
    r.inStrides = stridesOf(inShape);
    tiling::Region inner;
    for (std::size_t d = 0; d < inShape.size(); ++d)
        inner.push_back(reduced[d] ? tiling::Interval{0, inShape[d]} : tiling::Interval{0, 1});
    forEachIndex(inner, [&](const Index& i) { r.offsets.push_back(dot(i, r.inStrides)); });
    return r;
}

enum class Reduce { Sum, Mean, Max, Min, Prod, L1, L2, LogSum, LogSumExp, SumSquare };

// The reduced dims: the axes input (ReduceSum from opset 13) or attribute; none given means all
// dims, unless noop_with_empty_axes asks for none.
std::optional<std::vector<bool>> reducedDims(const KernelContext& ctx) {
    const auto rank = std::int64_t(ctx.in(0).shape.size());
    std::vector<std::int64_t> axes;
    bool given = false;
    if (ctx.has(1)) {
        axes = ctx.in(1).toInt64s();
        given = !axes.empty();
    } else if (hasAttr(ctx.op, "axes")) {
        axes = ctx.op.attrInts("axes");
        given = !axes.empty();
    }
    std::vector<bool> reduced(std::size_t(rank),
                              !given && ctx.op.attrInt("noop_with_empty_axes", 0) == 0);
    for (auto a : axes) {
        const auto axis = normalizeAxis(a, rank);
        if (!axis)
            return std::nullopt;
        reduced[std::size_t(*axis)] = true;
    }
    return reduced;
}

template <Reduce K> Result reduceKernel(const KernelContext& ctx) {
    const auto reduced = reducedDims(ctx);
    if (!reduced)
        return "axis out of range";
    const Tensor& x = ctx.in(0);
    const bool keepDims = ctx.op.attrInt("keepdims", 1) != 0;
    const Reduction r = reductionOf(x.shape, *reduced, keepDims);
    if (std::int64_t(ctx.outShape().size()) !=
        std::int64_t(x.shape.size()) -
            (keepDims ? 0 : std::count(reduced->begin(), reduced->end(), true)))
        return "output rank does not match the reduction";
    const auto outStrides = stridesOf(ctx.outShape());
    visitNumeric(x.dtype, [&]<class T>(TypeTag<T>) {
        // Floating inputs accumulate in double, integral ones in 64 bits.
        using Wide = std::conditional_t<std::is_signed_v<T>, std::int64_t, std::uint64_t>;
        using Acc = std::conditional_t<kIsFloating<T>, double, Wide>;
        const T* X = x.data<T>();
        T* Y = ctx.output.data<T>();
        const double count = double(r.offsets.size());
        forEachIndex(ctx.region, [&](const Index& out) {
            const std::int64_t base = r.base(out);
            Acc acc = 0;
            if constexpr (K == Reduce::Prod)
                acc = 1;
            if constexpr (K == Reduce::Max || K == Reduce::Min) {
                acc = Acc(load(X[base + r.offsets[0]]));
                for (auto off : r.offsets) {
                    const Acc v = Acc(load(X[base + off]));
                    if constexpr (kIsFloating<T>)
                        if (std::isnan(v) || std::isnan(acc)) {
                            acc = std::numeric_limits<double>::quiet_NaN();
                            break;
                        }
                    acc = K == Reduce::Max ? std::max(acc, v) : std::min(acc, v);
                }
            } else if constexpr (K == Reduce::LogSumExp) {
                double max = -std::numeric_limits<double>::infinity();
                for (auto off : r.offsets)
                    max = std::max(max, double(load(X[base + off])));
                double sum = 0;
                if (std::isinf(max)) {
                    acc = Acc(max);
                } else {
                    for (auto off : r.offsets)
                        sum += std::exp(double(load(X[base + off])) - max);
                    acc = Acc(max + std::log(sum));
                }
            } else {
                for (auto off : r.offsets) {
                    const Acc v = Acc(load(X[base + off]));
                    if constexpr (K == Reduce::Prod)
                        acc = Acc(acc * v);
                    else if constexpr (K == Reduce::L1 && std::is_unsigned_v<Acc>)
                        acc = Acc(acc + v);
                    else if constexpr (K == Reduce::L1)
                        acc = Acc(acc + (v < 0 ? Acc(-v) : v));
                    else if constexpr (K == Reduce::L2 || K == Reduce::SumSquare)
                        acc = Acc(acc + v * v);
                    else
                        acc = Acc(acc + v);
                }
                if constexpr (K == Reduce::Mean)
                    acc = Acc(double(acc) / count);
                else if constexpr (K == Reduce::L2)
                    acc = Acc(std::sqrt(double(acc)));
                else if constexpr (K == Reduce::LogSum)
                    acc = Acc(std::log(double(acc)));
            }
            Y[dot(out, outStrides)] = convertElement<T>(acc);
        });
    });
    return std::nullopt;
}

std::string reduceCheck(const SupportQuery& q) {
    if (q.graph && q.hasInput(1) && !q.graph->value(q.op.inputs[1]).isConstant &&
        q.op.attrInt("noop_with_empty_axes", 0) != 0)
        return "noop_with_empty_axes with computed axes is not supported";
    if (q.graph) {
        if (q.inputType(0) != q.outputType(0))
            return "input and output dtypes differ";
        if (q.graph->value(q.op.inputs[0]).elements() == 0)
            return "empty input";
        if (!isNumericType(q.inputType(0)))
            return "dtype is not supported";
    }
    return {};
}

template <bool Max> Result argKernel(const KernelContext& ctx) {
    const Tensor& x = ctx.in(0);
    const auto rank = std::int64_t(x.shape.size());
    const auto axis = normalizeAxis(ctx.op.attrInt("axis", 0), rank);
    if (!axis)
        return "axis out of range";
    const bool keepDims = ctx.op.attrInt("keepdims", 1) != 0;
    const bool last = ctx.op.attrInt("select_last_index", 0) != 0;
    std::vector<bool> reduced(std::size_t(rank), false);
    reduced[std::size_t(*axis)] = true;
    const Reduction r = reductionOf(x.shape, reduced, keepDims);
    const auto outStrides = stridesOf(ctx.outShape());
    std::int64_t* Y = ctx.output.data<std::int64_t>();
    visitNumeric(x.dtype, [&]<class T>(TypeTag<T>) {
        const T* X = x.data<T>();
        forEachIndex(ctx.region, [&](const Index& out) {
            const std::int64_t base = r.base(out);
            auto best = load(X[base]);
            std::int64_t at = 0;
            for (std::size_t i = 1; i < r.offsets.size(); ++i) {
                const auto v = load(X[base + r.offsets[i]]);
                const bool better =
                    Max ? (v > best || (last && v == best)) : (v < best || (last && v == best));
                if (better) {
                    best = v;
                    at = std::int64_t(i);
                }
            }
            Y[dot(out, outStrides)] = at;
        });
    });
    return std::nullopt;
}

std::string argCheck(const SupportQuery& q) {
    if (!q.graph)
        return {};
    if (q.outputType(0) != ir::DType::Int64)
        return "output must be int64";
    if (!isNumericType(q.inputType(0)))
        return "dtype is not supported";
    if (q.graph->value(q.op.inputs[0]).elements() == 0)
        return "empty input";
    return {};
}

// TopK: output 0 holds the k largest (or smallest) values along the axis, sorted, ties broken
// by lower index; output 1 their indices. Each row the region touches is ranked in full.
Result topKKernel(const KernelContext& ctx) {
    const Tensor& x = ctx.in(0);
    const auto rank = std::int64_t(x.shape.size());
    const auto axis = normalizeAxis(ctx.op.attrInt("axis", -1), rank);
    if (!axis)
        return "axis out of range";
    const auto a = std::size_t(*axis);
    const bool largest = ctx.op.attrInt("largest", 1) != 0;
    const std::int64_t n = x.shape[a];
    const auto inStrides = stridesOf(x.shape);
    const auto outStrides = stridesOf(ctx.outShape());
    tiling::Region rows = ctx.region;
    rows[a] = {0, 1};
    visitNumeric(x.dtype, [&]<class T>(TypeTag<T>) {
        const T* X = x.data<T>();
        std::vector<std::int64_t> order(static_cast<std::size_t>(n));
        forEachIndex(rows, [&](const Index& row) {
            const std::int64_t base = dot(row, inStrides);
            auto value = [&](std::int64_t i) { return load(X[base + i * inStrides[a]]); };
            for (std::int64_t i = 0; i < n; ++i)
                order[std::size_t(i)] = i;
            std::stable_sort(order.begin(), order.end(), [&](std::int64_t p, std::int64_t q) {
                return largest ? value(p) > value(q) : value(p) < value(q);
            });
            Index at = row;
            for (std::int64_t j = ctx.region[a].begin; j < ctx.region[a].end; ++j) {
                at[a] = j;
                const std::int64_t o = dot(at, outStrides), i = order[std::size_t(j)];
                if (ctx.outputIndex == 0)
                    ctx.output.data<T>()[o] = X[base + i * inStrides[a]];
                else
                    ctx.output.data<std::int64_t>()[o] = i;
            }
        });
    });
    return std::nullopt;
}

std::string topKCheck(const SupportQuery& q) {
    if (q.op.outputs.size() != 2)
        return "expects both outputs (values and indices)";
    if (!q.graph)
        return {};
    if (q.inputType(0) != q.outputType(0) || !isNumericType(q.inputType(0)))
        return "dtype is not supported";
    if (q.outputType(1) != ir::DType::Int64)
        return "indices must be int64";
    return {};
}

constexpr KernelInfo kReduceKernels[] = {
    {"ArgMax", argKernel<true>, argCheck},
    {"ArgMin", argKernel<false>, argCheck},
    {"ReduceL1", reduceKernel<Reduce::L1>, reduceCheck},
    {"ReduceL2", reduceKernel<Reduce::L2>, reduceCheck},
    {"ReduceLogSum", reduceKernel<Reduce::LogSum>, reduceCheck},
    {"ReduceLogSumExp", reduceKernel<Reduce::LogSumExp>, reduceCheck},
    {"ReduceMax", reduceKernel<Reduce::Max>, reduceCheck},
    {"ReduceMean", reduceKernel<Reduce::Mean>, reduceCheck},
    {"ReduceMin", reduceKernel<Reduce::Min>, reduceCheck},
    {"ReduceProd", reduceKernel<Reduce::Prod>, reduceCheck},
    {"ReduceSum", reduceKernel<Reduce::Sum>, reduceCheck},
    {"ReduceSumSquare", reduceKernel<Reduce::SumSquare>, reduceCheck},
    {"TopK", topKKernel, topKCheck},
};

} // namespace

std::span<const KernelInfo> reduceKernels() {
    return kReduceKernels;
}

} // namespace strata::reference::kernels
