#pragma once
#include "compiler/CompileState.h"

namespace strata::compiler {

// Tiles every block of the schedule with the grid schedule analysis chose for it (explicit, or
// the automatic one: DRAM-frugal, fitting the working memory, at least mp tiles), then plans
// each tile with bounds inference: its loads (halos included), the region each op computes, and
// the slices it stores. Marks inputs that every tile reads whole as resident.
// Pre: state.analysis is checkSchedule()'s analysis of state.schedule, without errors.
void tileBlocks(CompileState& state);

} // namespace strata::compiler
