#pragma once
#include "compiler/CompileState.h"

namespace strata::compiler {

// Spreads each block's tiles over its mp cores, round robin. The cores are spaced evenly over
// the chip (stride cores/mp), so a block with mp = groups uses one core of every group and with
// it every group's memory paths.
// Pre: tileBlocks.
void distributeTiles(CompileState& state);

} // namespace strata::compiler
