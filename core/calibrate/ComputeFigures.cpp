#include "calibrate/ComputeFigures.h"

#include "ir/OpClass.h"

#include <algorithm>

namespace strata::calibrate {

void writeComputeFigures(const ComputeFit& fit, target::Target& target) {
    for (std::size_t c = 0; c < kOpClasses; ++c)
        if (fit.samples[c])
            target.throughput.perCycle[c] = fit.throughputPerCycle[c];
    if (fit.samples[kDepthwiseConvClass])
        target.throughput.depthwiseConvPerCycle =
            fit.throughputPerCycle[kDepthwiseConvClass];
    if (fit.samples[kPointwiseConvClass])
        target.throughput.pointwiseConvPerCycle =
            fit.throughputPerCycle[kPointwiseConvClass];
    if (fit.samples[kTranscendentalClass])
        target.throughput.transcendentalPerCycle =
            fit.throughputPerCycle[kTranscendentalClass];
    if (fit.samples[kSigmoidClass])
        target.throughput.sigmoidPerCycle = fit.throughputPerCycle[kSigmoidClass];
    if (fit.samples[kLayerNormClass])
        target.throughput.layerNormPerCycle = fit.throughputPerCycle[kLayerNormClass];
    target.overheads.convOutputCycles = std::max(fit.unitCycles[kConvClass],
                                            fit.unitCycles[kPointwiseConvClass]);
    if (fit.samples[kResizeClass])
        target.throughput.resizePerCycle = fit.throughputPerCycle[kResizeClass];
    if (fit.samples[kGatherClass])
        target.throughput.gatherPerCycle = fit.throughputPerCycle[kGatherClass];
    if (fit.samples[kGlobalPoolClass])
        target.throughput.globalPoolPerCycle = fit.throughputPerCycle[kGlobalPoolClass];
    if (fit.samples[kCopyClass])
        target.throughput.copyPerCycle = fit.throughputPerCycle[kCopyClass];
    if (fit.samples[kGroupedConvClass])
        target.throughput.groupedConvPerCycle =
            fit.throughputPerCycle[kGroupedConvClass];
    target.overheads.depthwiseRowCycles = fit.unitCycles[kDepthwiseConvClass];
    target.overheads.groupedConvElementCycles = fit.unitCycles[kGroupedConvClass];
    target.overheads.reductionOutputCycles = fit.unitCycles[kReductionClass];
    target.overheads.matmulProductCycles = fit.unitCycles[kMatMulClass];
    target.overheads.resizeRowCycles = fit.unitCycles[kResizeClass];
    target.overheads.copyRunCycles = fit.unitCycles[kCopyClass];
    target.overheads.weightByteCycles = fit.weightByteCycles;
    target.overheads.convFarWeightByteCycles = fit.farWeightByteCycles[kConvClass];
    target.overheads.matmulFarWeightByteCycles =
        fit.farWeightByteCycles[std::size_t(ir::OpClass::MatMul)];
}

std::string computeClassName(std::size_t fitClass) {
    if (fitClass == kDepthwiseConvClass)
        return "depthwise_conv";
    if (fitClass == kPointwiseConvClass)
        return "pointwise_conv";
    if (fitClass == kTranscendentalClass)
        return "transcendental";
    if (fitClass == kLayerNormClass)
        return "layer_norm";
    if (fitClass == kResizeClass)
        return "resize";
    if (fitClass == kGatherClass)
        return "gather";
    if (fitClass == kGlobalPoolClass)
        return "global_pool";
    if (fitClass == kCopyClass)
        return "copy";
    if (fitClass == kGroupedConvClass)
        return "grouped_conv";
    if (fitClass == kSigmoidClass)
        return "sigmoid";
    return std::string(ir::opClassName(static_cast<ir::OpClass>(fitClass)));
}

} // namespace strata::calibrate
