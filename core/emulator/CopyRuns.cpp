#include "emulator/CopyRuns.h"

#include "compiler/MergedCopy.h"
#include "compiler/emit/KernelCall.h"
#include "compiler/emit/cpp/strata_rt.h"
#include "ir/ConstantValues.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace strata::emulator {
namespace {

using Ints = std::vector<std::int64_t>;

bool sameElements(const std::string& type) {
    return type == "Reshape" || type == "Flatten" || type == "Squeeze" || type == "Unsqueeze" ||
           type == "Identity";
}

// The rank of `op`'s first input; 0 when unknown.
std::size_t inputRank(const ir::Op& op, const ir::Graph& graph) {
    if (op.inputs.empty() || !op.inputs[0].valid() || op.inputs[0].index >= graph.values.size())
        return 0;
    return graph.values[op.inputs[0].index].shape.size();
}

// A Transpose the runtime moves as one box (strata_rt's transposeBoxes): its last dim stays last,
// or its output rows are shorter than kShortGatheredRow, each element then a run of its own.
bool movesAsBox(const ir::Op& op, const ir::Graph& graph) {
    const std::size_t rank = inputRank(op, graph);
    const Ints perm = op.attrInts("perm");
    // No perm reverses the dims: the last moves unless there is one.
    if (perm.empty() ? rank == 1
                     : perm.size() == rank && perm.back() == static_cast<std::int64_t>(rank) - 1)
        return true;
    const ir::Value* y =
        op.outputs.empty() || !op.outputs[0].valid() || op.outputs[0].index >= graph.values.size()
            ? nullptr
            : &graph.values[op.outputs[0].index];
    return y && !y->shape.empty() && y->shape.back() > 0 &&
           y->shape.back() < strata_rt::kShortGatheredRow;
}

bool stepsKeepRows(const ir::Op& op, const ir::Graph& graph) {
    if (graph.opsetVersion < 10 || op.inputs.size() < 5 || !op.inputs[4].valid())
        return true;
    const auto steps = ir::constantInts(graph, op.inputs[4]);
    if (!steps)
        return false;
    const auto rank = static_cast<std::int64_t>(inputRank(op, graph));
    Ints axes;
    if (op.inputs.size() > 3 && op.inputs[3].valid()) {
        const auto given = ir::constantInts(graph, op.inputs[3]);
        if (!given)
            return false;
        axes = *given;
    } else {
        for (std::size_t i = 0; i < steps->size(); ++i)
            axes.push_back(static_cast<std::int64_t>(i));
    }
    if (axes.size() != steps->size())
        return false;
    for (std::size_t i = 0; i < axes.size(); ++i) {
        const std::int64_t axis = axes[i] < 0 ? axes[i] + rank : axes[i];
        if ((*steps)[i] <= 0 || (axis == rank - 1 && (*steps)[i] != 1))
            return false;
    }
    return true;
}

// Row-major strides of a box of extents `ext`.
Ints denseStrides(const Ints& ext) {
    Ints s(ext.size(), 1);
    for (std::size_t d = ext.size(); d-- > 1;)
        s[d - 1] = s[d] * ext[d];
    return s;
}

double runsOf(const Ints& ext, const Ints& dst, const Ints& src) {
    return double(compiler::copyRows(compiler::mergeCopyDims(ext, dst, src)));
}

std::int64_t count(const Ints& ext) {
    std::int64_t n = 1;
    for (std::int64_t e : ext)
        n *= e;
    return n;
}

// The runtime's view of a box: row-major over its extents (no data: only the index maths).
bool viewOf(const compiler::KernelView& k, strata_rt::View<float>& v) {
    if (k.ext.size() > static_cast<std::size_t>(strata_rt::kMaxRank) ||
        k.lo.size() != k.ext.size() || k.full.size() != k.ext.size())
        return false;
    v.rank = static_cast<int>(k.ext.size());
    const Ints strides = denseStrides(k.ext);
    for (std::size_t d = 0; d < k.ext.size(); ++d) {
        v.lo[d] = k.lo[d];
        v.ext[d] = k.ext[d];
        v.full[d] = k.full[d];
        v.stride[d] = strides[d];
    }
    return true;
}

// As strata_rt's reshapeBoxes: one sub-box move over the shapes' common factors, else one memcpy
// of a gapless run, else row by row of y's last dim in segments of x's.
double reshapeRuns(const compiler::KernelView& y, const compiler::KernelView& x) {
    if (y.ext.empty() || x.ext.empty())
        return 1;
    strata_rt::View<float> yv, xv;
    if (viewOf(y, yv) && viewOf(x, xv)) {
        strata_rt::ReshapePlan plan;
        if (strata_rt::planReshape(yv, xv, plan))
            return runsOf(Ints(plan.ext, plan.ext + plan.rank),
                          Ints(plan.dstStride, plan.dstStride + plan.rank),
                          Ints(plan.srcStride, plan.srcStride + plan.rank));
        std::int64_t yFirst = 0, xFirst = 0;
        if (strata_rt::flatRun(yv, yFirst) && strata_rt::flatRun(xv, xFirst) && yFirst >= xFirst &&
            yFirst + count(y.ext) <= xFirst + count(x.ext))
            return 1;
    }
    const double rows = double(count(y.ext)) / double(std::max<std::int64_t>(1, y.ext.back()));
    const std::int64_t xRow = std::max<std::int64_t>(1, x.ext.back());
    return rows * double((y.ext.back() + xRow - 1) / xRow);
}

} // namespace

