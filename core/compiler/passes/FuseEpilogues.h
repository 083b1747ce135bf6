#pragma once
#include "compiler/Program.h"

#include <cstdint>
#include <string>
#include <vector>

namespace strata::compiler {

// Folds, within a tile, the elementwise ops that only consume a Conv, Gemm or MatMul output into
// that compute as its ordered epilogue (Program.h's EpilogueStep), so they run on the output box
// while it is in cache (oneDNN post-ops in the host runtime). A step is folded when:
//  - EpilogueRule.h's graph rule holds (the intermediate has that one reader, is no graph output);
//  - the intermediate is not stored (no block output), and the reader's compute is in the same
//    core's stream, same block and tile, reading the whole output box where the compute wrote it;
//  - the reader's output box does not overlap what the compute reads (TileLayout.cpp keeps it
//    apart), and nothing between the two instructions touches its output or reads its further
//    operands' bytes being written; no barrier lies between; and its kernel is a Map or a Zip.
// The fused compute takes the place of its last step (the compute moves down to it: nothing in
// between writes what it reads), its own instruction goes, and ids are renumbered in list order,
// so every stream still issues rising ids. insert-transfers runs it on each block's instructions
// as it writes them, so the compile cache, the search's emulation and the program agree.
// `streams` lists per core the ids of `instructions` in issue order. Returns, per old id, the new
// one (-1 for a removed instruction).
std::vector<std::int64_t> fuseEpilogues(std::vector<Instruction>& instructions,
                                        std::vector<std::vector<InstrId>>& streams,
                                        const std::string& workingMemory, const ir::Graph& graph);

// The same on a whole program (tests; insert-transfers calls it per block).
void fuseEpilogues(Program& program, const ir::Graph& graph);

} // namespace strata::compiler
