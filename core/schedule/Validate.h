#pragma once
// validate(): is a schedule one the compiler can build for this graph and target?

#include "base/Diagnostic.h"
#include "schedule/Analysis.h"
#include "schedule/Schedule.h"
#include "target/Target.h"

#include <vector>

namespace strata::schedule {

struct ScheduleCheck {
    std::vector<Diagnostic> diagnostics;
    ScheduleAnalysis analysis;          // filled when the structure is sound
    bool valid() const { return !hasErrors(diagnostics); }
};

// Every op in exactly one block; blocks non-empty with unique ids; blocks convex (no path
// leaves a block and re-enters it); the block order a topological order of the block graph;
// mp within the target; buffering 1 or 2; the model hash matching; each block's tile valid
// and its SRAM working set within the target's working memory. Each diagnostic names its
// block and op. The per-block analysis comes along, so callers do not tile twice.
// `cache` as in analyzeSchedule().
ScheduleCheck checkSchedule(const Schedule& schedule, const ir::Graph& graph, const target::Target& target,
                            AnalysisCache* cache = nullptr);

std::vector<Diagnostic> validate(const Schedule& schedule, const ir::Graph& graph,
                                 const target::Target& target);

} // namespace strata::schedule
