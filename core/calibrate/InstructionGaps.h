#pragma once
// The time between one instruction and the next on a core of a measured run: the per-instruction
// cost of the runtime's loop and timestamps, which the emulator charges as overheads
// (calibration's `gap_ns`, added to the compute, wait, barrier and issue overheads).

#include "trace/Trace.h"

#include <vector>

namespace strata::calibrate {

// Appends, per core of `trace`, each event's start minus the previous event's end (in ns, at
// least 0; events in start order) to `gapsNs`.
void collectGaps(const trace::Trace& trace, std::vector<double>& gapsNs);

} // namespace strata::calibrate
