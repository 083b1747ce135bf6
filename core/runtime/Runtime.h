#pragma once
// The host runtime (docs/RUNTIME.md): runs a program compiled for a host-like target for real on
// this computer and times every instruction, so "measured" timelines have the same schema and
// event ids as the emulator's predictions. Main memory is one byte buffer, every core a scratch
// buffer and a worker thread that issues its stream in order; transfers are strided copies done
// by the issuing core's thread (synchronous: the `wait` that follows is near-instant), computes
// run the kernels the C++ emitter lowers each op to, barriers are a reusable SpinBarrier
// (spinning briefly before blocking).

#include "base/Expected.h"
#include "compiler/Program.h"
#include "emulator/ProgramCheck.h"
#include "ir/Graph.h"
#include "reference/Tensor.h"
#include "target/Target.h"
#include "trace/Trace.h"

#include <vector>

namespace strata::runtime {

class CacheChurn;
struct Memories;

struct RunOptions {
    int repeat = 1;          // the trace and outputs are those of the repeat with the median total
    // Passes run before the repeats and dropped (their times, trace and outputs): the first
    // touches of the program's buffers, its kernels' set-up. The outputs' eviction and the churn
    // below precede the repeats only.
    int warmUps = 0;
    bool timestamps = true;  // per-instruction timestamps (off: only totals; to measure overhead)
    // Before every repeat, the graph outputs' lines are dropped from the caches (evictFromCaches):
    // a one-op program then stores its output, as a model stores an activation, into lines no
    // core has touched for a while, not into lines the driver has just read the last pass's
    // outputs from (calibration, docs/CALIBRATION.md).
    bool coldOutputs = false;
    // Before every repeat each core writes a buffer as large as its caches (CacheChurn.h), so the
    // pass finds them full of other work's dirty lines, as a model's op does (calibration). Not
    // owned; null: nothing written.
    CacheChurn* churn = nullptr;
    // Off: the graph outputs are not read back (RunResult::outputs stays empty), for a caller
    // that wants only the times; copying them out after every pass took 4% of a calibration.
    bool readOutputs = true;
    // Main memory and the scratch buffers from the caller, kept from one run to the next (grown
    // where a program needs more), so that a run's first pass does not fault fresh pages in: one
    // of calibration's few-byte transfer programs spans MiBs of main memory, each 2 MiB of it a
    // huge page zeroed on first touch. Their bytes are what the last run left. Not owned; null:
    // the run's own, freed after it.
    Memories* memories = nullptr;
};

struct RunResult {
    trace::Trace trace;                       // source Measured, events[i] is instruction i (same ids as the program and the emulator)
    std::vector<double> totalsNs;             // one per repeat
    std::vector<reference::Tensor> outputs;   // the graph outputs, in graph order (if read)
};

// Runs a program compiled for a host-like target (main memory + one working memory per core):
// main memory is one byte buffer of program.dramBytes (inputs and weights copied to their
// DramBuffer offsets), every core has a scratch buffer of the target's working-memory capacity
// and its own worker thread. `graph` may be empty and `inputs` empty for programs without
// computes (emulator::microbenchProgram). Fails, before running anything, on a program that does
// not fit the target, graph or buffers (unknown path or memory, an access out of bounds, a wait
// on a tag never issued, an op without a kernel) and on inputs of the wrong count, dtype or shape.
Expected<RunResult> run(const compiler::Program& program, const target::Target& target, const ir::Graph& graph,
                        const std::vector<reference::Tensor>& inputs, const RunOptions& options = {});

// The same, with the program's check already done (emulator::checkProgram's result without
// errors for this program, target and graph): a caller that also emulates the program checks it
// once (flow/Flow.h).
Expected<RunResult> run(const compiler::Program& program, const emulator::CheckedProgram& checked,
                        const target::Target& target, const ir::Graph& graph,
                        const std::vector<reference::Tensor>& inputs, const RunOptions& options = {});

} // namespace strata::runtime
