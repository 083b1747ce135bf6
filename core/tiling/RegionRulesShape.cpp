// Data movement: each output element is one input element moved elsewhere. Exact where the
// move is an affine map per dim (transpose, concat, split, slice, constant pad, tile, gather
// with constant indices); conservative where it mixes dims (reshape past the common prefix: a
// bounding box, space/depth shuffles, interpolation along scaled dims, reflect/edge padding).

#include "tiling/RegionRules.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <variant>
#include <vector>

namespace strata::tiling::rules {

namespace {

// `region` with dim `axis` moved by `offset`.
Region shifted(Region region, std::size_t axis, std::int64_t offset) {
    region[axis] = {region[axis].begin + offset, region[axis].end + offset};
    return region;
}

// Calls fn(flat index) for every element of `region` (row-major over `shape`).
template <class Fn> void forEachElement(const Region& region, const ir::Shape& shape, Fn fn) {
    std::vector<std::int64_t> pos(region.size());
    for (std::size_t d = 0; d < region.size(); ++d) pos[d] = region[d].begin;
    while (true) {
        std::int64_t flat = 0;
        for (std::size_t d = 0; d < shape.size(); ++d) flat = flat * shape[d] + pos[d];
        fn(flat);
        std::size_t d = region.size();
        while (d > 0 && ++pos[d - 1] == region[d - 1].end) {
            pos[d - 1] = region[d - 1].begin;
            --d;
        }
        if (d == 0) return;
    }
}

} // namespace

InputRegions transposeRule(const RuleContext& ctx) {
    InputRegions regions = fullInputs(ctx);
    const std::size_t rank = ctx.inputShape(0).size();
    std::vector<std::int64_t> perm = ctx.op.attrInts("perm");
    if (perm.empty())
        for (std::size_t d = rank; d > 0; --d) perm.push_back(static_cast<std::int64_t>(d - 1));
    if (perm.size() != rank || ctx.out.size() != rank) return regions;
    Region xr(rank);
    for (std::size_t d = 0; d < rank; ++d) {
        if (perm[d] < 0 || perm[d] >= static_cast<std::int64_t>(rank)) return regions;
        xr[static_cast<std::size_t>(perm[d])] = ctx.out[d]; // output dim d is input dim perm[d]
    }
    regions[0] = std::move(xr);
    return regions;
}

// Reshape, Flatten, Squeeze and Unsqueeze keep the row-major order, so dims of size 1 can be
// ignored and the leading dims that are equal on both sides keep their coordinates. Past the
// first mismatch dims merge or split: the output box's elements there lie in one range of
// row-major positions (from its first corner to its last), which the input reads as the
// smallest box holding that range (dims before the first one the range's ends differ in are
// one coordinate, that dim spans the ends, later dims are whole). A small tile of a reshape
// that splits a dim then reads a few rows, not the whole tensor.
InputRegions reshapeRule(const RuleContext& ctx) {
    InputRegions regions = fullInputs(ctx);
    const ir::Shape& x = ctx.inputShape(0);
    const ir::Shape& y = ctx.outputShape();
    Region xr = fullRegion(x);
    std::size_t i = 0;
    std::size_t j = 0;
    while (true) {
        while (i < x.size() && x[i] == 1) ++i;
        while (j < y.size() && y[j] == 1) ++j;
        if (i == x.size() || j == y.size() || x[i] != y[j]) break;
        xr[i++] = ctx.out[j++];
    }
    const bool nonEmpty = std::all_of(ctx.out.begin(), ctx.out.end(),
                                      [](const Interval& v) { return v.begin < v.end; });
    if (i < x.size() && j < y.size() && ctx.out.size() == y.size() && nonEmpty) {
        // Row-major positions within the dims past the common prefix.
        std::int64_t first = 0;
        std::int64_t last = 0;
        for (std::size_t d = j; d < y.size(); ++d) {
            first = first * y[d] + ctx.out[d].begin;
            last = last * y[d] + (ctx.out[d].end - 1);
        }
        std::vector<std::int64_t> lo(x.size()), hi(x.size());
        for (std::size_t d = x.size(); d-- > i;) {
            lo[d] = first % x[d];
            hi[d] = last % x[d];
            first /= x[d];
            last /= x[d];
        }
        std::size_t d = i;
        for (; d < x.size() && lo[d] == hi[d]; ++d)
            xr[d] = {lo[d], lo[d] + 1};
        if (d < x.size())
            xr[d] = {lo[d], hi[d] + 1};
    }
    regions[0] = std::move(xr);
    return regions;
}

// The output interval along `axis` splits across the inputs; an input it misses is not read.
InputRegions concatRule(const RuleContext& ctx) {
    InputRegions regions(ctx.inputCount());
    const auto axis = normalizeAxis(ctx.op.attrInt("axis", 0), ctx.out.size());
    if (!axis) return fullInputs(ctx);
    const Interval o = ctx.out[*axis];
    std::int64_t offset = 0;
    for (std::size_t k = 0; k < ctx.inputCount(); ++k) {
        if (!ctx.hasInput(k) || ctx.inputShape(k).size() != ctx.out.size()) return fullInputs(ctx);
        const std::int64_t size = ctx.inputShape(k)[*axis];
        if (std::max(o.begin, offset) < std::min(o.end, offset + size))
            regions[k] = shifted(ctx.out, *axis, -offset);
        offset += size;
    }
    return regions;
}

// Output k starts where the outputs before it end; their static shapes say where, whatever
// form the split sizes were given in.
InputRegions splitRule(const RuleContext& ctx) {
    InputRegions regions = fullInputs(ctx);
    const auto axis = normalizeAxis(ctx.op.attrInt("axis", 0), ctx.inputShape(0).size());
    if (!axis || ctx.out.size() != ctx.inputShape(0).size()) return regions;
    std::int64_t offset = 0;
    for (std::size_t k = 0; k < ctx.outputIndex; ++k)
        offset += ctx.graph.value(ctx.op.outputs[k]).shape[*axis];
    regions[0] = shifted(ctx.out, *axis, offset);
    return regions;
}

// Output position o along a sliced axis reads start + o*step, with start clamped as ONNX says.
// Before opset 10 starts/axes are attributes and steps are 1.
InputRegions sliceRule(const RuleContext& ctx) {
    InputRegions regions = fullInputs(ctx);
    const ir::Shape& x = ctx.inputShape(0);
    std::vector<std::int64_t> starts, axes, steps;
    if (ctx.op.attribute("starts")) {
        starts = ctx.op.attrInts("starts");
        axes = ctx.op.attrInts("axes");
    } else {
        auto s = ctx.constantInput(1);
        auto a = ctx.hasInput(3) ? ctx.constantInput(3) : std::vector<std::int64_t>{};
        auto t = ctx.hasInput(4) ? ctx.constantInput(4) : std::vector<std::int64_t>{};
        if (!s || !a || !t) return regions;
        starts = std::move(*s);
        axes = std::move(*a);
        steps = std::move(*t);
    }
    if (axes.empty())
        for (std::size_t k = 0; k < starts.size(); ++k)
            axes.push_back(static_cast<std::int64_t>(k));
    if (steps.empty()) steps.assign(starts.size(), 1);
    if (axes.size() != starts.size() || steps.size() != starts.size() || ctx.out.size() != x.size())
        return regions;

    Region xr = ctx.out;
    for (std::size_t k = 0; k < starts.size(); ++k) {
        const auto axis = normalizeAxis(axes[k], x.size());
        const std::int64_t step = steps[k];
        if (!axis || step == 0) return regions;
        const std::int64_t dim = x[*axis];
        std::int64_t start = starts[k] < 0 ? starts[k] + dim : starts[k];
        start = step > 0 ? std::clamp<std::int64_t>(start, 0, dim)
                         : std::clamp<std::int64_t>(start, 0, dim - 1);
        const Interval o = ctx.out[*axis];
        const std::int64_t first = start + o.begin * step;
        const std::int64_t last = start + (o.end - 1) * step;
        xr[*axis] = step > 0 ? Interval{first, last + 1} : Interval{last, first + 1};
    }
    regions[0] = std::move(xr);
    return regions;
}

// Constant padding shifts by the leading pad (an output tile inside the padding reads nothing);
// reflect, edge and wrap read from across the dim, so a padded dim is whole. Pads come from the
// second input since opset 11, from the attribute before; opset 18 adds an axes input.
InputRegions padRule(const RuleContext& ctx) {
    InputRegions regions = fullInputs(ctx);
    const ir::Shape& x = ctx.inputShape(0);
    std::vector<std::int64_t> pads = ctx.op.attrInts("pads");
    if (ctx.hasInput(1)) {
        auto constant = ctx.constantInput(1);
        if (!constant) return regions;
        pads = std::move(*constant);
    }
    std::vector<std::int64_t> axes;
    if (ctx.hasInput(3)) {
        auto constant = ctx.constantInput(3);
        if (!constant) return regions;
        axes = std::move(*constant);
    } else {
        for (std::size_t d = 0; d < x.size(); ++d) axes.push_back(static_cast<std::int64_t>(d));
    }
    if (pads.size() != 2 * axes.size() || ctx.out.size() != x.size()) return regions;

    const bool constantMode = attrString(ctx.op, "mode", "constant") == "constant";
    Region xr = ctx.out;
    for (std::size_t k = 0; k < axes.size(); ++k) {
        const auto axis = normalizeAxis(axes[k], x.size());
        if (!axis) return regions;
        const std::int64_t before = pads[k];
        const std::int64_t after = pads[k + axes.size()];
        if (constantMode)
            xr[*axis] = {ctx.out[*axis].begin - before, ctx.out[*axis].end - before};
        else if (before != 0 || after != 0)
            xr[*axis] = {0, x[*axis]};
    }
    regions[0] = std::move(xr);
    return regions;
}

// Output = data[:axis] + indices.shape + data[axis+1:]. Along `axis` the data interval is the
// range of the constant indices read, or whole when they are not constant.
InputRegions gatherRule(const RuleContext& ctx) {
    InputRegions regions = fullInputs(ctx);
    const ir::Shape& data = ctx.inputShape(0);
    const ir::Shape& indices = ctx.inputShape(1);
    const auto axis = normalizeAxis(ctx.op.attrInt("axis", 0), data.size());
    const std::size_t q = indices.size();
    if (!axis || ctx.out.size() != data.size() + q - 1) return regions;

    const Region indexRegion(ctx.out.begin() + *axis, ctx.out.begin() + *axis + q);
    Region xr = fullRegion(data);
    for (std::size_t d = 0; d < *axis; ++d) xr[d] = ctx.out[d];
    for (std::size_t d = *axis + 1; d < data.size(); ++d) xr[d] = ctx.out[d + q - 1];
    if (const auto values = ctx.constantInput(1)) {
        const std::int64_t dim = data[*axis];
        std::int64_t lo = std::numeric_limits<std::int64_t>::max();
        std::int64_t hi = std::numeric_limits<std::int64_t>::min();
        forEachElement(indexRegion, indices, [&](std::int64_t flat) {
            const std::int64_t v = (*values)[static_cast<std::size_t>(flat)];
            const std::int64_t index = v < 0 ? v + dim : v;
            lo = std::min(lo, index);
            hi = std::max(hi, index);
        });
        if (lo >= 0 && hi < dim) xr[*axis] = {lo, hi + 1}; // out of range: leave it whole
    }
    regions[0] = std::move(xr);
    regions[1] = indexRegion;
    return regions;
}

InputRegions expandRule(const RuleContext& ctx) {
    InputRegions regions = fullInputs(ctx);
    regions[0] = broadcastRegion(ctx.out, ctx.inputShape(0));
    return regions;
}

// Output position o along a dim of size n reads o mod n: exact within one repetition, whole
// when the interval crosses into the next.
InputRegions tileRule(const RuleContext& ctx) {
    InputRegions regions = fullInputs(ctx);
    const ir::Shape& x = ctx.inputShape(0);
    if (ctx.out.size() != x.size()) return regions;
    Region xr = fullRegion(x);
    for (std::size_t d = 0; d < x.size(); ++d) {
        const Interval o = ctx.out[d];
        if (o.begin / x[d] == (o.end - 1) / x[d]) xr[d] = {o.begin % x[d], (o.end - 1) % x[d] + 1};
    }
    regions[0] = std::move(xr);
    return regions;
}

namespace {

// Per-dim scales of a Resize or Upsample: 1 where the dim is provably not scaled. nullopt when
// they are not constants or only cover some axes.
std::optional<std::vector<double>> resizeScales(const RuleContext& ctx) {
    const ir::Shape& x = ctx.inputShape(0);
    const ir::Shape& y = ctx.outputShape();
    if (ctx.op.attribute("axes")) return std::nullopt;
    if (ctx.op.type == "Upsample") {
        if (ctx.op.attribute("scales")) {
            const ir::Attribute* a = ctx.op.attribute("scales");
            if (const auto* v = std::get_if<std::vector<double>>(&a->value)) return *v;
            return std::nullopt;
        }
        return constantFloats(ctx.graph, ctx.op.inputs[1]);
    }
    // Resize-10 has (X, scales); later opsets (X, roi, scales, sizes) with scales or sizes.
    const std::size_t scalesInput = ctx.graph.opsetVersion < 11 ? 1 : 2;
    if (ctx.hasInput(scalesInput) && ctx.graph.value(ctx.op.inputs[scalesInput]).elements() > 0)
        return constantFloats(ctx.graph, ctx.op.inputs[scalesInput]);
    // From sizes: the default policy stretches each dim on its own, so an unchanged size is
    // scale 1; the aspect-ratio policies use one scale for all dims.
    if (attrString(ctx.op, "keep_aspect_ratio_policy", "stretch") != "stretch") return std::nullopt;
    std::vector<double> scales(x.size());
    for (std::size_t d = 0; d < x.size() && d < y.size(); ++d) scales[d] = x[d] == y[d] ? 1.0 : 0.0;
    return scales;
}

// The input coordinate output coordinate `x` maps to along a dim (onnx's mapping, as
// reference/ResizeTaps.h: `length` is scale x input length when scales are given, else the
// output size). Non-decreasing in x for every mode here.
double resizeSource(std::string_view transform, double x, double scale, double length,
                    std::int64_t in) {
    if (transform == "asymmetric")
        return x / scale;
    if (transform == "pytorch_half_pixel")
        return length == 1 ? -0.5 : (x + 0.5) / scale - 0.5;
    if (transform == "align_corners")
        return length == 1 ? 0 : x * double(in - 1) / (length - 1);
    if (transform == "tf_half_pixel_for_nn")
        return (x + 0.5) / scale;
    return (x + 0.5) / scale - 0.5; // half_pixel
}

// The input interval a scaled dim's output interval [begin, end) reads: from the first
// coordinate's floor to the last one's floor + 1 (linear's second tap, nearest rounding up),
// cubic one further each side, and one more each side against rounding; clamped to the dim.
Interval scaledInterval(std::string_view transform, std::string_view mode, const Interval& out,
                        double scale, double length, std::int64_t in) {
    const std::int64_t reach = mode == "cubic" ? 2 : 1;
    const auto first = static_cast<std::int64_t>(
        std::floor(resizeSource(transform, double(out.begin), scale, length, in)));
    const auto last = static_cast<std::int64_t>(
        std::floor(resizeSource(transform, double(out.end - 1), scale, length, in)));
    return {std::clamp<std::int64_t>(first - reach, 0, in),
            std::clamp<std::int64_t>(last + reach + 2, 0, in)};
}

} // namespace

// An unscaled dim maps, widened by the taps interpolation may touch (with zero weight) around
// an integer position: 1 for linear, 2 for cubic. A scaled dim of a Resize with constant
// scales or sizes maps through its coordinate transform (scaledInterval); otherwise it is
// whole.
InputRegions resizeRule(const RuleContext& ctx) {
    InputRegions regions = fullInputs(ctx);
    const ir::Shape& x = ctx.inputShape(0);
    const ir::Shape& y = ctx.outputShape();
    // tf_crop_and_resize moves even unscaled dims by its roi.
    if (y.size() != x.size() ||
        attrString(ctx.op, "coordinate_transformation_mode", "") == "tf_crop_and_resize")
        return regions;
    const auto scales = resizeScales(ctx);
    if (!scales || scales->size() != x.size()) return regions;
    const std::string_view mode = attrString(ctx.op, "mode", "nearest");
    // tf_half_pixel_for_nn maps an unscaled x to x + 0.5, which nearest may round up to x + 1.
    const bool halfUp =
        attrString(ctx.op, "coordinate_transformation_mode", "") == "tf_half_pixel_for_nn";
    const std::int64_t halo = mode == "cubic" ? 2 : mode == "nearest" ? (halfUp ? 1 : 0) : 1;
    Region xr = fullRegion(x);
    // Resize's own scales (or the sizes' ratios) where they are known per dim.
    const std::string_view transform =
        attrString(ctx.op, "coordinate_transformation_mode", "half_pixel");
    std::vector<double> given;
    if (ctx.op.type == "Resize" && ctx.graph.opsetVersion >= 11 && !ctx.op.attribute("axes")) {
        if (ctx.hasInput(2) && ctx.graph.value(ctx.op.inputs[2]).elements() > 0)
            given = constantFloats(ctx.graph, ctx.op.inputs[2]).value_or(std::vector<double>{});
        else if (ctx.hasInput(3) &&
                 attrString(ctx.op, "keep_aspect_ratio_policy", "stretch") == "stretch")
            for (std::size_t d = 0; d < x.size(); ++d)
                given.push_back(x[d] > 0 ? double(y[d]) / double(x[d]) : 0.0);
    }
    const bool fromSizes = !(ctx.hasInput(2) && ctx.graph.value(ctx.op.inputs[2]).elements() > 0);
    for (std::size_t d = 0; d < x.size(); ++d) {
        if (x[d] == y[d] && (*scales)[d] == 1.0)
            xr[d] = {ctx.out[d].begin - halo, ctx.out[d].end + halo};
        else if (given.size() == x.size() && given[d] > 0 && ctx.out[d].size() > 0)
            xr[d] = scaledInterval(transform, mode, ctx.out[d], given[d],
                                   fromSizes ? double(y[d]) : given[d] * double(x[d]), x[d]);
    }
    regions[0] = std::move(xr);
    return regions;
}

// DepthToSpace and SpaceToDepth interleave channels with space: only the batch maps.
InputRegions spaceDepthRule(const RuleContext& ctx) {
    InputRegions regions = fullInputs(ctx);
    const ir::Shape& x = ctx.inputShape(0);
    if (x.empty() || ctx.out.size() != x.size()) return regions;
    Region xr = fullRegion(x);
    xr[0] = ctx.out[0];
    regions[0] = std::move(xr);
    return regions;
}

} // namespace strata::tiling::rules
