#pragma once
// What insert-transfers writes for one block, numbered on its own so that it can be written side
// by side with the others, kept in the CompileCache, and spliced into any program that holds
// the same block: instruction ids from 0, per-core tags from 0, barrier ids from 0, and
// main-memory offsets relative to the tensor moved (the DRAM plan moves tensors after an edit).

#include "base/Diagnostic.h"
#include "compiler/CompileState.h"
#include "compiler/Program.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace strata::compiler {

struct BlockChunk {
    std::vector<Instruction> instructions;
    std::vector<int> transfersOf;        // per core
    std::vector<std::uint32_t> instructionsOf; // per core: its stream's share
    int barriers = 0;
    BlockCode code;
    std::vector<Diagnostic> diagnostics;
    // The transfers' main-memory sides: the splice adds the tensor's DRAM offset to each.
    struct DramSide {
        std::uint32_t instruction = 0;
        bool source = false;             // else the destination
    };
    std::vector<DramSide> dramSides;
    // For the barriers between blocks: the tensors (value indices, ascending) its tiles load and
    // store, and whether it broadcasts (which lands in every core's working memory).
    std::vector<std::uint32_t> loaded, stored;
    bool broadcasts = false;
    // The tile plans it was written from: held so that the plans' address in the cache key
    // cannot be reused by other plans while the chunk is kept.
    std::shared_ptr<const BlockTiles> plan;
};

// Everything a block's chunk depends on besides the graph and target (the cache's own): the
// block's id, its cores, its buffering, and its tile plans (shared by all compiles through the
// cache, so their address names them).
std::string chunkKey(const TiledBlock& block);

} // namespace strata::compiler
