#pragma once
// One emulation of one schedule revision: what the EmulateController hands to the views after
// each edit (block badges, schedule table, totals, the Timeline tab). Immutable once made; it is
// shared between the views as std::shared_ptr<const EmulationRun>.

#include "compiler/Program.h"
#include "ir/Graph.h"
#include "trace/Trace.h"

#include <QString>
#include <cstdint>
#include <memory>

namespace strata::gui {

struct EmulationRun {
    std::uint64_t revision = 0;                       // the ScheduleDocument revision emulated
    std::shared_ptr<const ir::Graph> graph;           // the graph the program was compiled from
    std::shared_ptr<const compiler::Program> program; // the compiled program that was emulated
    trace::Trace trace;                               // the predicted timeline (Source::Emulated)
    QString targetName;                               // the target's preset name or file path
};

} // namespace strata::gui