bool isCopy(const ir::Op& op, const ir::Graph& graph) {
    if (op.type == "Concat" || op.type == "Split" || sameElements(op.type))
        return true;
    if (op.type == "Transpose")
        return movesAsBox(op, graph);
    if (op.type == "Slice")
        return stepsKeepRows(op, graph);
    return false;
}

double copyRuns(const compiler::Compute& compute, const ir::Op& op, const ir::Graph& graph) {
    if (!isCopy(op, graph))
        return 0;
    const auto call = compiler::lowerCompute(graph, op, compute);
    if (!call || call->outputs.empty())
        return 0;
    const compiler::KernelView& y = call->outputs.front();
    switch (call->kernel) {
    case compiler::Kernel::Reshape:
        return call->inputs.empty() ? 0 : reshapeRuns(y, call->inputs.front());
    case compiler::Kernel::Transpose: {
        if (call->inputs.empty() || call->ints.size() != y.ext.size())
            return 0;
        const Ints xs = denseStrides(call->inputs.front().ext);
        Ints src(y.ext.size());
        for (std::size_t d = 0; d < y.ext.size(); ++d)
            src[d] = xs[static_cast<std::size_t>(call->ints[d])];
        return runsOf(y.ext, denseStrides(y.ext), src);
    }
    case compiler::Kernel::Slice: {
        const std::size_t rank = y.ext.size();
        if (call->inputs.empty() || call->ints.size() != 2 * rank)
            return 0;
        Ints src = denseStrides(call->inputs.front().ext);
        for (std::size_t d = 0; d < rank; ++d)
            src[d] *= call->ints[rank + d];
        return runsOf(y.ext, denseStrides(y.ext), src);
    }
    case compiler::Kernel::Split: {
        if (call->inputs.empty())
            return 0;
        const Ints src = denseStrides(call->inputs.front().ext);
        double runs = 0;
        for (const compiler::KernelView& out : call->outputs)
            if (out.present && out.ext.size() == src.size())
                runs += runsOf(out.ext, denseStrides(out.ext), src);
        return runs;
    }
    case compiler::Kernel::Concat: {
        const auto axis = static_cast<std::size_t>(call->axis);
        if (axis >= y.ext.size())
            return 0;
        double runs = 0;
        std::int64_t base = 0;
        for (const compiler::KernelView& x : call->inputs) {
            if (x.full.size() != y.ext.size())
                return 0;
            const std::int64_t lo = std::max(y.lo[axis], base);
            const std::int64_t hi = std::min(y.lo[axis] + y.ext[axis], base + x.full[axis]);
            base += x.full[axis];
            if (lo >= hi || x.ext.size() != y.ext.size())
                continue;
            Ints ext = y.ext;
            ext[axis] = hi - lo;
            runs += runsOf(ext, denseStrides(y.ext), denseStrides(x.ext));
        }
        return runs;
    }
    default:
        return 0;
    }
}

} // namespace strata::emulator
