// Resize (opset 11+: nearest, linear and cubic in every dim, all coordinate transformation
// modes) and Upsample (nearest, linear). Follows onnx's reference implementation: each output
// coordinate maps to an input coordinate, which picks neighbours with weights per dim; an output
// element is the weighted sum over the product of its dims' neighbours. Indices outside the
// input take the edge value.

#include "reference/Kernels.h"
#include "reference/ResizeTaps.h"

#include <cmath>

namespace strata::reference {
namespace {

std::array<double, 4> cubicCoeffs(double r, double a) {
    const double s = 1 - r;
    return {((a * (r + 1) - 5 * a) * (r + 1) + 8 * a) * (r + 1) - 4 * a,
            ((a + 2) * r - (a + 3)) * r * r + 1, ((a + 2) * s - (a + 3)) * s * s + 1,
            ((a * (s + 1) - 5 * a) * (s + 1) + 8 * a) * (s + 1) - 4 * a};
}

} // namespace

std::vector<ResizeTap> resizeTaps(const ResizeParams& p, std::size_t d, std::int64_t x,
                                  std::int64_t in, std::size_t rank) {
    using Tap = ResizeTap;
    const double scale = p.scales[d], out = p.lengths[d];
    double xo;
    if (p.transform == "asymmetric")
        xo = double(x) / scale;
    else if (p.transform == "pytorch_half_pixel")
        xo = out == 1 ? -0.5 : (double(x) + 0.5) / scale - 0.5;
    else if (p.transform == "align_corners")
        xo = out == 1 ? 0 : double(x) * double(in - 1) / (out - 1);
    else if (p.transform == "tf_half_pixel_for_nn")
        xo = (double(x) + 0.5) / scale;
    else if (p.transform == "tf_crop_and_resize") {
        const double start = p.roi[d], end = p.roi[rank + d];
        xo = out == 1 ? (end - start) * double(in - 1) / 2
                      : double(x) * (end - start) * double(in - 1) / (out - 1);
        xo += start * double(in - 1);
        if (xo < 0 || xo > double(in - 1))
            return {};
    } else
        xo = (double(x) + 0.5) / scale - 0.5; // half_pixel
    const auto clampIndex = [&](std::int64_t i) { return std::clamp<std::int64_t>(i, 0, in - 1); };
    const double fl = std::floor(xo);
    const auto x0 = std::int64_t(fl);
    const double r = xo - fl;
    std::vector<Tap> taps;
    if (p.mode == "nearest") {
        std::int64_t i = x0;
        if (r != 0) {
            if (p.nearestMode == "round_prefer_ceil")
                i = r >= 0.5 ? x0 + 1 : x0;
            else if (p.nearestMode == "floor")
                i = x0;
            else if (p.nearestMode == "ceil")
                i = x0 + 1;
            else
                i = r > 0.5 ? x0 + 1 : x0; // round_prefer_floor
        }
        taps.push_back({clampIndex(i), 1.0});
    } else if (p.mode == "linear") {
        taps.push_back({x0, 1 - r});
        taps.push_back({x0 + 1, r});
    } else {
        const auto c = cubicCoeffs(r, p.cubicA);
        for (int k = 0; k < 4; ++k)
            taps.push_back({x0 - 1 + k, c[std::size_t(k)]});
    }
    if (p.mode != "nearest") {
        if (p.excludeOutside) {
            double sum = 0;
            for (Tap& t : taps) {
                if (t.index < 0 || t.index >= in)
                    t.weight = 0;
                sum += t.weight;
            }
            for (Tap& t : taps)
                t.weight /= sum;
        }
        for (Tap& t : taps)
            t.index = clampIndex(t.index);
    }
    std::erase_if(taps, [](const Tap& t) { return t.weight == 0; });
    return taps;
}

ResizeParams resizeParams(const ir::Op& op, std::span<const double> roi,
                          std::span<const double> scales, const ir::Shape& input,
                          const ir::Shape& output) {
    using namespace kernels;
    ResizeParams p;
    p.mode = attrString(op, "mode", "nearest");
    p.transform = attrString(op, "coordinate_transformation_mode", "half_pixel");
    p.nearestMode = attrString(op, "nearest_mode", "round_prefer_floor");
    p.cubicA = attrFloat(op, "cubic_coeff_a", -0.75);
    p.excludeOutside = op.attrInt("exclude_outside", 0) != 0;
    p.extrapolation = attrFloat(op, "extrapolation_value", 0.0);
    p.roi.assign(roi.begin(), roi.end());
    p.scales.assign(scales.begin(), scales.end());
    if (p.scales.empty()) // sizes given: the scale is the size ratio
        for (std::size_t d = 0; d < output.size() && d < input.size(); ++d) {
            p.scales.push_back(double(output[d]) / double(input[d]));
            p.lengths.push_back(double(output[d]));
        }
    else if (p.scales.size() == input.size())
        for (std::size_t d = 0; d < input.size(); ++d)
            p.lengths.push_back(p.scales[d] * double(input[d]));
    return p;
}

} // namespace strata::reference

