#pragma once
#include "compiler/CompileState.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace strata::compiler {

// Writes every core's instruction stream, block by block:
//  - working memory per core: the block's resident inputs (read whole by every tile) once at
//    offset 0, then `buffering` slots; each tile's loads and computed values are packed into its
//    slot by lifetime (first fit, largest first);
//  - per tile: loads of its input regions (halos included) as tagged transfers on the target's
//    main->working path, a wait before the first compute that reads each, the computes of its
//    ops, and tagged stores of its output slices on the working->main path. Double buffering
//    issues the next tile's loads before computing this one; a slot's stores are waited before
//    the slot is loaded again, and a core waits all its stores at the end of a block;
//  - a barrier on every core before a block that reads what an earlier block wrote since the
//    last barrier.
// A big program's blocks are written side by side, each numbered on its own (compiler/
// BlockChunk.h), then spliced in schedule order: ids, tags, barrier ids and main-memory offsets
// come out as if written one block after another. With a CompileCache, a block the cache holds
// written from the same plans, cores and buffering is not written again, only spliced.
// Pre: tileBlocks, planDram, distributeTiles. Errors (no path between the memories, a block
// whose slots do not fit the working memory) go to the diagnostics.
void insertTransfers(CompileState& state);

// What insertTransfers would splice, without splicing it: each block's chunk (kept in or added
// to state.cache) and whether a barrier goes before it. For a caller that times blocks on their
// own (search/Evaluation.h). Same preconditions and errors as insertTransfers.
struct BlockChunk;
struct PlacedChunks {
    std::vector<std::shared_ptr<const BlockChunk>> chunks; // per block
    std::vector<std::uint8_t> barrierBefore;               // per block
    // Per value index: its DRAM home's offset (0 without one), which the splice adds to the
    // chunks' main-memory sides (BlockChunk::dramSides).
    std::vector<std::uint64_t> dramOffsets;
};
PlacedChunks placeChunks(CompileState& state);

} // namespace strata::compiler
