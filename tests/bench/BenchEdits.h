#pragma once
// The schedule edits the benchmarks time a recompile or re-emulation after: what a user does in
// the GUI between two predictions.

#include "ir/Graph.h"
#include "schedule/Schedule.h"
#include "target/Target.h"

#include <optional>

namespace strata::bench {

// The schedule with its middle block's MP halved (or doubled when it is 1).
std::optional<schedule::Schedule> oneBlockEdit(const schedule::Schedule& s, const target::Target& target);

// The schedule with its middle fused block split after its first op (as the GUI's Split).
std::optional<schedule::Schedule> splitMiddleBlock(const schedule::Schedule& s, const ir::Graph& graph);

} // namespace strata::bench
