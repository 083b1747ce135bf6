#pragma once
// How much of each transfer ran beside another core's: what calibration's samples and the
// accuracy report's per-event files record, so contention can be read off a timeline.

#include "trace/Trace.h"

#include <vector>

namespace strata::trace {

// Per event of `timeline`: for a transfer, the share of its time (0..1) during which a transfer
// of another core was running too; 0 for other events.
std::vector<double> concurrentTransferShares(const Trace& timeline);

} // namespace strata::trace
