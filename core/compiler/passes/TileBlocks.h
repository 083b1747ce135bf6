#pragma once
#include "compiler/CompileState.h"

namespace strata::compiler {

// Tiles every block of the schedule: resolves "auto" tiles exactly as schedule analysis does
// (largest DRAM-frugal grid that fits the working memory with at least mp tiles), then plans
// each tile with bounds inference: its loads (halos included), the region each op computes, and
// the slices it stores. Marks inputs that every tile reads whole as resident.
// Pre: the schedule is valid for the graph and target (validate() has no errors).
void tileBlocks(CompileState& state);

} // namespace strata::compiler
