#pragma once
// One emulation of one schedule revision: what the EmulateController hands to the views after
// each edit (block badges, schedule table, totals, the Timeline tab). Immutable once made; it is
// shared between the views as std::shared_ptr<const EmulationRun>.

#include "compiler/Pipeline.h"
#include "compiler/Program.h"
#include "document/Revision.h"
#include "ir/Graph.h"
#include "trace/Trace.h"

#include <QString>
#include <cstdint>
#include <memory>

namespace strata::gui {

struct EmulationRun {
    // The revision emulated: numbered 0 for a search candidate, null for a saved run of a
    // schedule no longer open.
    RevisionPtr revision;
    std::shared_ptr<const ir::Graph> graph;           // the graph the program was compiled from
    std::shared_ptr<const compiler::Program> program; // the compiled program that was emulated
    trace::Trace trace;                               // the predicted timeline (Source::Emulated)
    QString targetName;                               // the target's preset name or file path
    // The whole compile `program` is part of (without pass dumps), when the run made it: the
    // Program tab shows it when nothing newer was compiled.
    std::shared_ptr<const compiler::CompileResult> compiled;
};

} // namespace strata::gui
