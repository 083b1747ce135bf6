#include "runtime/ComputeKernels.h"

#include "runtime/EinsumKernel.h"
#include "runtime/LayoutKernels.h"
#include "runtime/MatrixVectorConv.h"
#include "runtime/MoveKernels.h"
#include "runtime/NormKernels.h"
#include "runtime/Pool2d.h"
#include "runtime/ReduceKernel.h"
#include "runtime/ResizeKernel.h"
#include "runtime/StridedPointwiseConv.h"
#include "runtime/ViewCast.h"

#include <algorithm>
#include <cstring>
#include <limits>

namespace strata::runtime {
namespace {

using compiler::Kernel;

// Kernels that only move elements work on any type of the element's size.
template <class T>
void move(const PreparedCompute& p) {
    const auto y = viewAs<T>(p.output);
    const compiler::KernelCall& c = p.call;
    switch (c.kernel) {
    case Kernel::Reshape:
        return rt::reshapeBoxes(y, viewAs<T>(p.inputs[0]), MergedStridedCopy{});
    case Kernel::Transpose:
        return rt::transposeBoxes(y, viewAs<T>(p.inputs[0]), c.ints.data(), MergedStridedCopy{});
    case Kernel::Concat: {
        std::vector<rt::View<T>> xs;
        xs.reserve(p.inputs.size());
        for (const auto& x : p.inputs)
            xs.push_back(viewAs<T>(x));
        return runtime::concatBoxes(y, xs.data(), xs.size(), c.axis);
    }
    case Kernel::Slice: {
        const std::size_t rank = c.ints.size() / 2;
        return rt::sliceBoxes(y, viewAs<T>(p.inputs[0]), c.ints.data(), c.ints.data() + rank,
                              MergedStridedCopy{});
    }
    case Kernel::Split: {
        const auto x = viewAs<T>(p.inputs[0]);
        rt::i64 starts[rt::kMaxRank] = {}, steps[rt::kMaxRank];
        std::fill(steps, steps + rt::kMaxRank, rt::i64{1});
        for (std::size_t k = 0; k < p.outputs.size(); ++k) {
            if (!p.outputs[k].data)
                continue;
            starts[c.axis] = c.ints[k];
            rt::sliceBoxes(viewAs<T>(p.outputs[k]), x, starts, steps, MergedStridedCopy{});
        }
        return;
    }
    default: return;
    }
}

template <class T>
void gatherOf(const PreparedCompute& p) {
    const auto y = viewAs<T>(p.output), x = viewAs<T>(p.inputs[0]);
    if (p.call.inputs[1].dtype == ir::DType::Int32)
        rt::gatherRows(y, x, viewAs<std::int32_t>(p.inputs[1]), p.call.axis);
    else
        rt::gatherRows(y, x, viewAs<std::int64_t>(p.inputs[1]), p.call.axis);
}

void gatherAny(const PreparedCompute& p) {
    switch (ir::dtypeSize(p.call.outputs[0].dtype)) {
    case 1: return gatherOf<std::uint8_t>(p);
    case 2: return gatherOf<std::uint16_t>(p);
    case 8: return gatherOf<std::uint64_t>(p);
    default: return gatherOf<std::uint32_t>(p);
    }
}

template <class T> void whereOf(const PreparedCompute& p) {
    rt::where(viewAs<T>(p.output), viewAs<std::uint8_t>(p.inputs[0]), viewAs<T>(p.inputs[1]),
              viewAs<T>(p.inputs[2]));
}

void whereAny(const PreparedCompute& p) {
    switch (ir::dtypeSize(p.call.outputs[0].dtype)) {
    case 1:
        return whereOf<std::uint8_t>(p);
    case 2:
        return whereOf<std::uint16_t>(p);
    case 8:
        return whereOf<std::uint64_t>(p);
    default:
        return whereOf<std::uint32_t>(p);
    }
}

void moveAny(const PreparedCompute& p) {
    switch (ir::dtypeSize(p.call.inputs[0].dtype)) {
    case 1: return move<std::uint8_t>(p);
    case 2: return move<std::uint16_t>(p);
    case 8: return move<std::uint64_t>(p);
    default: return move<std::uint32_t>(p);
    }
}

const rt::View<float>* optionalInput(const PreparedCompute& p, std::size_t i, rt::View<float>& storage) {
    if (!p.call.hasInput(i)) return nullptr;
    storage = viewAs<float>(p.inputs[i]);
    return &storage;
}

rt::Window2d windowOf(const compiler::KernelCall& c) {
    rt::Window2d w;
    for (int d = 0; d < 2; ++d) {
        w.kernel[d] = c.window[static_cast<std::size_t>(d)];
        w.stride[d] = c.window[static_cast<std::size_t>(2 + d)];
        w.padBegin[d] = c.window[static_cast<std::size_t>(4 + d)];
        w.dilation[d] = c.window[static_cast<std::size_t>(6 + d)];
    }
    return w;
}

// The compute's own kernel; a convolution on oneDNN may run its epilogue's first steps as
// post-ops and says how many in `stepsDone`.
void runKernel(const PreparedCompute& p, Workspace& workspace, std::size_t& stepsDone) {
    const compiler::KernelCall& c = p.call;
    rt::View<float> extra;
    switch (c.kernel) {
    case Kernel::Map:
        return runMap(viewAs<float>(p.output), viewAs<float>(p.inputs[0]), c);
    case Kernel::Zip:
        if (c.outputBlock == compiler::kChannelsLast) // every operand in its memory order
            return runZip(rt::inMemoryOrder(viewAs<float>(p.output)),
                          rt::inMemoryOrder(viewAs<float>(p.inputs[0])),
                          rt::inMemoryOrder(viewAs<float>(p.inputs[1])), c);
        return runZip(viewAs<float>(p.output), viewAs<float>(p.inputs[0]),
                      viewAs<float>(p.inputs[1]), c);
    case Kernel::Conv2d: {
        const auto y = viewAs<float>(p.output), x = viewAs<float>(p.inputs[0]),
                   w = viewAs<float>(p.inputs[1]);
        const rt::View<float>* b = optionalInput(p, 2, extra);
        auto convolve = [&](const rt::View<float>& out, const rt::View<float>& in,
                            const rt::View<float>& weights, std::int64_t constantWeights) {
            if (!fewChannelConv(out, in, weights, b, c, workspace.depthwise) &&
                !dnnlConv(out, in, weights, b, c, constantWeights, workspace.dnnl, &p.epilogue,
                          &stepsDone) &&
                !fastConv(out, in, weights, b, c, workspace, &p.epilogue, &stepsDone))
                rt::conv2d(out, in, weights, b, windowOf(c), c.group);
        };
        if (!c.slicesChannels() && !c.accumulate)
            return pointwiseConv(p, workspace, stepsDone) ||
                           stridedPointwiseConv(p, workspace, stepsDone)
                       ? void()
                       : convolve(y, x, w, p.constantWeights);
        // One input-channel slice: the kernels see it as the whole input (never as the packed
        // whole weights), adding to y's partial sums after the first.
        const auto xs = rt::channelSlice(x), ws = rt::channelSlice(w);
        rt::accumulateInto(y, c.accumulate,
                           [&](const rt::View<float>& out) { convolve(out, xs, ws, -1); });
        return;
    }
    case Kernel::Pool2d: {
        const auto y = viewAs<float>(p.output), x = viewAs<float>(p.inputs[0]);
        if (!fastPool2d(y, x, windowOf(c), c.isMax, c.countPad, c.ints.data()))
            rt::pool2d(y, x, windowOf(c), c.isMax, c.countPad, c.ints.data());
        return;
    }
    case Kernel::GlobalPool:
        if (c.inputBlock == compiler::kChannelsLast)
            return globalPoolNhwc(viewAs<float>(p.output), viewAs<float>(p.inputs[0]), c.isMax);
        return globalPoolPlanes(viewAs<float>(p.output), viewAs<float>(p.inputs[0]), c.isMax);
    case Kernel::Gemm: {
        const auto y = viewAs<float>(p.output), a = viewAs<float>(p.inputs[0]),
                   b = viewAs<float>(p.inputs[1]);
        const rt::View<float>* bias = optionalInput(p, 2, extra);
        if (!fastGemm(y, a, b, bias, c)) rt::gemm(y, a, b, bias, c.transA, c.transB, c.params[0], c.params[1]);
        return;
    }
    case Kernel::MatMul: {
        const auto y = viewAs<float>(p.output), a = viewAs<float>(p.inputs[0]),
                   b = viewAs<float>(p.inputs[1]);
        if (!fastMatMul(y, a, b)) rt::matmul(y, a, b);
        return;
    }
    case Kernel::BatchNorm: {
        const auto y = viewAs<float>(p.output), x = viewAs<float>(p.inputs[0]),
                   scale = viewAs<float>(p.inputs[1]);
        const auto bias = viewAs<float>(p.inputs[2]), mean = viewAs<float>(p.inputs[3]),
                   var = viewAs<float>(p.inputs[4]);
        if (!fastBatchNorm(y, x, scale, bias, mean, var, c.params[0]))
            rt::batchNorm(y, x, scale, bias, mean, var, c.params[0]);
        return;
    }
    case Kernel::LayerNorm: {
        const auto y = viewAs<float>(p.output), x = viewAs<float>(p.inputs[0]),
                   scale = viewAs<float>(p.inputs[1]);
        const rt::View<float>* bias = optionalInput(p, 2, extra);
        const float epsilon = c.params[0];
        if (!fastLayerNorm(y, x, scale, bias, c.axis, epsilon)) rt::layerNorm(y, x, scale, bias, c.axis, epsilon);
        return;
    }
    case Kernel::Softmax: {
        const auto y = viewAs<float>(p.output), x = viewAs<float>(p.inputs[0]);
        if (!fastSoftmax(y, x, c.axis)) rt::softmax(y, x, c.axis);
        return;
    }
    case Kernel::Reduce: {
        const auto y = viewAs<float>(p.output), x = viewAs<float>(p.inputs[0]);
        const auto kind = static_cast<rt::Reduce>(c.reduce);
        if (!fastReduce(y, x, c.axesMask, c.keepDims, kind))
            rt::reduce(y, x, c.axesMask, c.keepDims, kind);
        return;
    }
    case Kernel::Pad:
        return runtime::padBoxes(viewAs<float>(p.output), viewAs<float>(p.inputs[0]), c.ints.data(),
                                 c.params[0]);
    case Kernel::Reshape:
    case Kernel::Transpose:
    case Kernel::Concat:
    case Kernel::Slice:
    case Kernel::Split:
        return moveAny(p);
    case Kernel::Gather: return gatherAny(p);
    case Kernel::Where:
        return whereAny(p);
    case Kernel::Resize:
        return runResize(*p.resize, viewAs<float>(p.output), viewAs<float>(p.inputs[0]));
    case Kernel::Reorder:
        return runReorder(p);
    case Kernel::Reference:
        if (fastEinsum(p))
            return;
        return runReference(p, workspace.reference);
    }
}

// The rest of a fused epilogue, in place on the output box while it is still in cache (on a
// blocked box too: a Map, or a Zip with a box of the same layout, ChooseLayouts.h).
void runSteps(const PreparedCompute& p, std::size_t stepsDone) {
    for (std::size_t i = stepsDone; i < p.epilogue.size(); ++i) {
        const PreparedCompute& step = p.epilogue[i];
        if (step.call.kernel == Kernel::Map)
            runMap(viewAs<float>(step.output), viewAs<float>(step.inputs[0]), step.call);
        else
            runZip(viewAs<float>(step.output), viewAs<float>(step.inputs[0]),
                   viewAs<float>(step.inputs[1]), step.call);
    }
}

// A convolution over channel-blocked boxes on oneDNN's direct kernel, reading and writing them
// as they are.
bool blockedDnnlConv(const PreparedCompute& p, Workspace& workspace, std::size_t& stepsDone) {
    const compiler::KernelCall& c = p.call;
    rt::View<float> extra;
    return !c.accumulate && !c.slicesChannels() &&
           dnnlConv(viewAs<float>(p.output), viewAs<float>(p.inputs[0]), viewAs<float>(p.inputs[1]),
                    optionalInput(p, 2, extra), c, p.constantWeights, workspace.dnnl, &p.epilogue,
                    &stepsDone, c.inputBlock, c.outputBlock);
}

} // namespace

void runCompute(const PreparedCompute& p, Workspace& workspace) {
    std::size_t stepsDone = 0;
    if (matrixVectorConv(p, stepsDone)) // either layout: one position is the same in both
        return runSteps(p, stepsDone);
    if (readsBlocked(p.call)) {
        if (blockedDnnlConv(p, workspace, stepsDone) || channelsLastConv(p, workspace, stepsDone))
            return runSteps(p, stepsDone);
        return rowMajorDuring(p, [&] {
            runKernel(p, workspace, stepsDone);
            runSteps(p, stepsDone);
        });
    }
    runKernel(p, workspace, stepsDone);
    runSteps(p, stepsDone);
}

} // namespace strata::runtime
