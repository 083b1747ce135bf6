#pragma once
// One measured compute as a sample of the compute fit (Fit.h): its fit class, and its work, cost
// units and weight bytes counted exactly as the emulator counts them when it prices the same
// compute (emulator/ComputeCost.h, emulator/ConvTaps.h), so fitted figures mean what they price.

#include "calibrate/Fit.h"
#include "compiler/Program.h"
#include "ir/Graph.h"

namespace strata::calibrate {

// `cycles`: the compute's measured duration; `channelGranule`: the target's vector width in
// channels (padded lanes); `privateCacheBytes`: the core's private cache (far weight bytes).
ComputeSample computeSample(const compiler::Compute& compute, const ir::Op& op,
                            const ir::Graph& graph, int channelGranule,
                            std::uint64_t privateCacheBytes, double cycles);

} // namespace strata::calibrate
