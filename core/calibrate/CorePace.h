#pragma once
// Whether the machine's cores ran at one pace while calibration measured. On a virtual machine
// another tenant can take part of one CPU for minutes: on the development host, in stretches of
// the zoo rounds, core 1 took 1.25-1.6x core 0's time for the same transfers and 1.05-1.1x for
// the same computes (docs/ACCURACY.md, "One core slower than the other"). /proc shows none of it
// (no steal time, no other process) and a median over rounds keeps it (the spell outlasts
// them). The probe: every core copies the same bytes from main memory at once, and the cores'
// median copy times are compared. (`accuracy` compares each core's measured work with its
// prediction instead, trace::AccuracyReport::corePace: run between a large model's programs the
// probe scattered by up to 30% from round to round on a quiet machine.)

#include "base/Expected.h"
#include "compiler/Program.h"
#include "target/Target.h"
#include "trace/Trace.h"

#include <optional>
#include <string>
#include <vector>

namespace strata::calibrate {

struct CorePace {
    std::vector<double> cycles; // per core: the median of its probe transfers' durations
    // The slowest core's time over the fastest's, minus 1 (0 with one core).
    double spread() const;
    int slowest() const;
    int fastest() const;
};

// Above this spread the cores did not run at one pace. Quiet, the probe's median over
// calibration's rounds came out 0.02 (two calibrations); no calibration has yet run while a core
// was slowed, so this is a margin above that, not a fitted figure (docs/CALIBRATION.md).
inline constexpr double kUnevenCoresSpread = 0.10;

// The probe program: every core of `host` moves kPaceProbeBytes from main memory at once,
// kPaceProbeTransfers times. Errors: a host without a path from main memory.
inline constexpr std::uint64_t kPaceProbeBytes = 256 * 1024;
inline constexpr int kPaceProbeTransfers = 16;
Expected<compiler::Program> paceProbeProgram(const target::Target& host);

// The pace read from a run of paceProbeProgram (its priming not counted), in cycles of
// `clockHz`; nullopt when a core has no measured transfer.
std::optional<CorePace> paceOf(const compiler::Program& probe, const trace::Trace& measured,
                               double clockHz);

// Builds and runs the probe on this machine. Errors: the program cannot be built or run.
Expected<CorePace> measureCorePace(const target::Target& host);

// The median over several probes of each core's time (a probe caught by one preemption does not
// decide); empty input gives no cores.
CorePace medianPace(const std::vector<CorePace>& probes);

// What to tell a user when `pace` is above kUnevenCoresSpread while `what` was measured ("this
// model's runs", "calibration"), ending with `consequence`; empty otherwise.
std::string unevenCoresWarning(const CorePace& pace, std::string_view what,
                               std::string_view consequence);

} // namespace strata::calibrate
