// Conversions between dtypes: Cast, CastLike, QuantizeLinear, DequantizeLinear. Each output
// element comes from the input element at the same position.

#include "reference/Kernels.h"

#include <cmath>

namespace strata::reference::kernels {

namespace {

using Result = std::optional<std::string>;

// Cast and CastLike: the output's dtype is the target.
Result castKernel(const KernelContext& ctx) {
    const auto strides = stridesOf(ctx.outShape());
    visitAny(ctx.in(0).dtype, [&]<class From>(TypeTag<From>) {
        visitAny(ctx.output.dtype, [&]<class To>(TypeTag<To>) {
            const From* in = ctx.in(0).data<From>();
            To* out = ctx.output.data<To>();
            forEachRow(ctx.region, [&](const Index& index, std::int64_t count) {
                const std::int64_t base = dot(index, strides);
                for (std::int64_t j = base; j < base + count; ++j)
                    out[j] = convertElement<To>(in[j]);
            });
        });
    });
    return std::nullopt;
}

std::string castCheck(const SupportQuery& q) {
    // onnx 1.12 (the suite Strata is checked against) truncates to bfloat16, later versions and
    // PyTorch round to nearest even: no answer is right for both, so none is given.
    if (q.graph && q.outputType(0) == ir::DType::BFloat16)
        return "casting to bfloat16 is not supported (its rounding differs between onnx versions)";
    return {};
}

// QuantizeLinear / DequantizeLinear (opset 10-17): scale and zero point are scalars or 1-D
// along `axis` (per channel).
std::int64_t perAxis(const KernelContext& ctx, std::size_t input, const Index& i) {
    if (!ctx.has(input) || ctx.in(input).elements() <= 1)
        return 0;
    const auto axis = normalizeAxis(ctx.op.attrInt("axis", 1), std::int64_t(i.size()));
    return axis ? i[std::size_t(*axis)] : 0;
}

Result quantizeKernel(const KernelContext& ctx) {
    const auto strides = stridesOf(ctx.outShape());
    const Tensor& x = ctx.in(0);
    visitIntegral(ctx.output.dtype, [&]<class Q>(TypeTag<Q>) {
        Q* out = ctx.output.data<Q>();
        forEachIndex(ctx.region, [&](const Index& i) {
            const std::int64_t at = dot(i, strides);
            const double scale = ctx.in(1).at(perAxis(ctx, 1, i));
            const double zero = ctx.has(2) ? ctx.in(2).at(perAxis(ctx, 2, i)) : 0.0;
            // Divided in float32 for float32 input, as onnx's reference; rounded half to even.
            const double ratio = x.dtype == ir::DType::Float64
                                     ? x.at(at) / scale
                                     : double(float(x.at(at)) / float(scale));
            const double q = std::nearbyint(ratio) + zero;
            out[at] = saturatingFromDouble<Q>(q);
        });
    });
    return std::nullopt;
}

std::string quantizeCheck(const SupportQuery& q) {
    if (!q.graph)
        return {};
    const ir::DType out = q.outputType(0);
    if (out != ir::DType::UInt8 && out != ir::DType::Int8)
        return "output must be int8 or uint8";
    if (!isFloatType(q.inputType(0)) && q.inputType(0) != ir::DType::Int32)
        return "input dtype is not supported";
    return {};
}

Result dequantizeKernel(const KernelContext& ctx) {
    const auto strides = stridesOf(ctx.outShape());
    const Tensor& x = ctx.in(0);
    visitFloating(ctx.output.dtype, [&]<class T>(TypeTag<T>) {
        T* out = ctx.output.data<T>();
        forEachIndex(ctx.region, [&](const Index& i) {
            const std::int64_t at = dot(i, strides);
            const double scale = ctx.in(1).at(perAxis(ctx, 1, i));
            const double zero = ctx.has(2) ? ctx.in(2).at(perAxis(ctx, 2, i)) : 0.0;
            // In float, as the spec's (x - zero_point) * scale with float operands.
            out[at] = store<T>(Compute<T>(float(x.at(at) - zero) * float(scale)));
        });
    });
    return std::nullopt;
}

std::string dequantizeCheck(const SupportQuery& q) {
    if (!q.graph)
        return {};
    const ir::DType in = q.inputType(0);
    if (in != ir::DType::UInt8 && in != ir::DType::Int8 && in != ir::DType::Int32)
        return "input must be int8, uint8 or int32";
    if (!isFloatType(q.outputType(0)))
        return "output must be floating";
    return {};
}

constexpr KernelInfo kConvertKernels[] = {
    {"Cast", castKernel, castCheck},
    {"CastLike", castKernel, castCheck},
    {"DequantizeLinear", dequantizeKernel, dequantizeCheck},
    {"QuantizeLinear", quantizeKernel, quantizeCheck},
};

} // namespace

std::span<const KernelInfo> convertKernels() {
    return kConvertKernels;
}

} // namespace strata::reference::kernels
