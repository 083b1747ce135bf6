// Data movement: Identity, Dropout (inference), Reshape, Flatten, Squeeze, Unsqueeze, Transpose,
// Concat, Split, Slice, Pad, Expand, Tile, DepthToSpace, SpaceToDepth. Every output element is
// a copy of one input element (or a pad value), found from its index; elements are moved by
// size, whatever their dtype. Output shapes come from the graph, so ops whose shape is given by
// a second input (Reshape, Expand, ...) never read it.

#include "reference/Kernels.h"

#include <cstring>

namespace strata::reference::kernels {

namespace {

using Result = std::optional<std::string>;

// Reshape, Flatten, Squeeze, Unsqueeze, Identity, Dropout: the same elements in the same order.
Result copyKernel(const KernelContext& ctx) {
    if (ctx.outputIndex == 1) { // Dropout's mask: nothing is dropped at inference
        const auto strides = stridesOf(ctx.outShape());
        bool* mask = ctx.output.data<bool>();
        forEachIndex(ctx.region, [&](const Index& i) { mask[dot(i, strides)] = true; });
        return std::nullopt;
    }
    if (ctx.in(0).elements() != ctx.output.elements())
        return "element counts differ";
    const auto strides = stridesOf(ctx.outShape());
    const std::size_t size = ir::dtypeSize(ctx.output.dtype);
    forEachRow(ctx.region, [&](const Index& index, std::int64_t count) {
        const std::int64_t at = dot(index, strides);
        std::memcpy(ctx.output.bytes.data() + at * size, ctx.in(0).bytes.data() + at * size,
                    std::size_t(count) * size);
    });
    return std::nullopt;
}

std::string copyCheck(const SupportQuery& q) {
    if (q.graph && q.inputType(0) != q.outputType(0))
        return "input and output dtypes differ";
    return {};
}

std::string dropoutCheck(const SupportQuery& q) {
    if (q.hasInput(2) && q.graph) {
        const ir::Value& training = q.graph->value(q.op.inputs[2]);
        if (!training.isConstant || training.data.size < 1 || training.data.data[0] != std::byte{0})
            return "training_mode is not supported";
    }
    if (q.graph && q.op.outputs.size() > 1 && q.outputType(1) != ir::DType::Bool)
        return "mask must be bool";
    return copyCheck(q);
}

Result transposeKernel(const KernelContext& ctx) {
    const Tensor& x = ctx.in(0);
    const std::size_t rank = x.shape.size();
    auto perm = ctx.op.attrInts("perm");
    if (perm.empty())
        for (std::size_t d = rank; d-- > 0;)
            perm.push_back(std::int64_t(d));
    if (perm.size() != rank)
        return "perm has the wrong length";
    const auto inStrides = stridesOf(x.shape);
    std::vector<std::int64_t> strides(rank); // input stride of each output dim
    for (std::size_t d = 0; d < rank; ++d) {
        if (perm[d] < 0 || perm[d] >= std::int64_t(rank))
            return "perm out of range";
        strides[d] = inStrides[std::size_t(perm[d])];
    }
    gatherElements(x, ctx.output, ctx.region, [&](const Index& i) { return dot(i, strides); });
    return std::nullopt;
}

Result concatKernel(const KernelContext& ctx) {
    const auto rank = std::int64_t(ctx.outShape().size());
    const auto axis = normalizeAxis(ctx.op.attrInt("axis", 0), rank);
    if (!axis)
        return "axis out of range";
    const auto a = std::size_t(*axis);
    // Region of the output each input fills, copied one input at a time.
    std::int64_t start = 0;
    for (const Tensor* in : ctx.inputs) {
        const std::int64_t size = in->shape[a];
        tiling::Region part = ctx.region;
        part[a] = {std::max(part[a].begin, start), std::min(part[a].end, start + size)};
        if (!tiling::regionEmpty(part)) {
            const auto strides = stridesOf(in->shape);
            gatherElements(*in, ctx.output, part, [&](const Index& i) {
                Index j = i;
                j[a] -= start;
                return dot(j, strides);
            });
        }
        start += size;
    }
    return std::nullopt;
}

std::string concatCheck(const SupportQuery& q) {
    if (!q.graph)
        return {};
    for (std::size_t i = 0; i < q.op.inputs.size(); ++i)
        if (!q.hasInput(i) || q.inputType(i) != q.outputType(0))
            return "inputs and output must share a dtype";
    return {};
}

// Output k starts where outputs 0..k-1 end along the axis (their sizes come from the graph).
Result splitKernel(const KernelContext& ctx) {
    const Tensor& x = ctx.in(0);
    const auto axis = normalizeAxis(ctx.op.attrInt("axis", 0), std::int64_t(x.shape.size()));
    if (!axis)
        return "axis out of range";
    const auto a = std::size_t(*axis);
    std::int64_t start = 0;
    for (std::size_t k = 0; k < ctx.outputIndex; ++k)
        start += ctx.graph.value(ctx.op.outputs[k]).shape[a];
    const auto strides = stridesOf(x.shape);
    gatherElements(x, ctx.output, ctx.region, [&](const Index& i) {
        Index j = i;
        j[a] += start;
        return dot(j, strides);
    });
    return std::nullopt;
}

std::string splitCheck(const SupportQuery& q) {
    if (!q.graph)
        return {};
    std::int64_t total = 0;
    const auto& in = q.graph->value(q.op.inputs[0]).shape;
    const auto axis = normalizeAxis(q.op.attrInt("axis", 0), std::int64_t(in.size()));
    if (!axis)
        return "axis out of range";
    for (ir::ValueId out : q.op.outputs)
        total += q.graph->value(out).shape[std::size_t(*axis)];
    if (total != in[std::size_t(*axis)])
        return "outputs do not cover the input (an output is unnamed)";
    return copyCheck(q);
}

// Start and step of every dim of a Slice: attributes before opset 10, inputs after.
std::optional<std::pair<Index, Index>> sliceStarts(const KernelContext& ctx) {
    const ir::Shape& shape = ctx.in(0).shape;
    const auto rank = std::int64_t(shape.size());
    std::vector<std::int64_t> starts, axes, steps;
    if (ctx.opset() < 10) {
        starts = ctx.op.attrInts("starts");
        axes = ctx.op.attrInts("axes");
    } else {
        starts = ctx.in(1).toInt64s();
        if (ctx.has(3))
            axes = ctx.in(3).toInt64s();
        if (ctx.has(4))
            steps = ctx.in(4).toInt64s();
    }
    if (axes.empty())
        for (std::size_t i = 0; i < starts.size(); ++i)
            axes.push_back(std::int64_t(i));
    if (steps.empty())
        steps.assign(starts.size(), 1);
    if (axes.size() != starts.size() || steps.size() != starts.size())
        return std::nullopt;
    Index start(std::size_t(rank), 0), step(std::size_t(rank), 1);
    for (std::size_t i = 0; i < starts.size(); ++i) {
        const auto axis = normalizeAxis(axes[i], rank);
        if (!axis || steps[i] == 0)
            return std::nullopt;
        const std::int64_t dim = shape[std::size_t(*axis)];
        std::int64_t s = starts[i] < 0 ? starts[i] + dim : starts[i];
        s = steps[i] > 0 ? std::clamp<std::int64_t>(s, 0, dim)
                         : std::clamp<std::int64_t>(s, 0, std::max<std::int64_t>(dim - 1, 0));
        start[std::size_t(*axis)] = s;
        step[std::size_t(*axis)] = steps[i];
    }
    return std::pair{start, step};
}

Result sliceKernel(const KernelContext& ctx) {
    const auto ss = sliceStarts(ctx);
    if (!ss)
        return "inconsistent starts, axes or steps";
    // Not a structured binding: clang 14 (the fuzz preset) cannot capture one in a lambda.
    const auto& start = ss->first;
    const auto& step = ss->second;
    const auto strides = stridesOf(ctx.in(0).shape);
    gatherElements(ctx.in(0), ctx.output, ctx.region, [&](const Index& i) {
        std::int64_t offset = 0;
        for (std::size_t d = 0; d < i.size(); ++d)
            offset += (start[d] + i[d] * step[d]) * strides[d];
        return offset;
    });
    return std::nullopt;
}

std::string sliceCheck(const SupportQuery& q) {
    if (!q.graph)
        return {};
    if (q.inputType(0) != q.outputType(0))
        return "input and output dtypes differ";
    for (std::size_t i = 1; i < q.op.inputs.size(); ++i)
        if (q.hasInput(i) && !isIndexType(q.inputType(i)))
            return "starts/ends/axes/steps must be int32 or int64";
    return {};
}

// Pad: begin pads and the pad value; attributes before opset 11, inputs after.
Result padKernel(const KernelContext& ctx) {
    const Tensor& x = ctx.in(0);
    const std::size_t rank = x.shape.size();
    const auto pads = ctx.opset() < 11 ? ctx.op.attrInts("pads") : ctx.in(1).toInt64s();
    if (pads.size() != 2 * rank)
        return "pads must have 2 * rank entries";
    const std::string mode = attrString(ctx.op, "mode", "constant");
    const double value =
        ctx.opset() < 11 ? attrFloat(ctx.op, "value", 0.0) : scalarInput(ctx, 2, 0.0);
    const auto strides = stridesOf(x.shape);
    // The pad value in the output's dtype, written where no input element maps.
    Tensor fill = fromValues(ctx.output.dtype, {}, std::vector<double>{value});
    const auto outStrides = stridesOf(ctx.outShape());
    const std::size_t size = ir::dtypeSize(ctx.output.dtype);
    bool any = x.elements() > 0;
    gatherElements(x, ctx.output, ctx.region, [&](const Index& i) -> std::int64_t {
        std::int64_t offset = 0;
        for (std::size_t d = 0; d < rank; ++d) {
            const std::int64_t n = x.shape[d];
            std::int64_t j = i[d] - pads[d];
            if (j < 0 || j >= n) {
                if (mode == "constant" || !any) {
                    std::memcpy(ctx.output.bytes.data() + dot(i, outStrides) * std::int64_t(size),
                                fill.bytes.data(), size);
                    return -1;
                }
                if (mode == "edge") {
                    j = std::clamp<std::int64_t>(j, 0, n - 1);
                } else if (n == 1) { // reflect over a single element
                    j = 0;
                } else {
                    const std::int64_t period = 2 * (n - 1);
                    j = ((j % period) + period) % period;
                    if (j >= n)
                        j = period - j;
                }
            }
            offset += j * strides[d];
        }
        return offset;
    });
    return std::nullopt;
}

std::string padCheck(const SupportQuery& q) {
    const std::string mode = attrString(q.op, "mode", "constant");
    if (mode != "constant" && mode != "reflect" && mode != "edge")
        return "mode '" + mode + "' is not supported";
    if (q.graph && q.inputType(0) != q.outputType(0))
        return "input and output dtypes differ";
    if (q.op.inputs.size() > 3)
        return "the axes input (opset 18) is not supported";
    return {};
}

Result expandKernel(const KernelContext& ctx) {
    const Tensor& x = ctx.in(0);
    if (!broadcastsTo(x.shape, ctx.outShape()))
        return "input does not broadcast to the output";
    const auto strides = broadcastStrides(x.shape, ctx.outShape().size());
    gatherElements(x, ctx.output, ctx.region, [&](const Index& i) { return dot(i, strides); });
    return std::nullopt;
}

Result tileKernel(const KernelContext& ctx) {
    const Tensor& x = ctx.in(0);
    if (x.shape.size() != ctx.outShape().size())
        return "repeats do not match the rank";
    const auto strides = stridesOf(x.shape);
    gatherElements(x, ctx.output, ctx.region, [&](const Index& i) {
        std::int64_t offset = 0;
        for (std::size_t d = 0; d < i.size(); ++d)
            offset += (i[d] % x.shape[d]) * strides[d];
        return offset;
    });
    return std::nullopt;
}

// DepthToSpace: output (n, c, h, w) reads channel (DCR) ((h % b) * b + w % b) * C' + c or
// (CRD) c * b * b + (h % b) * b + w % b, at (h / b, w / b).
Result depthToSpaceKernel(const KernelContext& ctx) {
    const Tensor& x = ctx.in(0);
    const std::int64_t b = ctx.op.attrInt("blocksize", 0);
    const bool crd = attrString(ctx.op, "mode", "DCR") == "CRD";
    const std::int64_t outC = ctx.outShape()[1];
    const auto strides = stridesOf(x.shape);
    gatherElements(x, ctx.output, ctx.region, [&](const Index& i) {
        const std::int64_t bh = i[2] % b, bw = i[3] % b;
        const std::int64_t c = crd ? i[1] * b * b + bh * b + bw : (bh * b + bw) * outC + i[1];
        return i[0] * strides[0] + c * strides[1] + (i[2] / b) * strides[2] +
               (i[3] / b) * strides[3];
    });
    return std::nullopt;
}

// SpaceToDepth: output channel c = (bh * b + bw) * C + ic reads (ic, h * b + bh, w * b + bw).
Result spaceToDepthKernel(const KernelContext& ctx) {
    const Tensor& x = ctx.in(0);
    const std::int64_t b = ctx.op.attrInt("blocksize", 0);
    const std::int64_t inC = x.shape[1];
    const auto strides = stridesOf(x.shape);
    gatherElements(x, ctx.output, ctx.region, [&](const Index& i) {
        const std::int64_t ic = i[1] % inC, block = i[1] / inC;
        return i[0] * strides[0] + ic * strides[1] + (i[2] * b + block / b) * strides[2] +
               (i[3] * b + block % b) * strides[3];
    });
    return std::nullopt;
}

std::string blockCheck(const SupportQuery& q) {
    if (q.op.attrInt("blocksize", 0) < 1)
        return "blocksize must be positive";
    const std::string mode = attrString(q.op, "mode", "DCR");
    if (mode != "DCR" && mode != "CRD")
        return "mode '" + mode + "' is not supported";
    if (q.graph && q.graph->value(q.op.inputs[0]).shape.size() != 4)
        return "input must be 4-D";
    return copyCheck(q);
}

constexpr KernelInfo kShapeKernels[] = {
    {"Concat", concatKernel, concatCheck}, {"DepthToSpace", depthToSpaceKernel, blockCheck},
    {"Dropout", copyKernel, dropoutCheck}, {"Expand", expandKernel, copyCheck},
    {"Flatten", copyKernel, copyCheck},    {"Identity", copyKernel, copyCheck},
    {"Pad", padKernel, padCheck},          {"Reshape", copyKernel, copyCheck},
    {"Slice", sliceKernel, sliceCheck},    {"SpaceToDepth", spaceToDepthKernel, blockCheck},
    {"Split", splitKernel, splitCheck},    {"Squeeze", copyKernel, copyCheck},
    {"Tile", tileKernel, copyCheck},       {"Transpose", transposeKernel, copyCheck},
    {"Unsqueeze", copyKernel, copyCheck},
};

} // namespace

std::span<const KernelInfo> shapeKernels() {
    return kShapeKernels;
}

} // namespace strata::reference::kernels