namespace strata::reference::kernels {
namespace {

using Result = std::optional<std::string>;
using Tap = ResizeTap;

std::vector<Tap> tapsFor(const ResizeParams& p, std::size_t d, std::int64_t x, std::int64_t in,
                         std::size_t rank) {
    return resizeTaps(p, d, x, in, rank);
}

Result resizeLoop(const KernelContext& ctx, ResizeParams p) {
    const Tensor& x = ctx.in(0);
    const std::size_t rank = x.shape.size();
    if (p.scales.size() != rank)
        return "scales must have one entry per dim";
    if (p.lengths.empty())
        for (std::size_t d = 0; d < rank; ++d)
            p.lengths.push_back(p.scales[d] * double(x.shape[d]));
    if (p.transform == "tf_crop_and_resize" && p.roi.size() != 2 * rank)
        return "roi must have 2 * rank entries";
    // Taps of every output coordinate in the region, per dim (nullopt: extrapolated).
    std::vector<std::vector<std::vector<Tap>>> taps(rank);
    for (std::size_t d = 0; d < rank; ++d)
        for (std::int64_t i = ctx.region[d].begin; i < ctx.region[d].end; ++i)
            taps[d].push_back(tapsFor(p, d, i, x.shape[d], rank));
    const auto inStrides = stridesOf(x.shape);
    const auto outStrides = stridesOf(ctx.outShape());
    visitNumeric(x.dtype, [&]<class T>(TypeTag<T>) {
        const T* X = x.data<T>();
        T* Y = ctx.output.data<T>();
        std::vector<const std::vector<Tap>*> dims(rank);
        std::vector<std::size_t> pick(rank);
        forEachIndex(ctx.region, [&](const Index& out) {
            bool extrapolate = false;
            for (std::size_t d = 0; d < rank; ++d) {
                dims[d] = &taps[d][std::size_t(out[d] - ctx.region[d].begin)];
                extrapolate = extrapolate || dims[d]->empty();
            }
            double sum = 0;
            if (extrapolate) {
                sum = p.extrapolation;
            } else {
                // Every combination of one tap per dim.
                std::fill(pick.begin(), pick.end(), 0);
                while (true) {
                    double w = 1;
                    std::int64_t at = 0;
                    for (std::size_t d = 0; d < rank; ++d) {
                        const Tap& t = (*dims[d])[pick[d]];
                        w *= t.weight;
                        at += t.index * inStrides[d];
                    }
                    sum += w * double(load(X[at]));
                    std::size_t d = rank;
                    while (d > 0 && ++pick[d - 1] == dims[d - 1]->size())
                        pick[--d] = 0;
                    if (d == 0)
                        break;
                }
            }
            Y[dot(out, outStrides)] = convertElement<T>(sum);
        });
    });
    return std::nullopt;
}

Result resizeKernel(const KernelContext& ctx) {
    const std::vector<double> roi = ctx.has(1) ? ctx.in(1).toDoubles() : std::vector<double>();
    const std::vector<double> scales = ctx.has(2) ? ctx.in(2).toDoubles() : std::vector<double>();
    return resizeLoop(ctx, resizeParams(ctx.op, roi, scales, ctx.in(0).shape, ctx.outShape()));
}

std::string resizeCheck(const SupportQuery& q) {
    if (q.graph && q.opset() < 11)
        return "Resize before opset 11 is not supported";
    const std::string mode = attrString(q.op, "mode", "nearest");
    if (mode != "nearest" && mode != "linear" && mode != "cubic")
        return "mode '" + mode + "' is not supported";
    const std::string t = attrString(q.op, "coordinate_transformation_mode", "half_pixel");
    if (t != "half_pixel" && t != "asymmetric" && t != "pytorch_half_pixel" &&
        t != "align_corners" && t != "tf_half_pixel_for_nn" && t != "tf_crop_and_resize")
        return "coordinate_transformation_mode '" + t + "' is not supported";
    const std::string n = attrString(q.op, "nearest_mode", "round_prefer_floor");
    if (n != "round_prefer_floor" && n != "round_prefer_ceil" && n != "floor" && n != "ceil")
        return "nearest_mode '" + n + "' is not supported";
    if (hasAttr(q.op, "antialias") || hasAttr(q.op, "axes") ||
        hasAttr(q.op, "keep_aspect_ratio_policy"))
        return "opset 18 attributes are not supported";
    if (q.graph && (q.inputType(0) != q.outputType(0) || !isNumericType(q.inputType(0))))
        return "dtype is not supported";
    return {};
}

// Upsample (opset 7-9): asymmetric coordinates, nearest rounds down.
Result upsampleKernel(const KernelContext& ctx) {
    ResizeParams p;
    p.mode = attrString(ctx.op, "mode", "nearest");
    p.transform = "asymmetric";
    p.nearestMode = "floor";
    p.scales = ctx.has(1) ? ctx.in(1).toDoubles() : attrFloats(ctx.op, "scales");
    return resizeLoop(ctx, p);
}

std::string upsampleCheck(const SupportQuery& q) {
    const std::string mode = attrString(q.op, "mode", "nearest");
    if (mode != "nearest" && mode != "linear")
        return "mode '" + mode + "' is not supported";
    if (q.graph && (q.inputType(0) != q.outputType(0) || !isNumericType(q.inputType(0))))
        return "dtype is not supported";
    return {};
}

constexpr KernelInfo kResizeKernels[] = {
    {"Resize", resizeKernel, resizeCheck},
    {"Upsample", upsampleKernel, upsampleCheck},
};

} // namespace

std::span<const KernelInfo> resizeKernels() {
    return kResizeKernels;
}

} // namespace strata::reference::kernels
