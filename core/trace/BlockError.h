#pragma once
// How far a prediction is off, block by block: each block's span in a predicted run against its
// span in a measured one (TraceSummary's block time), relative to the measured figure, so +0.2
// means the prediction is 20% too slow. The one definition behind compare, the accuracy report,
// the Transfers tab's bars and the graph's prediction-error heat.

#include "trace/TraceSummary.h"

#include <cstdint>
#include <vector>

namespace strata::trace {

// (predicted - measured) / measured; 0 when the measured figure is not above 0.
double relativeError(double predicted, double measured);

struct BlockError {
    int block = 0;
    std::int64_t predictedPs = 0; // the block's span in each run
    std::int64_t measuredPs = 0;
    double error = 0; // relativeError of the spans
};

// The blocks present in both summaries, by block id.
std::vector<BlockError> blockErrors(const TraceSummary& predicted, const TraceSummary& measured);

} // namespace strata::trace
