#pragma once
// How much later than the average core the last core reaches a barrier, on the host: cores given
// equal work do not finish together (each core's pace wanders, interrupts land on one), and the
// block lasts until the last one does. Measured on the zoo's two-core schedules, the faster core
// waited 8-15% of a 10 us block and 1-3% of a multi-millisecond one (docs/ACCURACY.md, "Cores
// finishing apart"). The emulator adds the expected lateness to every barrier of cores that all
// worked (target::JoinSkew), fitted here on the calibration's own compiled programs.

#include "compiler/Program.h"
#include "target/Target.h"
#include "trace/Trace.h"

#include <cstdint>
#include <vector>

namespace strata::calibrate {

// One barrier of a run where at least two cores worked since the previous barrier.
struct JoinSample {
    std::int32_t barrier = 0; // its number in the program (compiler::Barrier::id)
    double workCycles = 0;    // the working cores' mean arrival minus the block's start
    double skewCycles = 0;    // the last working core's arrival minus that mean
};

// Appends `trace`'s barriers (of `program`, run at `clockHz`) with two or more working cores to
// `samples`. A block starts at the previous barrier's release (the first at the run's first
// event); a core worked in it when it has an event other than the barrier in between.
void collectJoinSamples(const compiler::Program& program, const trace::Trace& trace, double clockHz,
                        std::vector<JoinSample>& samples);

// The measured skews of `measured` (one program's runs) beyond what the emulator already gives
// that barrier in `emulated` (the program's emulated run, its own work split unevenly over the
// cores), appended to `excess`; barriers the emulated run lacks are left out.
void appendExcessSkews(const std::vector<JoinSample>& measured,
                       const std::vector<JoinSample>& emulated, std::vector<JoinSample>& excess);

inline constexpr std::size_t kMinJoinsPerBin = 8;

// skew = coefficient * work^exponent (cycles), fitted in log space over the medians of factor-2
// bins of work, each bin of kMinJoinsPerBin samples or more and weighted by its samples; at least
// three bins spanning a factor of 8. The exponent is kept within [0.25, 1]. None (coefficient 0)
// with fewer.
target::JoinSkew fitJoinSkew(const std::vector<JoinSample>& samples);

} // namespace strata::calibrate
