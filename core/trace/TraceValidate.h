#pragma once
// Checking a timeline before it is trusted: a trace imported from another tool or measured on
// other hardware may name instructions the program does not have, time an event backwards, put
// two events on one core's stream at once, or end mid-file. Each problem is a diagnostic naming
// the event (its id as the assembly writes it, i000123, and its CSV line when known).
//
// The program is described by the instructions' ids, kinds, cores and paths; an emulated trace
// of it has exactly one event per instruction, so instructionsOf(emulated) is that description.

#include "base/Expected.h"
#include "trace/Trace.h"
#include "trace/TraceJson.h"

#include <cstddef>
#include <string>
#include <vector>

namespace strata::trace {

struct InstructionRef {
    std::uint32_t id = 0;
    EventKind kind = EventKind::Compute;
    std::uint32_t core = 0;
    std::string path;               // transfers only
};

// One entry per event of a trace that times every instruction once (an emulated trace).
std::vector<InstructionRef> instructionsOf(const Trace& complete);

struct ValidateOptions {
    const std::vector<InstructionRef>* program = nullptr; // check ids, kinds, cores and paths against it
    const std::vector<std::size_t>* lines = nullptr;      // per event, its line in the file (CSV)
    std::string file;                                     // labels the diagnostics
};

inline constexpr std::size_t kMaxValidateErrors = 20;

// Errors: an event ending before it starts, an id timed twice, an id not in the program, an
// event whose kind, core or path differ from its instruction's, two compute/wait/barrier events
// overlapping on one core's stream (transfers run asynchronously and may overlap anything).
// Warning: instructions of the program without an event. At most kMaxValidateErrors errors,
// then a note.
std::vector<Diagnostic> validateTrace(const Trace& trace, const ValidateOptions& options = {});

// Loads a trace file — Chrome trace JSON, or CSV when the name ends in .csv — and validates it
// (against `program` when given). Load errors and validation errors alike fail it; warnings are
// kept in LoadedTrace::warnings.
Expected<LoadedTrace> importTrace(const std::string& path, const std::vector<InstructionRef>* program = nullptr);

// "i000123", as the assembly names instructions.
std::string instructionName(std::uint32_t id);

} // namespace strata::trace
