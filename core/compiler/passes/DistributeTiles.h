#pragma once
#include "compiler/CompileState.h"

namespace strata::compiler {

// Spreads each block's tiles over its mp cores in contiguous runs (core k of mp gets tiles
// [k*n/mp, (k+1)*n/mp)), so tiles next to each other run on one core one after the other: dealt
// round robin, a grid cut by columns had two cores store the two halves of every row at once,
// into shared cache lines (a store of 94 KiB took 100 us on the host instead of 5). The cores are
// spaced evenly over the chip (stride cores/mp), so a block with mp = groups uses one core of
// every group and with it every group's memory paths.
// Pre: tileBlocks.
void distributeTiles(CompileState& state);

} // namespace strata::compiler
