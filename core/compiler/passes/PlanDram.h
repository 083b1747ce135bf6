#pragma once
#include "compiler/CompileState.h"

namespace strata::compiler {

// Gives every tensor that lives in main memory a home: graph inputs, weights and graph outputs
// for the whole program, and each value passed between blocks from the block that writes it to
// its last reader, so that buffers whose lifetimes do not overlap share space (first fit,
// largest first, 64-byte aligned). Intermediates inside a block never get one.
// Pre: tileBlocks.
void planDram(CompileState& state);

} // namespace strata::compiler
