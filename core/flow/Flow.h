#pragma once
// The one route from a schedule to its timelines (docs/FLOW.md): compile, check the program once,
// emulate and summarise (predict); then run it on this computer and summarise (measure). The
// CLI's commands, calibration, search's --measure and the GUI's jobs call these plain functions
// instead of writing the route out again, so every front end predicts and measures alike and a
// program is checked once however many stages read it.

#include "base/Diagnostic.h"
#include "base/Expected.h"
#include "compiler/CompileCache.h"
#include "compiler/Pipeline.h"
#include "emulator/ProgramCheck.h"
#include "ir/Graph.h"
#include "reference/Tensor.h"
#include "runtime/Runtime.h"
#include "schedule/Schedule.h"
#include "target/Target.h"
#include "trace/BlockError.h"
#include "trace/Trace.h"
#include "trace/TraceSummary.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string_view>
#include <vector>

namespace strata::flow {

// The stages in order; a flow stops at the first that fails or is cancelled.
enum class Stage : std::uint8_t { Compile, Emulate, Run };

// "compile", "emulate", "run".
std::string_view stageName(Stage stage);

// One revision of a document: the graph, the target and the schedule to compile for it. The
// caller keeps them alive for the call; the result owns what it holds.
struct Revision {
    const ir::Graph& graph;
    const target::Target& target;
    const schedule::Schedule& schedule;
};

// Asked before each compiler step (Stage::Compile), before emulating and before running; false
// stops the flow there and the result is `cancelled`. Called on the flow's thread.
using Proceed = std::function<bool(Stage stage)>;

// emulator::checkProgram's signature: what reads a compiled program before emulating or running
// it. Tests inject one to count the checks.
using CheckProgram = std::function<emulator::CheckedProgram(
    const compiler::Program&, const target::Target&, const ir::Graph&, std::vector<Diagnostic>&)>;

struct Options {
    compiler::CompileCache* cache = nullptr; // compiler::CompileOptions::cache
    Proceed proceed;                         // empty: never stops
    CheckProgram check;                      // empty: emulator::checkProgram
    // measure() only: false runs without emulating (`run`, calibration: what the emulator is to
    // learn is measured, not predicted).
    bool predict = true;
    runtime::RunOptions run; // measure() only
};

// What a flow produced, stage by stage: a stage's fields are set once it succeeded.
struct Result {
    std::optional<compiler::CompileResult> compiled; // the program, its passes and warnings
    std::optional<emulator::CheckedProgram> checked; // the program's one check
    std::optional<trace::Trace> predicted;           // the emulated timeline
    trace::TraceSummary predictedSummary;
    std::optional<runtime::RunResult> measured; // the median repeat's timeline, totals, outputs
    trace::TraceSummary measuredSummary;
    std::vector<trace::BlockError> blockErrors; // measured after predicting: per block, by id
    Stage stage = Stage::Compile; // the last stage begun: the one that failed or was cancelled
    bool cancelled = false;
    std::vector<Diagnostic> diagnostics; // why the flow stopped; empty when it went through
    // Wall time per stage; checking counts in the first stage that reads the program.
    double compileMs = 0;
    double emulateMs = 0;
    double runMs = 0;

    bool ok() const { return !cancelled && !hasErrors(diagnostics); }
    // Once compiled.
    const compiler::Program& program() const { return compiled->program; }
};

// Compiles `revision` and checks its program: for a caller that runs one program many times
// (run() below). A check's errors come at Stage::Compile.
Result compile(const Revision& revision, const Options& options = {});

// Compiles, checks, emulates and summarises the prediction.
Result predict(const Revision& revision, const Options& options = {});

// predict() (or, with options.predict false, compile and check), then runs the program on this
// computer with `inputs` (the graph inputs, in order) and summarises the measured timeline. The
// target must be host-like (runtime/Runtime.h).
Result measure(const Revision& revision, const std::vector<reference::Tensor>& inputs,
               const Options& options = {});

// Runs the checked program of `result` (a flow of `revision` that got past its check) once more
// without checking it again: runs that alternate between programs (accuracy, search --measure).
Expected<runtime::RunResult> run(const Result& result, const Revision& revision,
                                 const std::vector<reference::Tensor>& inputs,
                                 const runtime::RunOptions& options = {});

} // namespace strata::flow
