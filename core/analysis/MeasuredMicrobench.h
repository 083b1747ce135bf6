#pragma once
// Seed 004's transfer experiment run for real on this computer: the same programs the emulator
// times (emulator/Microbench.h), each run by the host runtime `repeat` times, throughput = bytes
// over the median total. Rows line up with the emulated result's rows, size by size.

#include "base/Expected.h"
#include "emulator/Microbench.h"
#include "target/Target.h"

#include <functional>

namespace strata::analysis {

// `proceed()` is asked before each size; when it says no the rows measured so far are returned.
// Errors: a target other than the host (or a calibrated host), kinds that are not its paths, a
// program the runtime cannot run.
Expected<emulator::MicrobenchResult> measureMicrobench(const target::Target& host, const emulator::MicrobenchSpec& spec,
                                                       int repeat, const std::function<bool()>& proceed = {});

} // namespace strata::analysis
