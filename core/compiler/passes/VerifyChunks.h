#pragma once
// Verify after an edit: the GUI recompiles after every edit with a CompileCache, and most blocks'
// chunks (compiler/BlockChunk.h) come back unchanged, so what the per-block checks found in a
// chunk is kept with it and only new chunks are checked again.
//
// What is local to a chunk (checked once per chunk, whatever its place in the program): every
// per-core check of verifyProgram except the DRAM order (working-memory reads, overwrites of
// in-flight bytes, bounds, tags, waits, transfers in flight at its barriers or at its end,
// broadcasts delivered at its own barriers), and main-memory races between its cores inside
// each of its epochs, which depend on where the DRAM plan put its tensors and so are kept with
// those homes and checked again when one moved. What is global (checked on every compile, from
// each chunk's summary): the DRAM order across blocks (a load after the barrier that follows
// the last store of its tensor) and races in epochs that several chunks share (blocks with no
// barrier between them).
//
// Sound by construction: a chunk checked clean with nothing in flight on entry stays clean
// whatever its cores' working memory held before, and tag clashes do not depend on the tag
// base the splice adds. Whenever anything is not clean (or the program does not lay out as the
// chunks say), the whole program is verified again, so the diagnostics are verifyProgram's.
// The trust boundary: a kept verdict is for the chunk object it was computed on; the program is
// taken to hold that chunk where insert-transfers spliced it (checked at its ends only).

#include "compiler/CompileState.h"

#include <memory>
#include <vector>

namespace strata::compiler {

struct BlockChunk;

// What verify found in one chunk (see above), kept in the CompileCache beside the chunk.
struct ChunkVerdict {
    bool clean = false;                               // the per-core checks found nothing
    int barriers = 0;
    std::vector<std::pair<std::uint32_t, int>> firstLoads; // value index, first local epoch it is loaded in
    std::vector<std::pair<std::uint32_t, int>> lastStores; // value index, last local epoch it is stored in
    std::vector<std::vector<std::uint32_t>> mainSides;    // by local epoch: its main-memory transfers (chunk-local ids)
    // Races between its cores within each local epoch alone, for its tensors at `homes`.
    std::vector<std::pair<std::uint32_t, std::uint64_t>> homes; // value index, DRAM offset
    std::vector<char> raceFree;                            // by local epoch
};

// verifyProgram(program, graph, target), for a program insert-transfers spliced from `chunks`
// (one per block, in schedule order), with the verdicts `cache` kept from earlier compiles.
std::vector<Diagnostic> verifySpliced(const Program& program, const ir::Graph& graph, const target::Target& target,
                                      const std::vector<std::shared_ptr<const BlockChunk>>& chunks, CompileCache& cache);

// The verify pass with the state's cache: the blocks' chunks are the cache's.
std::vector<Diagnostic> verifyWithCache(const CompileState& state);

} // namespace strata::compiler
