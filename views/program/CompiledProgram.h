#pragma once
// One compile of one schedule revision as the views show it: immutable, shared with the job
// that made it. The graph is the one the program's provenance refers to.

#include "compiler/Pipeline.h"
#include "ir/Graph.h"

#include <QString>
#include <cstdint>
#include <memory>

namespace strata::views::program {

struct CompiledProgram {
    std::uint64_t revision = 0; // the schedule revision compiled
    std::shared_ptr<const ir::Graph> graph;
    std::shared_ptr<const compiler::CompileResult> result;
    QString targetName;
    std::int64_t elapsedMs = 0; // wall time of the whole job: schedule check and passes

    bool isValid() const { return graph && result; }
    // The program, sharing ownership with the result.
    std::shared_ptr<const compiler::Program> program() const {
        return result ? std::shared_ptr<const compiler::Program>(result, &result->program)
                      : nullptr;
    }
};

} // namespace strata::views::program
