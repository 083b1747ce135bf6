#pragma once
// The emulator: predicts the timeline of a compiled program on a target (docs/EMULATOR.md).
// A discrete-event simulation: every core issues its stream in order; computes, waits and
// barriers cost the target's fixed overheads (computes also their work at the op class's
// throughput); transfers run asynchronously with a latency part and a throughput part, and
// concurrent transfers share the bandwidth of the resources they occupy (max-min fair, rates
// recomputed at every start and end). Contention comes from the target file only.
// Deterministic: the same program, target and graph always give the same trace.

#include "base/Expected.h"
#include "compiler/Program.h"
#include "emulator/ProgramCheck.h"
#include "ir/Graph.h"
#include "target/Target.h"
#include "trace/Trace.h"

#include <cstdint>
#include <vector>

namespace strata::emulator {

struct EmulateOptions {
    bool counters = true;         // path bandwidth and SRAM occupancy over time
    // When set: the numbers of the barriers at which the clock restarted (below), ascending.
    std::vector<std::uint32_t>* restarts = nullptr;
    // The machine's compute speed against the target's figures (above 1: faster): every compute
    // takes its priced cycles over it, transfers keep theirs. `accuracy` takes out a change of
    // the machine's speed since calibrating with it (calibrate/MachineSpeed.h).
    double computeSpeed = 1;
};

// At a barrier that every core has reached with no transfer in flight, nothing after it can
// depend on what came before but through the barrier's release time: the simulation restarts
// its clock there and rounds the times after it from that release. So the stretch between two
// such barriers takes the same picoseconds wherever it sits in a program, and a program's total
// is the sum of its stretches' (the search reuses them: search/Evaluation.h).

// The emulated trace: one event per instruction (events[i] is instruction i), counters, and the
// header (target, clock, model). `graph` is the one the program was compiled from (op classes,
// op names, operand dtypes). Errors: a program that does not fit the target or graph (unknown
// path, a wait on a tag its core never issued, barriers that do not match across cores) or that
// deadlocks.
Expected<trace::Trace> emulate(const compiler::Program& program, const target::Target& target, const ir::Graph& graph,
                               const EmulateOptions& options = {});

// The same, with the program's check already done (checkProgram's result without errors for
// this program, target and graph): a caller that also runs the program checks it once
// (flow/Flow.h).
Expected<trace::Trace> emulate(const compiler::Program& program, const CheckedProgram& checked,
                               const target::Target& target, const ir::Graph& graph,
                               const EmulateOptions& options = {});

} // namespace strata::emulator
