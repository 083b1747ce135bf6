#pragma once
// The compiler pipeline: the passes as data, in order, each recorded after it runs (the time it
// took and a text dump of what it produced) for --dump-after and the GUI's pipeline view.

#include "base/Expected.h"
#include "compiler/CompileCache.h"
#include "compiler/CompileState.h"

#include <functional>
#include <string>
#include <vector>

namespace strata::compiler {

struct Pass {
    std::string name;                                 // "tile-blocks", ...
    std::string summary;                              // one line
    std::function<void(CompileState&)> run;
    std::function<std::string(const CompileState&)> dump;
};

// tile-blocks, plan-dram, distribute-tiles, insert-transfers, verify.
const std::vector<Pass>& passes();

struct PassRecord {
    std::string name;
    double milliseconds = 0;
    std::string dump;                                 // filled for the passes asked for
};

struct CompileOptions {
    std::vector<std::string> dumpAfter;               // pass names; "all" for every pass
    // Asked before each step (0: the schedule check, then 1.. for each pass, with its name);
    // false stops the compile with a "compile cancelled" error. For progress and cancel.
    std::function<bool(int step, const std::string& name)> proceed;
    // Kept by a caller that compiles the same graph for the same target again and again (the
    // GUI after each edit): unchanged blocks are neither analysed nor tiled again. Ignored when
    // made for another graph or target.
    CompileCache* cache = nullptr;
};

struct CompileResult {
    Program program;
    std::vector<PassRecord> passes;
    std::vector<Diagnostic> warnings;
};

// Runs every pass on a schedule that validate() accepts; stops at the first pass with errors.
// Steps: the schedule check, then each pass (so steps = passes().size() + 1).
Expected<CompileResult> compile(const ir::Graph& graph, const target::Target& target,
                                const schedule::Schedule& schedule, const CompileOptions& options = {});

} // namespace strata::compiler
