#include "calibrate/ComputeSamples.h"

#include "emulator/ComputeCost.h"
#include "emulator/ConvTaps.h"
#include "emulator/CopyRuns.h"
#include "tiling/Region.h"

#include <algorithm>

namespace strata::calibrate {
namespace {

// A compute's count of its class's cost unit (Fit.h's kUnitGroups): output rows for a depthwise
// conv, output elements for a dense or pointwise one and for a reduction, input and output plane
// elements for a grouped one (its MACs over the MACs per element, as the emulator counts them),
// matrix pairs for a
// batched matrix product (likewise), output rows for a resize, contiguous runs for a box move
// (emulator::copyRuns); 0 for other classes.
double costUnits(const compiler::Compute& compute, std::size_t fitClass, const ir::Op& op,
                 const ir::Graph& graph) {
    if (fitClass == kGroupedConvClass) {
        const double macsPerElement = emulator::groupedConvMacsPerElement(op, graph);
        return macsPerElement > 0 ? emulator::computeWork(compute, op.opClass) / macsPerElement : 0;
    }
    if (fitClass == kResizeClass) {
        const double perRow = emulator::resizeOutputsPerRow(op, graph);
        return perRow > 0 ? emulator::computeWork(compute, op.opClass) / perRow : 0;
    }
    if (fitClass == kCopyClass)
        return emulator::copyRuns(compute, op, graph);
    if (fitClass == kMatMulClass) {
        const double macsPerProduct = emulator::matmulMacsPerProduct(op, graph);
        return macsPerProduct > 0 ? emulator::computeWork(compute, op.opClass) / macsPerProduct : 0;
    }
    if (fitClass != kConvClass && fitClass != kPointwiseConvClass &&
        fitClass != kDepthwiseConvClass && fitClass != kReductionClass)
        return 0;
    double units = 0;
    for (const compiler::Operand& out : compute.outputs) {
        double elements = double(tiling::regionElements(out.region));
        if (fitClass == kDepthwiseConvClass && !out.region.empty())
            elements /= double(std::max<std::int64_t>(1, out.region.back().size()));
        units += elements;
    }
    return units;
}

std::size_t fitClassOf(const ir::Op& op, const ir::Graph& graph) {
    return emulator::isDepthwiseConv(op, graph)   ? kDepthwiseConvClass
           : emulator::isGroupedConv(op, graph)   ? kGroupedConvClass
           : emulator::isPointwiseConv(op, graph) ? kPointwiseConvClass
           : emulator::isSigmoid(op)              ? kSigmoidClass
           : emulator::isTranscendental(op)       ? kTranscendentalClass
           : emulator::isLayerNorm(op)            ? kLayerNormClass
           : emulator::isResize(op)               ? kResizeClass
           : emulator::isGather(op)               ? kGatherClass
           : emulator::isGlobalPool(op)           ? kGlobalPoolClass
           : emulator::isCopy(op, graph)          ? kCopyClass
                                                  : static_cast<std::size_t>(op.opClass);
}

} // namespace

ComputeSample computeSample(const compiler::Compute& compute, const ir::Op& op,
                            const ir::Graph& graph, int channelGranule,
                            std::uint64_t privateCacheBytes, double cycles) {
    // A global pool's figure counts elements read (computeWork counts its outputs). Padded lanes
    // and padding taps counted as the emulator charges them.
    const double work =
        emulator::isGlobalPool(op) ? emulator::elementsRead(compute)
        : emulator::isResize(op)
            ? emulator::computeWork(compute, op.opClass) * emulator::resizeTapsPerOutput(op, graph)
        : emulator::isLayerNorm(op) ? emulator::layerNormWork(compute)
                                    : emulator::computeWork(compute, op.opClass) *
                                          emulator::paddedLaneFactor(compute, op, channelGranule) *
                                          emulator::inBoundsTapShare(compute, op, graph);
    const std::size_t fitClass = fitClassOf(op, graph);
    return {fitClass,
            work,
            cycles,
            costUnits(compute, fitClass, op, graph),
            emulator::weightBytesRead(compute, op, graph),
            emulator::farWeightBytes(compute, op, graph, privateCacheBytes)};
}

} // namespace strata::calibrate
