// MatMul and Gemm: rows of A follow the output rows, columns of B the output columns, and both
// read the whole contraction dim K. Einsum generalises it: a dim whose label is in the output
// follows the output, a summed label is read whole. Exact.

#include "tiling/EinsumEquation.h"
#include "tiling/RegionRules.h"

#include <algorithm>

namespace strata::tiling::rules {

namespace {

// Batch dims of an operand (all but the last two), broadcast against the output's batch dims.
Region batchRegion(const Region& outBatch, const ir::Shape& operand) {
    return broadcastRegion(outBatch, ir::Shape(operand.begin(), operand.end() - 2));
}

} // namespace

InputRegions matMulRule(const RuleContext& ctx) {
    InputRegions regions = fullInputs(ctx);
    ir::Shape a = ctx.inputShape(0);
    ir::Shape b = ctx.inputShape(1);
    if (a.empty() || b.empty()) return regions;
    // ONNX promotes a 1-D A to [1,K] and a 1-D B to [K,1], then drops the added dim from the
    // result: put it back so the output region is [batch..., M, N].
    Region out = ctx.out;
    const bool vectorA = a.size() == 1;
    const bool vectorB = b.size() == 1;
    if (vectorB) {
        b.push_back(1);
        out.push_back({0, 1});
    }
    if (vectorA) {
        a.insert(a.begin(), 1);
        out.insert(out.end() - 1, {0, 1});
    }
    if (out.size() < std::max(a.size(), b.size())) return regions;
    const Interval rows = out[out.size() - 2];
    const Interval cols = out.back();
    const Region outBatch(out.begin(), out.end() - 2);

    Region ar = batchRegion(outBatch, a);
    ar.push_back(rows);
    ar.push_back({0, a.back()});
    if (vectorA) ar.erase(ar.begin());
    regions[0] = std::move(ar);

    Region br = batchRegion(outBatch, b);
    br.push_back({0, b[b.size() - 2]});
    br.push_back(cols);
    if (vectorB) br.pop_back();
    regions[1] = std::move(br);
    return regions;
}

InputRegions gemmRule(const RuleContext& ctx) {
    InputRegions regions = fullInputs(ctx);
    const ir::Shape& a = ctx.inputShape(0);
    const ir::Shape& b = ctx.inputShape(1);
    if (a.size() != 2 || b.size() != 2 || ctx.out.size() != 2) return regions;
    const Interval rows = ctx.out[0];
    const Interval cols = ctx.out[1];
    regions[0] = ctx.op.attrInt("transA", 0) ? Region{{0, a[0]}, rows} : Region{rows, {0, a[1]}};
    regions[1] = ctx.op.attrInt("transB", 0) ? Region{cols, {0, b[1]}} : Region{{0, b[0]}, cols};
    if (ctx.hasInput(2)) regions[2] = broadcastRegion(ctx.out, ctx.inputShape(2));
    return regions;
}

InputRegions einsumRule(const RuleContext& ctx) {
    InputRegions regions = fullInputs(ctx);
    std::vector<ir::Shape> shapes;
    for (std::size_t i = 0; i < ctx.inputCount(); ++i) {
        if (!ctx.hasInput(i))
            return regions; // the reference refuses it; stay safe
        shapes.push_back(ctx.inputShape(i));
    }
    std::string why;
    const auto e = parseEinsum(std::string(attrString(ctx.op, "equation", "")), shapes, why);
    if (!e || e->output.size() != ctx.out.size())
        return regions;
    // Per label: the output's interval, or the whole label when it is summed over.
    std::vector<Interval> range(e->sizes.size());
    for (std::size_t l = 0; l < range.size(); ++l)
        range[l] = {0, e->sizes[l]};
    for (std::size_t d = 0; d < e->output.size(); ++d)
        range[std::size_t(e->output[d])] = ctx.out[d];
    for (std::size_t i = 0; i < shapes.size(); ++i) {
        Region in(shapes[i].size());
        for (std::size_t d = 0; d < in.size(); ++d)
            in[d] = shapes[i][d] == 1 ? Interval{0, 1} : range[std::size_t(e->inputs[i][d])];
        regions[i] = std::move(in);
    }
    return regions;
}

} // namespace strata::tiling::rules
