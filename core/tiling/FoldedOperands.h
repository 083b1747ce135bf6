#pragma once
// Operands a compiler reads while it compiles, not while the program runs: a Reshape's target
// shape, a Slice's starts and ends, a Pad's pads, a Clip's bounds, a reduction's axes. When they
// are constants the compiled instruction carries them (compiler::KernelCall's ints and params;
// the reference evaluator decodes a constant the tile holds no box of), so no tile loads them:
// loaded, each was a transfer of 8-64 bytes per block and core (per tile where a tile read it
// anew): 40% of Swin-T's loads (docs/ISA.md, "Folded operands").

#include "ir/Graph.h"

#include <cstddef>

namespace strata::tiling {

// Whether input `input` of `op` is a constant the compiled instruction carries instead of
// reading it from working memory.
bool isFoldedOperand(const ir::Graph& graph, const ir::Op& op, std::size_t input);

} // namespace strata::tiling
