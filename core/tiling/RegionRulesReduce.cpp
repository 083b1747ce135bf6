// Ops that read whole axes: normalizations (their statistics), softmax and reductions. The
// axes they reduce over are whole; every other dim follows the output. Exact.

#include "tiling/RegionRules.h"

namespace strata::tiling::rules {

namespace {

// The input region of a reduction over the dims marked in `reduced`. With keepdims the output
// has the input's rank; without, the reduced dims are gone from it. nullopt on a rank mismatch.
std::optional<Region> unreduce(const Region& out, const ir::Shape& in,
                               const std::vector<bool>& reduced, bool keepdims) {
    Region region(in.size());
    std::size_t o = 0;
    for (std::size_t d = 0; d < in.size(); ++d) {
        if (reduced[d]) {
            region[d] = {0, in[d]};
            if (keepdims) ++o;
            continue;
        }
        if (o >= out.size()) return std::nullopt;
        region[d] = out[o++];
    }
    if (o != out.size()) return std::nullopt;
    return region;
}

// `out` with dims [from, rank) whole.
Region wholeFrom(const Region& out, const ir::Shape& in, std::size_t from) {
    Region region = out;
    for (std::size_t d = from; d < in.size(); ++d) region[d] = {0, in[d]};
    return region;
}

// Batch statistics (training) make every output depend on the whole input. Opsets before 14
// signal training by asking for the statistics outputs.
bool batchNormTraining(const ir::Op& op) {
    return op.attrInt("training_mode", 0) != 0 || op.outputs.size() > 1;
}

} // namespace

InputRegions batchNormRule(const RuleContext& ctx) {
    InputRegions regions = fullInputs(ctx);
    const ir::Shape& x = ctx.inputShape(0);
    if (batchNormTraining(ctx.op) || x.size() < 2 || ctx.out.size() != x.size()) return regions;
    regions[0] = ctx.out;
    // scale, B, mean, var are per channel (rank 1) except with opset 7's spatial=0.
    for (std::size_t i = 1; i < ctx.inputCount(); ++i)
        if (ctx.hasInput(i) && ctx.inputShape(i).size() == 1) regions[i] = Region{ctx.out[1]};
    return regions;
}

InputRegions instanceNormRule(const RuleContext& ctx) {
    InputRegions regions = fullInputs(ctx);
    const ir::Shape& x = ctx.inputShape(0);
    if (x.size() < 2 || ctx.out.size() != x.size()) return regions;
    regions[0] = wholeFrom(ctx.out, x, 2); // statistics over all spatial positions
    for (std::size_t i = 1; i < ctx.inputCount(); ++i)
        if (ctx.hasInput(i) && ctx.inputShape(i).size() == 1) regions[i] = Region{ctx.out[1]};
    return regions;
}

InputRegions layerNormRule(const RuleContext& ctx) {
    InputRegions regions = fullInputs(ctx);
    const ir::Shape& x = ctx.inputShape(0);
    const auto axis = normalizeAxis(ctx.op.attrInt("axis", -1), x.size());
    if (!axis || ctx.out.size() != x.size()) return regions;
    regions[0] = wholeFrom(ctx.out, x, *axis);
    // Y reads scale and bias at its own trailing positions; Mean and InvStdDev do not read them.
    for (std::size_t i = 1; i < ctx.inputCount(); ++i) {
        if (!ctx.hasInput(i)) continue;
        if (ctx.outputIndex == 0)
            regions[i] = broadcastRegion(ctx.out, ctx.inputShape(i));
        else
            regions[i] = std::nullopt;
    }
    return regions;
}

InputRegions groupNormRule(const RuleContext& ctx) {
    InputRegions regions = fullInputs(ctx);
    const ir::Shape& x = ctx.inputShape(0);
    const std::int64_t groups = ctx.op.attrInt("num_groups", 0);
    if (x.size() < 2 || ctx.out.size() != x.size() || groups <= 0 || x[1] % groups != 0)
        return regions;
    const std::int64_t perGroup = x[1] / groups;
    const Interval channels = ctx.out[1];
    const Interval touched{channels.begin / perGroup, (channels.end - 1) / perGroup + 1};
    Region xr = wholeFrom(ctx.out, x, 2);
    xr[1] = {touched.begin * perGroup, touched.end * perGroup};
    regions[0] = std::move(xr);
    // scale and bias are per channel since opset 21, per group in opset 18.
    for (std::size_t i = 1; i < ctx.inputCount(); ++i) {
        if (!ctx.hasInput(i) || ctx.inputShape(i).size() != 1) continue;
        if (ctx.inputShape(i)[0] == x[1])
            regions[i] = Region{channels};
        else if (ctx.inputShape(i)[0] == groups)
            regions[i] = Region{touched};
    }
    return regions;
}

// Opset 13 normalises along `axis` alone; older opsets coerce the input to 2-D at `axis`, so
// every dim from `axis` on is one row.
InputRegions softmaxRule(const RuleContext& ctx) {
    InputRegions regions = fullInputs(ctx);
    const ir::Shape& x = ctx.inputShape(0);
    const bool perAxis = ctx.graph.opsetVersion >= 13;
    const auto axis = normalizeAxis(ctx.op.attrInt("axis", perAxis ? -1 : 1), x.size());
    if (!axis || ctx.out.size() != x.size()) return regions;
    Region xr = wholeFrom(ctx.out, x, *axis);
    if (perAxis)
        for (std::size_t d = *axis + 1; d < x.size(); ++d) xr[d] = ctx.out[d];
    regions[0] = std::move(xr);
    return regions;
}

// Axes come from the second input (ReduceSum since opset 13, every Reduce* since 18) or from
// the `axes` attribute; an unknown axes input leaves everything whole.
InputRegions reduceRule(const RuleContext& ctx) {
    InputRegions regions = fullInputs(ctx);
    const ir::Shape& x = ctx.inputShape(0);
    std::vector<std::int64_t> axes = ctx.op.attrInts("axes");
    if (ctx.hasInput(1)) {
        auto constant = ctx.constantInput(1);
        if (!constant) return regions;
        axes = std::move(*constant);
    }
    const bool noop = axes.empty() && ctx.op.attrInt("noop_with_empty_axes", 0) != 0;
    std::vector<bool> reduced(x.size(), axes.empty() && !noop);
    for (std::int64_t a : axes) {
        const auto axis = normalizeAxis(a, x.size());
        if (!axis) return regions;
        reduced[*axis] = true;
    }
    if (auto xr = unreduce(ctx.out, x, reduced, ctx.op.attrInt("keepdims", 1) != 0))
        regions[0] = std::move(*xr);
    return regions;
}

InputRegions argReduceRule(const RuleContext& ctx) {
    InputRegions regions = fullInputs(ctx);
    const ir::Shape& x = ctx.inputShape(0);
    const auto axis = normalizeAxis(ctx.op.attrInt("axis", 0), x.size());
    if (!axis) return regions;
    std::vector<bool> reduced(x.size(), false);
    reduced[*axis] = true;
    if (auto xr = unreduce(ctx.out, x, reduced, ctx.op.attrInt("keepdims", 1) != 0))
        regions[0] = std::move(*xr);
    return regions;
}

} // namespace strata::tiling::rules
