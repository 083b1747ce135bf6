// Sliding-window kernels: Conv, ConvTranspose, MaxPool, AveragePool, GlobalAveragePool,
// GlobalMaxPool, LpPool. Spatial dims (1 to 3) are placed right-aligned in three slots, so one
// loop nest serves 1-D, 2-D and 3-D windows; unused slots have size, kernel and stride 1.

#include "reference/Kernels.h"

#include <array>
#include <cmath>
#include <limits>

namespace strata::reference::kernels {

namespace {

using Result = std::optional<std::string>;
using Dims3 = std::array<std::int64_t, 3>;

std::int64_t floorDiv(std::int64_t a, std::int64_t b) {
    return a >= 0 ? a / b : -((-a + b - 1) / b);
}
std::int64_t ceilDiv(std::int64_t a, std::int64_t b) {
    return -floorDiv(-a, b);
}

// Geometry of a window op over N x C x spatial tensors.
struct Window {
    std::size_t spatial = 0; // number of spatial dims, 1..3
    Dims3 in{1, 1, 1}, out{1, 1, 1}, kernel{1, 1, 1}, stride{1, 1, 1}, dilation{1, 1, 1};
    Dims3 padBegin{0, 0, 0}, padEnd{0, 0, 0};

    std::size_t slot(std::size_t i) const { return 3 - spatial + i; } // spatial dim i -> slot
};

// Reads strides, dilations, kernel_shape (or `kernel` when given), pads and auto_pad. The output
// shape comes from the graph; SAME pads follow from it.
std::optional<Window> windowOf(const ir::Op& op, const ir::Shape& inShape,
                               const ir::Shape& outShape, std::vector<std::int64_t> kernel) {
    if (inShape.size() < 3 || inShape.size() > 5 || outShape.size() != inShape.size())
        return std::nullopt;
    Window w;
    w.spatial = inShape.size() - 2;
    if (kernel.empty())
        kernel = op.attrInts("kernel_shape");
    const auto strides = op.attrInts("strides");
    const auto dilations = op.attrInts("dilations");
    const auto pads = op.attrInts("pads");
    if (kernel.size() != w.spatial || (!strides.empty() && strides.size() != w.spatial) ||
        (!dilations.empty() && dilations.size() != w.spatial) ||
        (!pads.empty() && pads.size() != 2 * w.spatial))
        return std::nullopt;
    const std::string autoPad = attrString(op, "auto_pad", "NOTSET");
    for (std::size_t i = 0; i < w.spatial; ++i) {
        const std::size_t s = w.slot(i);
        w.in[s] = inShape[2 + i];
        w.out[s] = outShape[2 + i];
        w.kernel[s] = kernel[i];
        w.stride[s] = strides.empty() ? 1 : strides[i];
        w.dilation[s] = dilations.empty() ? 1 : dilations[i];
        if (w.stride[s] < 1 || w.dilation[s] < 1 || w.kernel[s] < 1)
            return std::nullopt;
        if (autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER") {
            const std::int64_t total = std::max<std::int64_t>(
                0, (w.out[s] - 1) * w.stride[s] + (w.kernel[s] - 1) * w.dilation[s] + 1 - w.in[s]);
            w.padBegin[s] = autoPad == "SAME_UPPER" ? total / 2 : total - total / 2;
            w.padEnd[s] = total - w.padBegin[s];
        } else if (autoPad == "NOTSET" && !pads.empty()) {
            w.padBegin[s] = pads[i];
            w.padEnd[s] = pads[w.spatial + i];
        }
    }
    return w;
}

std::string windowCheck(const SupportQuery& q) {
    const std::string autoPad = attrString(q.op, "auto_pad", "NOTSET");
    if (autoPad != "NOTSET" && autoPad != "VALID" && autoPad != "SAME_UPPER" &&
        autoPad != "SAME_LOWER")
        return "auto_pad '" + autoPad + "' is not supported";
    if (q.graph) {
        const auto& in = q.graph->value(q.op.inputs[0]).shape;
        if (in.size() < 3 || in.size() > 5)
            return "only 1-D to 3-D windows are supported";
    }
    return {};
}

// The three spatial slots of an output region; missing slots are [0, 1).
std::array<tiling::Interval, 3> spatialRegion(const Window& w, const tiling::Region& region) {
    std::array<tiling::Interval, 3> r{tiling::Interval{0, 1}, {0, 1}, {0, 1}};
    for (std::size_t i = 0; i < w.spatial; ++i)
        r[w.slot(i)] = region[2 + i];
    return r;
}

// --- Conv ---

// acc[i] += w * x[i]: the innermost loop of Conv. Contiguous, free of aliasing and unrolled in
// blocks of 8 so that -O2's cheap vectoriser turns each block into SIMD instructions (each
// element still gets exactly one multiply-add per call, so results do not depend on n).
template <class T> void axpy(T* __restrict acc, const T* __restrict x, T w, std::int64_t n) {
    std::int64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        acc[i] += w * x[i];
        acc[i + 1] += w * x[i + 1];
        acc[i + 2] += w * x[i + 2];
        acc[i + 3] += w * x[i + 3];
        acc[i + 4] += w * x[i + 4];
        acc[i + 5] += w * x[i + 5];
        acc[i + 6] += w * x[i + 6];
        acc[i + 7] += w * x[i + 7];
    }
    for (; i < n; ++i)
        acc[i] += w * x[i];
}

// acc[i] += w * x[i * stride], for strided convs.
template <class T>
void axpyStrided(T* __restrict acc, const T* __restrict x, std::int64_t stride, T w,
                 std::int64_t n) {
    for (std::int64_t i = 0; i < n; ++i)
        acc[i] += w * x[i * stride];
}

// Whether a conv is 1x1 (every kernel dim, stride 1, no padding), so that input and output
// positions coincide, and the region's part of a plane is one contiguous run: whole rows, and
// whole planes of rows when it spans several depth slices.
bool pointwiseRun(const Window& w, const std::array<tiling::Interval, 3>& sp) {
    for (std::size_t s = 0; s < 3; ++s)
        if (w.kernel[s] != 1 || w.stride[s] != 1 || w.padBegin[s] != 0 || w.in[s] != w.out[s])
            return false;
    const bool wholeRows = sp[2].begin == 0 && sp[2].end == w.out[2];
    const bool wholePlanes = sp[1].begin == 0 && sp[1].end == w.out[1];
    return wholeRows && (sp[0].size() == 1 || wholePlanes);
}

template <class T> void convLoop(const KernelContext& ctx, const Window& w) {
    const Tensor& x = ctx.in(0);
    const Tensor& wt = ctx.in(1);
    const T* X = x.data<T>();
    const T* W = wt.data<T>();
    const T* B = ctx.has(2) ? ctx.in(2).data<T>() : nullptr;
    T* Y = ctx.output.data<T>();
    const std::int64_t C = x.shape[1], M = wt.shape[0], Cg = wt.shape[1];
    const std::int64_t group = ctx.op.attrInt("group", 1);
    const std::int64_t Mg = M / group;
    const auto [ID, IH, IW] = w.in;
    const auto [OD, OH, OW] = w.out;
    const auto [KD, KH, KW] = w.kernel;
    const auto sp = spatialRegion(w, ctx.region);
    const std::int64_t ow0 = sp[2].begin, ow1 = sp[2].end;
    if (pointwiseRun(w, sp)) {
        // Each input channel adds to the whole run in one sweep; every element still sees
        // bias, then channels in order, as in the general loop below.
        const std::int64_t first = (sp[0].begin * OH + sp[1].begin) * OW;
        const std::int64_t plane = OD * OH * OW;
        std::vector<T> acc(std::size_t(sp[0].size() * sp[1].size() * OW));
        for (std::int64_t n = ctx.region[0].begin; n < ctx.region[0].end; ++n)
            for (std::int64_t m = ctx.region[1].begin; m < ctx.region[1].end; ++m) {
                const std::int64_t g = m / Mg;
                std::fill(acc.begin(), acc.end(), B ? B[m] : T(0));
                for (std::int64_t c = 0; c < Cg; ++c)
                    axpy(acc.data(), X + (n * C + g * Cg + c) * plane + first, W[m * Cg + c],
                         std::int64_t(acc.size()));
                std::copy(acc.begin(), acc.end(), Y + (n * M + m) * plane + first);
            }
        return;
    }
    std::vector<T> acc(std::size_t(ow1 - ow0));
    // Per kernel column: the offset into an input row and the outputs whose tap lands inside
    // it (0 <= ow * stride + offset < IW), the same for every row and channel.
    const std::int64_t sw = w.stride[2];
    struct Column {
        std::int64_t offset, lo, hi;
    };
    std::vector<Column> columns;
    for (std::int64_t kw = 0; kw < KW; ++kw) {
        const std::int64_t offset = kw * w.dilation[2] - w.padBegin[2];
        columns.push_back({offset, std::max(ow0, ceilDiv(-offset, sw)),
                           std::min(ow1, floorDiv(IW - 1 - offset, sw) + 1)});
    }
    for (std::int64_t n = ctx.region[0].begin; n < ctx.region[0].end; ++n)
        for (std::int64_t m = ctx.region[1].begin; m < ctx.region[1].end; ++m) {
            const std::int64_t g = m / Mg;
            for (std::int64_t od = sp[0].begin; od < sp[0].end; ++od)
                for (std::int64_t oh = sp[1].begin; oh < sp[1].end; ++oh) {
                    std::fill(acc.begin(), acc.end(), B ? B[m] : T(0));
                    for (std::int64_t c = 0; c < Cg; ++c) {
                        const std::int64_t cin = g * Cg + c;
                        for (std::int64_t kd = 0; kd < KD; ++kd) {
                            const std::int64_t id =
                                od * w.stride[0] - w.padBegin[0] + kd * w.dilation[0];
                            if (id < 0 || id >= ID)
                                continue;
                            for (std::int64_t kh = 0; kh < KH; ++kh) {
                                const std::int64_t ih =
                                    oh * w.stride[1] - w.padBegin[1] + kh * w.dilation[1];
                                if (ih < 0 || ih >= IH)
                                    continue;
                                const T* inRow = X + (((n * C + cin) * ID + id) * IH + ih) * IW;
                                const T* wRow = W + (((m * Cg + c) * KD + kd) * KH + kh) * KW;
                                for (std::int64_t kw = 0; kw < KW; ++kw) {
                                    const T weight = wRow[kw];
                                    const auto [offset, lo, hi] = columns[std::size_t(kw)];
                                    T* a = acc.data() - ow0;
                                    if (sw == 1) {
                                        axpy(a + lo, inRow + offset + lo, weight, hi - lo);
                                    } else {
                                        axpyStrided(a + lo, inRow + lo * sw + offset, sw, weight,
                                                    hi - lo);
                                    }
                                }
                            }
                        }
                    }
                    T* out = Y + (((n * M + m) * OD + od) * OH + oh) * OW + ow0;
                    std::copy(acc.begin(), acc.end(), out);
                }
        }
}

std::vector<std::int64_t> weightKernel(const ir::Shape& weightShape) {
    return {weightShape.begin() + 2, weightShape.end()};
}

Result convKernel(const KernelContext& ctx) {
    const auto w = windowOf(ctx.op, ctx.in(0).shape, ctx.outShape(), weightKernel(ctx.in(1).shape));
    if (!w)
        return "inconsistent window attributes";
    const std::int64_t group = ctx.op.attrInt("group", 1);
    if (group < 1 || ctx.in(0).shape[1] != ctx.in(1).shape[1] * group ||
        ctx.in(1).shape[0] % group != 0)
        return "channels do not match group " + std::to_string(group);
    if (ctx.outShape()[1] != ctx.in(1).shape[0])
        return "output channels do not match the weight";
    if (ctx.in(0).dtype == ir::DType::Float32)
        convLoop<float>(ctx, *w);
    else
        convLoop<double>(ctx, *w);
    return std::nullopt;
}

std::string floatConvCheck(const SupportQuery& q) {
    if (auto why = windowCheck(q); !why.empty())
        return why;
    if (const auto k = q.op.attrInts("kernel_shape");
        q.graph && !k.empty() && k != weightKernel(q.graph->value(q.op.inputs[1]).shape))
        return "kernel_shape differs from the weight's shape";
    return checkTypes(
        q, [](ir::DType t) { return t == ir::DType::Float32 || t == ir::DType::Float64; });
}

// --- ConvTranspose ---

template <class T> void convTransposeLoop(const KernelContext& ctx, const Window& w) {
    const Tensor& x = ctx.in(0);
    const Tensor& wt = ctx.in(1);
    const T* X = x.data<T>();
    const T* W = wt.data<T>();
    const T* B = ctx.has(2) ? ctx.in(2).data<T>() : nullptr;
    T* Y = ctx.output.data<T>();
    const std::int64_t C = x.shape[1], Mg = wt.shape[1];
    const std::int64_t group = ctx.op.attrInt("group", 1);
    const std::int64_t Cg = C / group, M = Mg * group;
    const auto [ID, IH, IW] = w.in;
    const auto [OD, OH, OW] = w.out;
    const auto [KD, KH, KW] = w.kernel;
    const auto sp = spatialRegion(w, ctx.region);
    // Input position feeding output o through kernel tap k, or -1.
    auto source = [&](std::size_t s, std::int64_t o, std::int64_t k, std::int64_t in) {
        const std::int64_t t = o + w.padBegin[s] - k * w.dilation[s];
        if (t < 0 || t % w.stride[s] != 0)
            return std::int64_t(-1);
        const std::int64_t i = t / w.stride[s];
        return i < in ? i : std::int64_t(-1);
    };
    for (std::int64_t n = ctx.region[0].begin; n < ctx.region[0].end; ++n)
        for (std::int64_t m = ctx.region[1].begin; m < ctx.region[1].end; ++m) {
            const std::int64_t g = m / Mg, mg = m % Mg;
            for (std::int64_t od = sp[0].begin; od < sp[0].end; ++od)
                for (std::int64_t oh = sp[1].begin; oh < sp[1].end; ++oh)
                    for (std::int64_t ow = sp[2].begin; ow < sp[2].end; ++ow) {
                        T acc = B ? B[m] : T(0);
                        for (std::int64_t c = g * Cg; c < (g + 1) * Cg; ++c)
                            for (std::int64_t kd = 0; kd < KD; ++kd) {
                                const std::int64_t id = source(0, od, kd, ID);
                                if (id < 0)
                                    continue;
                                for (std::int64_t kh = 0; kh < KH; ++kh) {
                                    const std::int64_t ih = source(1, oh, kh, IH);
                                    if (ih < 0)
                                        continue;
                                    for (std::int64_t kw = 0; kw < KW; ++kw) {
                                        const std::int64_t iw = source(2, ow, kw, IW);
                                        if (iw < 0)
                                            continue;
                                        acc += X[(((n * C + c) * ID + id) * IH + ih) * IW + iw] *
                                               W[(((c * Mg + mg) * KD + kd) * KH + kh) * KW + kw];
                                    }
                                }
                            }
                        Y[(((n * M + m) * OD + od) * OH + oh) * OW + ow] = acc;
                    }
        }
}

Result convTransposeKernel(const KernelContext& ctx) {
    const ir::Op& op = ctx.op;
    const ir::Shape& inShape = ctx.in(0).shape;
    // Pads: explicit, or derived from the output size (output_shape or SAME) per the spec.
    ir::Op geometry = op;
    std::erase_if(geometry.attributes,
                  [](const ir::Attribute& a) { return a.name == "pads" || a.name == "auto_pad"; });
    auto w = windowOf(geometry, inShape, ctx.outShape(), weightKernel(ctx.in(1).shape));
    if (!w)
        return "inconsistent window attributes";
    const std::string autoPad = attrString(op, "auto_pad", "NOTSET");
    const auto pads = op.attrInts("pads");
    const auto outputPadding = op.attrInts("output_padding");
    const bool derived =
        hasAttr(op, "output_shape") || autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER";
    for (std::size_t i = 0; i < w->spatial; ++i) {
        const std::size_t s = w->slot(i);
        if (derived) {
            const std::int64_t extra = outputPadding.empty() ? 0 : outputPadding[i];
            const std::int64_t total = w->stride[s] * (w->in[s] - 1) + extra +
                                       (w->kernel[s] - 1) * w->dilation[s] + 1 - w->out[s];
            // Floor division as onnx's reference: a negative total (output_shape larger than
            // the input gives) becomes extra output at the end, as output_padding would.
            const std::int64_t half = floorDiv(total, 2);
            w->padBegin[s] = autoPad == "SAME_UPPER" ? half : total - half;
        } else if (autoPad == "NOTSET" && pads.size() == 2 * w->spatial) {
            w->padBegin[s] = pads[i];
        }
    }
    const std::int64_t group = op.attrInt("group", 1);
    if (group < 1 || inShape[1] % group != 0 || ctx.in(1).shape[0] != inShape[1] ||
        ctx.outShape()[1] != ctx.in(1).shape[1] * group)
        return "channels do not match group " + std::to_string(group);
    if (ctx.in(0).dtype == ir::DType::Float32)
        convTransposeLoop<float>(ctx, *w);
    else
        convTransposeLoop<double>(ctx, *w);
    return std::nullopt;
}

// --- pooling ---

enum class Pool { Max, Average, Lp };

template <Pool K, class T> void poolLoop(const KernelContext& ctx, const Window& w) {
    using C = Compute<T>;
    const Tensor& x = ctx.in(0);
    const T* X = x.data<T>();
    // MaxPool's second output holds the argmax of each window (flat input offsets).
    std::int64_t* indices = ctx.outputIndex == 1 ? ctx.output.data<std::int64_t>() : nullptr;
    T* Y = indices ? nullptr : ctx.output.data<T>();
    const bool includePad = ctx.op.attrInt("count_include_pad", 0) != 0;
    const bool columnMajor = ctx.op.attrInt("storage_order", 0) != 0;
    const double p = double(ctx.op.attrInt("p", 2));
    const std::int64_t channels = x.shape[1];
    const auto [ID, IH, IW] = w.in;
    const auto [OD, OH, OW] = w.out;
    const auto sp = spatialRegion(w, ctx.region);
    for (std::int64_t n = ctx.region[0].begin; n < ctx.region[0].end; ++n)
        for (std::int64_t c = ctx.region[1].begin; c < ctx.region[1].end; ++c) {
            const std::int64_t plane = n * channels + c;
            const T* in = X + plane * ID * IH * IW;
            for (std::int64_t od = sp[0].begin; od < sp[0].end; ++od)
                for (std::int64_t oh = sp[1].begin; oh < sp[1].end; ++oh)
                    for (std::int64_t ow = sp[2].begin; ow < sp[2].end; ++ow) {
                        const Dims3 o{od, oh, ow};
                        Dims3 start;
                        std::int64_t padded = 1; // taps inside the padded input
                        for (std::size_t s = 0; s < 3; ++s) {
                            start[s] = o[s] * w.stride[s] - w.padBegin[s];
                            std::int64_t inside = 0;
                            for (std::int64_t k = 0; k < w.kernel[s]; ++k) {
                                const std::int64_t i = start[s] + k * w.dilation[s];
                                inside += i >= -w.padBegin[s] && i < w.in[s] + w.padEnd[s];
                            }
                            padded *= inside;
                        }
                        double sum = 0;
                        C best = std::numeric_limits<C>::lowest();
                        if constexpr (std::is_floating_point_v<C>)
                            best = -std::numeric_limits<C>::infinity();
                        std::int64_t count = 0, bestAt = -1;
                        for (std::int64_t kd = 0; kd < w.kernel[0]; ++kd) {
                            const std::int64_t id = start[0] + kd * w.dilation[0];
                            if (id < 0 || id >= ID)
                                continue;
                            for (std::int64_t kh = 0; kh < w.kernel[1]; ++kh) {
                                const std::int64_t ih = start[1] + kh * w.dilation[1];
                                if (ih < 0 || ih >= IH)
                                    continue;
                                for (std::int64_t kw = 0; kw < w.kernel[2]; ++kw) {
                                    const std::int64_t iw = start[2] + kw * w.dilation[2];
                                    if (iw < 0 || iw >= IW)
                                        continue;
                                    const C v = load(in[(id * IH + ih) * IW + iw]);
                                    ++count;
                                    if constexpr (K == Pool::Max) {
                                        if (v > best || bestAt < 0) {
                                            best = v;
                                            bestAt = columnMajor ? (iw * IH + ih) * ID + id
                                                                 : (id * IH + ih) * IW + iw;
                                        }
                                    } else if constexpr (K == Pool::Average) {
                                        sum += double(v);
                                    } else {
                                        sum += std::pow(std::fabs(double(v)), p);
                                    }
                                }
                            }
                        }
                        const std::int64_t at =
                            (((n * channels + c) * OD + od) * OH + oh) * OW + ow;
                        if constexpr (K == Pool::Max) {
                            if (indices)
                                indices[at] = plane * ID * IH * IW + bestAt;
                            else
                                Y[at] = store<T>(best);
                        } else if constexpr (K == Pool::Average) {
                            const std::int64_t divisor = includePad ? padded : count;
                            Y[at] = store<T>(C(divisor ? sum / double(divisor) : 0.0));
                        } else {
                            Y[at] = store<T>(C(std::pow(sum, 1.0 / p)));
                        }
                    }
        }
}

template <Pool K> Result poolKernel(const KernelContext& ctx) {
    const auto w = windowOf(ctx.op, ctx.in(0).shape, ctx.outShape(), {});
    if (!w)
        return "inconsistent window attributes";
    visitNumeric(ctx.in(0).dtype, [&]<class T>(TypeTag<T>) {
        if constexpr (K == Pool::Max || kIsFloating<T>)
            poolLoop<K, T>(ctx, *w);
    });
    return std::nullopt;
}

std::string maxPoolCheck(const SupportQuery& q) {
    if (auto why = windowCheck(q); !why.empty())
        return why;
    if (q.graph && q.op.outputs.size() == 2 && q.outputType(1) != ir::DType::Int64)
        return "indices must be int64";
    if (q.graph && q.inputType(0) != q.outputType(0))
        return "input and output dtypes differ";
    if (!q.graph)
        return {};
    const ir::DType t = q.inputType(0);
    if (!(t == ir::DType::Float32 || t == ir::DType::Float64 || t == ir::DType::Float16 ||
          t == ir::DType::Int8 || t == ir::DType::UInt8))
        return "dtype " + std::string(ir::dtypeName(t)) + " is not supported";
    return {};
}

std::string averagePoolCheck(const SupportQuery& q) {
    if (auto why = windowCheck(q); !why.empty())
        return why;
    if (!q.op.attrInts("dilations").empty())
        for (auto d : q.op.attrInts("dilations"))
            if (d != 1)
                return "dilations are not supported"; // AveragePool has none before 19
    return checkTypes(q, isFloatType);
}

// GlobalAveragePool / GlobalMaxPool: one value per (n, c) over every spatial position.
template <Pool K> Result globalPoolKernel(const KernelContext& ctx) {
    const Tensor& x = ctx.in(0);
    std::int64_t plane = 1;
    for (std::size_t d = 2; d < x.shape.size(); ++d)
        plane *= x.shape[d];
    const std::int64_t channels = x.shape[1];
    visitFloating(x.dtype, [&]<class T>(TypeTag<T>) {
        using C = Compute<T>;
        const T* X = x.data<T>();
        T* Y = ctx.output.data<T>();
        for (std::int64_t n = ctx.region[0].begin; n < ctx.region[0].end; ++n)
            for (std::int64_t c = ctx.region[1].begin; c < ctx.region[1].end; ++c) {
                const T* in = X + (n * channels + c) * plane;
                double sum = 0;
                C best = -std::numeric_limits<C>::infinity();
                for (std::int64_t i = 0; i < plane; ++i) {
                    const C v = load(in[i]);
                    if constexpr (K == Pool::Max)
                        best = (v > best || std::isnan(v)) ? v : best;
                    else
                        sum += double(v);
                }
                Y[n * channels + c] =
                    K == Pool::Max ? store<T>(best) : store<T>(C(sum / double(plane)));
            }
    });
    return std::nullopt;
}

std::string globalPoolCheck(const SupportQuery& q) {
    if (q.graph && q.graph->value(q.op.inputs[0]).shape.size() < 3)
        return "input must have spatial dims";
    return checkTypes(q, isFloatType);
}

std::string lpPoolCheck(const SupportQuery& q) {
    if (auto why = windowCheck(q); !why.empty())
        return why;
    return checkTypes(q, isFloatType);
}

constexpr KernelInfo kConvKernels[] = {
    {"AveragePool", poolKernel<Pool::Average>, averagePoolCheck},
    {"Conv", convKernel, floatConvCheck},
    {"ConvTranspose", convTransposeKernel, floatConvCheck},
    {"GlobalAveragePool", globalPoolKernel<Pool::Average>, globalPoolCheck},
    {"GlobalMaxPool", globalPoolKernel<Pool::Max>, globalPoolCheck},
    {"LpPool", poolKernel<Pool::Lp>, lpPoolCheck},
    {"MaxPool", poolKernel<Pool::Max>, maxPoolCheck},
};

} // namespace

std::span<const KernelInfo> convKernels() {
    return kConvKernels;
}

} // namespace strata::reference::kernels
