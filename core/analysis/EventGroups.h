#pragma once
// What each instruction's prediction error is grouped by (docs/ACCURACY.md, docs/TRANSFERS.md):
// a compute by its cost figure (op class: "conv", "depthwise_conv", "elementwise"...), a transfer
// by its path and the kind of read the emulator sees ("load/weight", "load/cached",
// "load/other"). `strata-cli accuracy` and the Transfers tab's grouped histogram both use it.

#include "analysis/TransferStats.h"
#include "compiler/Program.h"
#include "ir/Graph.h"
#include "target/Target.h"
#include "trace/AccuracyReport.h"

#include <string>
#include <vector>

namespace strata::analysis {

// One label per instruction of `program` (compiled for `target` from `graph`); "" for waits and
// barriers. Every main-memory read is given figures per kind, so the kinds show whether or not
// `target` times them apart.
trace::EventLabels eventLabels(const compiler::Program& program, const target::Target& target,
                               const ir::Graph& graph);

struct ErrorGroup {
    std::string label;
    std::vector<double> errors; // relative, of the group's matched events with a measured time
};

// The relative errors of the matched events of `kind`, grouped by labels[id] (an id without a
// label goes to "other"); the groups with the most events first, ties by label.
std::vector<ErrorGroup> groupedErrors(const std::vector<MatchedEvent>& events,
                                      const trace::EventLabels& labels, trace::EventKind kind);

} // namespace strata::analysis
