// Normalisations and softmax: BatchNormalization (inference), InstanceNormalization,
// LayerNormalization, MeanVarianceNormalization, LRN, Softmax, LogSoftmax, Hardmax. Most read a
// whole "row" (the elements sharing every dim outside a set of reduced dims) for each output
// element: a region computes the statistics of every row it touches, in full, and writes only
// its own elements. Statistics are accumulated in double.

#include "reference/Kernels.h"

#include <cmath>
#include <limits>

namespace strata::reference::kernels {

namespace {

using Result = std::optional<std::string>;

// The rows of a tensor over the dims marked in `reduced`, restricted to a region.
struct Rows {
    std::vector<std::int64_t>
        offsets;              // of a row's elements from its base, row-major over reduced dims
    std::vector<char> wanted; // whether each of them lies in the region
    tiling::Region outer;     // the region with the reduced dims collapsed to [0, 1)
    std::vector<std::int64_t> strides;
};

Rows rowsOf(const ir::Shape& shape, const tiling::Region& region,
            const std::vector<bool>& reduced) {
    Rows rows;
    rows.strides = stridesOf(shape);
    tiling::Region inner;
    rows.outer = region;
    for (std::size_t d = 0; d < shape.size(); ++d) {
        inner.push_back(reduced[d] ? tiling::Interval{0, shape[d]} : tiling::Interval{0, 1});
        if (reduced[d])
            rows.outer[d] = {0, 1};
    }
    forEachIndex(inner, [&](const Index& index) {
        rows.offsets.push_back(dot(index, rows.strides));
        bool in = true;
        for (std::size_t d = 0; d < shape.size(); ++d)
            if (reduced[d])
                in = in && index[d] >= region[d].begin && index[d] < region[d].end;
        rows.wanted.push_back(in);
    });
    return rows;
}

// Calls fn(base, outerIndex) for every row the region touches.
template <class F> void forEachRowOf(const Rows& rows, F&& fn) {
    forEachIndex(rows.outer, [&](const Index& index) { fn(dot(index, rows.strides), index); });
}

std::vector<bool> suffixFrom(std::size_t rank, std::size_t axis) {
    std::vector<bool> r(rank, false);
    for (std::size_t d = axis; d < rank; ++d)
        r[d] = true;
    return r;
}

// --- Softmax, LogSoftmax, Hardmax ---

enum class Soft { Softmax, LogSoftmax, Hardmax };

// Opset 13 normalises along `axis` alone; before, over the input coerced to 2-D at `axis`.
std::optional<std::vector<bool>> softmaxDims(const KernelContext& ctx) {
    const auto rank = std::int64_t(ctx.outShape().size());
    const bool modern = ctx.opset() >= 13;
    const auto axis =
        normalizeAxis(ctx.op.attrInt("axis", modern ? -1 : 1), std::max<std::int64_t>(rank, 1));
    if (!axis)
        return std::nullopt;
    if (rank == 0)
        return std::vector<bool>{};
    if (modern) {
        std::vector<bool> r(std::size_t(rank), false);
        r[std::size_t(*axis)] = true;
        return r;
    }
    return suffixFrom(std::size_t(rank), std::size_t(*axis));
}

template <Soft K> Result softmaxKernel(const KernelContext& ctx) {
    const auto reduced = softmaxDims(ctx);
    if (!reduced)
        return "axis out of range";
    const Rows rows = rowsOf(ctx.outShape(), ctx.region, *reduced);
    visitFloating(ctx.output.dtype, [&]<class T>(TypeTag<T>) {
        const T* X = ctx.in(0).data<T>();
        T* Y = ctx.output.data<T>();
        std::vector<double> e(rows.offsets.size());
        forEachRowOf(rows, [&](std::int64_t base, const Index&) {
            double max = -std::numeric_limits<double>::infinity();
            std::size_t argmax = 0;
            for (std::size_t i = 0; i < rows.offsets.size(); ++i) {
                const double v = double(load(X[base + rows.offsets[i]]));
                if (v > max) {
                    max = v;
                    argmax = i;
                }
            }
            double sum = 0;
            for (std::size_t i = 0; i < rows.offsets.size(); ++i) {
                e[i] = double(load(X[base + rows.offsets[i]])) - max;
                sum += std::exp(e[i]);
            }
            for (std::size_t i = 0; i < rows.offsets.size(); ++i) {
                if (!rows.wanted[i])
                    continue;
                double y;
                if constexpr (K == Soft::Softmax)
                    y = std::exp(e[i]) / sum;
                else if constexpr (K == Soft::LogSoftmax)
                    y = e[i] - std::log(sum);
                else
                    y = i == argmax ? 1.0 : 0.0;
                Y[base + rows.offsets[i]] = store<T>(Compute<T>(y));
            }
        });
    });
    return std::nullopt;
}

std::string softmaxCheck(const SupportQuery& q) {
    return checkTypes(q, isFloatType);
}

// --- BatchNormalization (inference) ---

Result batchNormKernel(const KernelContext& ctx) {
    const Tensor& x = ctx.in(0);
    const double eps = attrFloat(ctx.op, "epsilon", 1e-5);
    const std::size_t rank = x.shape.size();
    visitFloating(x.dtype, [&]<class T>(TypeTag<T>) {
        const T* X = x.data<T>();
        T* Y = ctx.output.data<T>();
        const auto scale = ctx.in(1).toDoubles(), bias = ctx.in(2).toDoubles();
        const auto mean = ctx.in(3).toDoubles(), var = ctx.in(4).toDoubles();
        const auto strides = stridesOf(x.shape);
        forEachRow(ctx.region, [&](const Index& index, std::int64_t count) {
            const std::int64_t base = dot(index, strides);
            for (std::int64_t j = 0; j < count; ++j) {
                const std::size_t c = std::size_t(rank > 2 ? index[1] : index[1] + j);
                const double v = double(load(X[base + j]));
                Y[base + j] = store<T>(
                    Compute<T>((v - mean[c]) / std::sqrt(var[c] + eps) * scale[c] + bias[c]));
            }
        });
    });
    return std::nullopt;
}

std::string batchNormCheck(const SupportQuery& q) {
    if (q.op.attrInt("training_mode", 0) != 0)
        return "training_mode is not supported";
    if (q.op.attrInt("spatial", 1) != 1)
        return "spatial=0 is not supported";
    if (q.op.outputs.size() != 1)
        return "only the inference form (one output) is supported";
    if (q.op.inputs.size() != 5)
        return "expects 5 inputs";
    if (q.graph) {
        const auto& x = q.graph->value(q.op.inputs[0]).shape;
        if (x.size() < 2)
            return "input must have a channel dim";
        for (std::size_t i = 1; i < 5; ++i)
            if (q.graph->value(q.op.inputs[i]).elements() != x[1])
                return "scale, B, mean and var must have one element per channel";
    }
    return checkTypes(q, isFloatType);
}

// --- InstanceNormalization, LayerNormalization, MeanVarianceNormalization ---

struct Moments {
    double mean = 0, variance = 0;
};

template <class T> Moments momentsOf(const T* X, std::int64_t base, const Rows& rows) {
    Moments m;
    const double n = double(rows.offsets.size());
    for (auto off : rows.offsets)
        m.mean += double(load(X[base + off]));
    m.mean /= n;
    for (auto off : rows.offsets) {
        const double d = double(load(X[base + off])) - m.mean;
        m.variance += d * d;
    }
    m.variance /= n;
    return m;
}

Result instanceNormKernel(const KernelContext& ctx) {
    const Tensor& x = ctx.in(0);
    const double eps = attrFloat(ctx.op, "epsilon", 1e-5);
    std::vector<bool> reduced = suffixFrom(x.shape.size(), 2);
    const Rows rows = rowsOf(x.shape, ctx.region, reduced);
    const auto scale = ctx.in(1).toDoubles(), bias = ctx.in(2).toDoubles();
    visitFloating(x.dtype, [&]<class T>(TypeTag<T>) {
        const T* X = x.data<T>();
        T* Y = ctx.output.data<T>();
        forEachRowOf(rows, [&](std::int64_t base, const Index& index) {
            const auto c = std::size_t(index[1]);
            const Moments m = momentsOf(X, base, rows);
            const double inv = 1.0 / std::sqrt(m.variance + eps);
            for (std::size_t i = 0; i < rows.offsets.size(); ++i)
                if (rows.wanted[i]) {
                    const double v = double(load(X[base + rows.offsets[i]]));
                    Y[base + rows.offsets[i]] =
                        store<T>(Compute<T>((v - m.mean) * inv * scale[c] + bias[c]));
                }
        });
    });
    return std::nullopt;
}

std::string instanceNormCheck(const SupportQuery& q) {
    if (q.graph && q.graph->value(q.op.inputs[0]).shape.size() < 3)
        return "input must have spatial dims";
    return checkTypes(q, isFloatType);
}

// Outputs: Y, then (when all three are named) Mean and InvStdDev, shaped like X with the
// normalised dims set to 1.
Result layerNormKernel(const KernelContext& ctx) {
    const Tensor& x = ctx.in(0);
    const auto rank = std::int64_t(x.shape.size());
    const auto axis = normalizeAxis(ctx.op.attrInt("axis", -1), rank);
    if (!axis)
        return "axis out of range";
    const double eps = attrFloat(ctx.op, "epsilon", 1e-5);
    const std::vector<bool> reduced = suffixFrom(std::size_t(rank), std::size_t(*axis));
    const ir::Shape inner(x.shape.begin() + *axis, x.shape.end());
    if (!broadcastsTo(ctx.in(1).shape, inner) ||
        (ctx.has(2) && !broadcastsTo(ctx.in(2).shape, inner)))
        return "scale and bias must broadcast to the normalised dims";
    // Y's region picks rows and elements; a statistics output's region picks rows only.
    tiling::Region region = ctx.region;
    if (ctx.outputIndex != 0)
        for (std::int64_t d = *axis; d < rank; ++d)
            region[std::size_t(d)] = {0, x.shape[std::size_t(d)]};
    const Rows rows = rowsOf(x.shape, region, reduced);
    const auto scaleStrides = broadcastStrides(ctx.in(1).shape, inner.size());
    const auto biasStrides =
        ctx.has(2) ? broadcastStrides(ctx.in(2).shape, inner.size()) : std::vector<std::int64_t>{};
    const auto scale = ctx.in(1).toDoubles();
    const auto bias = ctx.has(2) ? ctx.in(2).toDoubles() : std::vector<double>{};
    // Offsets of each row element into Scale and B.
    std::vector<std::int64_t> scaleAt, biasAt;
    forEachIndex(tiling::fullRegion(inner), [&](const Index& i) {
        scaleAt.push_back(dot(i, scaleStrides));
        if (ctx.has(2))
            biasAt.push_back(dot(i, biasStrides));
    });
    const auto statStrides = stridesOf(ctx.outShape());
    visitFloating(x.dtype, [&]<class T>(TypeTag<T>) {
        const T* X = x.data<T>();
        forEachRowOf(rows, [&](std::int64_t base, const Index& index) {
            const Moments m = momentsOf(X, base, rows);
            const double inv = 1.0 / std::sqrt(m.variance + eps);
            if (ctx.outputIndex == 0) {
                T* Y = ctx.output.data<T>();
                for (std::size_t i = 0; i < rows.offsets.size(); ++i)
                    if (rows.wanted[i]) {
                        const double v = double(load(X[base + rows.offsets[i]]));
                        double y = (v - m.mean) * inv * scale[scaleAt[i]];
                        if (!bias.empty())
                            y += bias[biasAt[i]];
                        Y[base + rows.offsets[i]] = store<T>(Compute<T>(y));
                    }
            } else {
                // Mean and InvStdDev have the stash type, float32 by default.
                visitFloating(ctx.output.dtype, [&]<class S>(TypeTag<S>) {
                    ctx.output.data<S>()[dot(index, statStrides)] =
                        store<S>(Compute<S>(ctx.outputIndex == 1 ? m.mean : inv));
                });
            }
        });
    });
    return std::nullopt;
}

std::string layerNormCheck(const SupportQuery& q) {
    if (q.op.outputs.size() != 1 && q.op.outputs.size() != 3)
        return "Mean without InvStdDev (or the reverse) is not supported";
    return checkTypes(q, isFloatType);
}

Result mvnKernel(const KernelContext& ctx) {
    const Tensor& x = ctx.in(0);
    auto axes = ctx.op.attrInts("axes");
    if (!hasAttr(ctx.op, "axes"))
        axes = {0, 2, 3};
    std::vector<bool> reduced(x.shape.size(), false);
    for (auto a : axes) {
        const auto axis = normalizeAxis(a, std::int64_t(x.shape.size()));
        if (!axis)
            return "axis out of range";
        reduced[std::size_t(*axis)] = true;
    }
    const Rows rows = rowsOf(x.shape, ctx.region, reduced);
    visitFloating(x.dtype, [&]<class T>(TypeTag<T>) {
        const T* X = x.data<T>();
        T* Y = ctx.output.data<T>();
        forEachRowOf(rows, [&](std::int64_t base, const Index&) {
            const Moments m = momentsOf(X, base, rows);
            const double denom = std::sqrt(m.variance) + 1e-9;
            for (std::size_t i = 0; i < rows.offsets.size(); ++i)
                if (rows.wanted[i])
                    Y[base + rows.offsets[i]] = store<T>(
                        Compute<T>((double(load(X[base + rows.offsets[i]])) - m.mean) / denom));
        });
    });
    return std::nullopt;
}

// LRN across channels: x / (bias + alpha / size * sum of squares in the window)^beta.
Result lrnKernel(const KernelContext& ctx) {
    const Tensor& x = ctx.in(0);
    const double alpha = attrFloat(ctx.op, "alpha", 1e-4), beta = attrFloat(ctx.op, "beta", 0.75);
    const double bias = attrFloat(ctx.op, "bias", 1.0);
    const std::int64_t size = ctx.op.attrInt("size", 1);
    const std::int64_t channels = x.shape[1];
    const auto strides = stridesOf(x.shape);
    visitFloating(x.dtype, [&]<class T>(TypeTag<T>) {
        const T* X = x.data<T>();
        T* Y = ctx.output.data<T>();
        forEachIndex(ctx.region, [&](const Index& index) {
            const std::int64_t at = dot(index, strides), c = index[1];
            const std::int64_t lo = std::max<std::int64_t>(0, c - (size - 1) / 2);
            const std::int64_t hi = std::min(channels - 1, c + size / 2); // ceil((size-1)/2)
            double sum = 0;
            for (std::int64_t k = lo; k <= hi; ++k) {
                const double v = double(load(X[at + (k - c) * strides[1]]));
                sum += v * v;
            }
            const double v = double(load(X[at]));
            Y[at] = store<T>(Compute<T>(v / std::pow(bias + alpha / double(size) * sum, beta)));
        });
    });
    return std::nullopt;
}

std::string lrnCheck(const SupportQuery& q) {
    if (q.op.attrInt("size", 0) < 1)
        return "size must be positive";
    if (q.graph && q.graph->value(q.op.inputs[0]).shape.size() < 2)
        return "input needs channels";
    return checkTypes(q, isFloatType);
}

constexpr KernelInfo kNormKernels[] = {
    {"BatchNormalization", batchNormKernel, batchNormCheck},
    {"Hardmax", softmaxKernel<Soft::Hardmax>, softmaxCheck},
    {"InstanceNormalization", instanceNormKernel, instanceNormCheck},
    {"LayerNormalization", layerNormKernel, layerNormCheck},
    {"LogSoftmax", softmaxKernel<Soft::LogSoftmax>, softmaxCheck},
    {"LRN", lrnKernel, lrnCheck},
    {"MeanVarianceNormalization", mvnKernel, softmaxCheck},
    {"Softmax", softmaxKernel<Soft::Softmax>, softmaxCheck},
};

} // namespace

std::span<const KernelInfo> normKernels() {
    return kNormKernels;
}

} // namespace strata::reference::kernels
