// Sliding-window ops: Conv, ConvTranspose and pooling. Exact: the spatial interval is the
// bounding box of the in-range positions the window taps, so a dilated window whose first taps
// fall in the padding does not claim the edge it skips.

#include "tiling/RegionRules.h"
#include "tiling/Window.h"

#include <algorithm>
#include <limits>

namespace strata::tiling::rules {

namespace {

using Ints = std::vector<std::int64_t>;

Ints intsOr(const ir::Op& op, std::string_view name, std::size_t n, std::int64_t fallback) {
    Ints v = op.attrInts(name);
    return v.empty() ? Ints(n, fallback) : v;
}

using Window = SlidingWindow;

std::optional<Window> windowOf(const ir::Op& op, Ints kernel, const ir::Shape& in, const ir::Shape& out) {
    return slidingWindow(op, std::move(kernel), in, out);
}

// Bounding box of the in-range positions o*stride - padBegin + t*dilation for o in `out` and
// taps t in [0, kernel). Per tap, the smallest and largest output position that lands inside
// [0, inSize) give the extremes; empty when every tap lands in the padding.
Interval windowInput(Interval out, std::int64_t stride, std::int64_t padBegin, std::int64_t kernel,
                     std::int64_t dilation, std::int64_t inSize) {
    std::int64_t lo = std::numeric_limits<std::int64_t>::max();
    std::int64_t hi = std::numeric_limits<std::int64_t>::min();
    for (std::int64_t t = 0; t < kernel; ++t) {
        const std::int64_t base = t * dilation - padBegin;
        const std::int64_t first = std::max(out.begin, ceilDiv(-base, stride));
        if (first < out.end && first * stride + base < inSize)
            lo = std::min(lo, first * stride + base);
        const std::int64_t last = std::min(out.end - 1, floorDiv(inSize - 1 - base, stride));
        if (last >= out.begin && last * stride + base >= 0) hi = std::max(hi, last * stride + base);
    }
    return lo <= hi ? Interval{lo, hi + 1} : Interval{0, 0};
}

// ConvTranspose scatters input i to outputs i*stride - padBegin + t*dilation. The bounding box
// of the inputs in [0, inSize) that reach `out` through some tap.
Interval transposedInput(Interval out, std::int64_t stride, std::int64_t padBegin,
                         std::int64_t kernel, std::int64_t dilation, std::int64_t inSize) {
    std::int64_t lo = std::numeric_limits<std::int64_t>::max();
    std::int64_t hi = std::numeric_limits<std::int64_t>::min();
    for (std::int64_t t = 0; t < kernel; ++t) {
        const std::int64_t base = t * dilation - padBegin;
        const std::int64_t first = std::max<std::int64_t>(0, ceilDiv(out.begin - base, stride));
        if (first < inSize && first * stride + base < out.end) lo = std::min(lo, first);
        const std::int64_t last = std::min(inSize - 1, floorDiv(out.end - 1 - base, stride));
        if (last >= 0 && last * stride + base >= out.begin) hi = std::max(hi, last);
    }
    return lo <= hi ? Interval{lo, hi + 1} : Interval{0, 0};
}

// Batch and channels as in `out`, spatial dims through the window.
Region windowRegion(const Region& out, const Window& w, const ir::Shape& in) {
    Region region = out;
    for (std::size_t i = 0; i + 2 < in.size(); ++i)
        region[i + 2] = windowInput(out[i + 2], w.strides[i], w.padBegin[i], w.kernel[i],
                                    w.dilations[i], in[i + 2]);
    return region;
}

// The groups an output-channel range touches, as a range of group indices.
Interval groupsOf(Interval channels, std::int64_t channelsPerGroup) {
    return {channels.begin / channelsPerGroup, (channels.end - 1) / channelsPerGroup + 1};
}

} // namespace

InputRegions convRule(const RuleContext& ctx) {
    InputRegions regions = fullInputs(ctx);
    const ir::Shape& x = ctx.inputShape(0);
    const ir::Shape& w = ctx.inputShape(1);
    const ir::Shape& y = ctx.outputShape();
    if (x.size() < 3 || w.size() != x.size() || y.size() != x.size()) return regions;
    const auto window = windowOf(ctx.op, convKernel(ctx.op, w), x, y);
    const std::int64_t group = ctx.op.attrInt("group", 1);
    if (!window || group <= 0 || y[1] % group != 0 || x[1] % group != 0) return regions;

    // An output channel reads every input channel of its group.
    const Interval m = ctx.out[1];
    const Interval groups = groupsOf(m, y[1] / group);
    const std::int64_t inPerGroup = x[1] / group;
    Region xr = windowRegion(ctx.out, *window, x);
    xr[1] = {groups.begin * inPerGroup, groups.end * inPerGroup};
    regions[0] = std::move(xr);

    Region wr = fullRegion(w);
    wr[0] = m;
    regions[1] = std::move(wr);
    if (ctx.hasInput(2)) regions[2] = Region{m};
    return regions;
}

InputRegions convTransposeRule(const RuleContext& ctx) {
    InputRegions regions = fullInputs(ctx);
    const ir::Shape& x = ctx.inputShape(0);
    const ir::Shape& w = ctx.inputShape(1); // C x M/group x kernel
    const ir::Shape& y = ctx.outputShape();
    const std::int64_t group = ctx.op.attrInt("group", 1);
    if (x.size() < 3 || w.size() != x.size() || y.size() != x.size() || group <= 0 ||
        x[1] % group != 0 || w[0] != x[1] || w[1] * group != y[1])
        return regions;
    const std::size_t n = x.size() - 2;
    Ints kernel = ctx.op.attrInts("kernel_shape");
    if (kernel.empty()) kernel.assign(w.begin() + 2, w.end());
    const Ints strides = intsOr(ctx.op, "strides", n, 1);
    const Ints dilations = intsOr(ctx.op, "dilations", n, 1);
    const Ints outputPadding = intsOr(ctx.op, "output_padding", n, 0);
    const Ints pads = intsOr(ctx.op, "pads", 2 * n, 0);
    if (kernel.size() != n || strides.size() != n || dilations.size() != n ||
        outputPadding.size() != n || pads.size() != 2 * n)
        return regions;
    // With output_shape or auto_pad the pads are derived from the total padding, and runtimes
    // disagree on which side gets the odd pixel: take both splits.
    const bool derivedPads =
        ctx.op.attribute("output_shape") || attrString(ctx.op, "auto_pad", "NOTSET") != "NOTSET";

    Region xr = ctx.out;
    for (std::size_t i = 0; i < n; ++i) {
        if (strides[i] <= 0 || dilations[i] <= 0 || kernel[i] <= 0) return regions;
        const auto at = [&](std::int64_t padBegin) {
            return transposedInput(ctx.out[i + 2], strides[i], padBegin, kernel[i], dilations[i],
                                   x[i + 2]);
        };
        if (!derivedPads) {
            xr[i + 2] = at(pads[i]);
            continue;
        }
        const std::int64_t total = strides[i] * (x[i + 2] - 1) + outputPadding[i] +
                                   (kernel[i] - 1) * dilations[i] + 1 - y[i + 2];
        xr[i + 2] = regionUnion({at(total / 2)}, {at(total - total / 2)})[0];
    }

    const Interval m = ctx.out[1];
    const std::int64_t outPerGroup = y[1] / group;
    const Interval groups = groupsOf(m, outPerGroup);
    const Interval channels{groups.begin * (x[1] / group), groups.end * (x[1] / group)};
    xr[1] = channels;
    regions[0] = std::move(xr);

    // Weight dim 1 indexes the output channel within its group; across groups it is whole.
    Region wr = fullRegion(w);
    wr[0] = channels;
    if (groups.size() == 1)
        wr[1] = {m.begin - groups.begin * outPerGroup, m.end - groups.begin * outPerGroup};
    regions[1] = std::move(wr);
    if (ctx.hasInput(2)) regions[2] = Region{m};
    return regions;
}

InputRegions poolRule(const RuleContext& ctx) {
    InputRegions regions = fullInputs(ctx);
    const ir::Shape& x = ctx.inputShape(0);
    if (x.size() < 3) return regions;
    // Indices (MaxPool's second output) has Y's shape, so the same window applies.
    const auto window = windowOf(ctx.op, ctx.op.attrInts("kernel_shape"), x, ctx.outputShape());
    if (window) regions[0] = windowRegion(ctx.out, *window, x);
    return regions;
}

InputRegions globalPoolRule(const RuleContext& ctx) {
    InputRegions regions = fullInputs(ctx);
    const ir::Shape& x = ctx.inputShape(0);
    if (x.size() < 2 || ctx.out.size() != x.size()) return regions;
    Region xr = fullRegion(x);
    xr[0] = ctx.out[0];
    xr[1] = ctx.out[1];
    regions[0] = std::move(xr);
    return regions;
}

} // namespace strata::tiling::rules
