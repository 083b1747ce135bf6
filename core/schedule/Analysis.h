#pragma once
// Per-block analysis of a schedule on a target: the tile each block runs with, its FLOPs (halo
// recompute included), DRAM traffic, SRAM peak and arithmetic intensity. Fusion shows up here
// as intermediates that no longer cross DRAM.

#include "base/Diagnostic.h"
#include "schedule/Schedule.h"
#include "target/Target.h"
#include "tiling/BlockTiling.h"

#include <vector>

namespace strata::schedule {

struct BlockAnalysis {
    int blockId = 0;
    ir::ValueId anchor;                 // the output the tile grid cuts
    tiling::BlockCost cost;             // grid, flops, DRAM bytes, SRAM peak
    std::uint64_t workingMemoryBytes = 0; // capacity the SRAM peak must fit
    bool analysed = false;              // false when the block's tile is invalid

    std::uint64_t dramBytes() const { return cost.dramReadBytes + cost.dramWriteBytes; }
    double arithmeticIntensity() const; // FLOP per DRAM byte
};

struct ScheduleAnalysis {
    std::vector<BlockAnalysis> blocks;  // in schedule order
    double flops = 0;
    double unfusedFlops = 0;
    std::uint64_t dramBytes = 0;
    std::uint64_t sramPeakBytes = 0;    // largest block peak
};

// Tiles every block (resolving "auto" tiles) and adds a diagnostic for each tile that does not
// match its block's anchor, makes too many tiles, or does not fit the working memory.
// Precondition: the schedule's blocks are non-empty and reference valid ops.
ScheduleAnalysis analyzeSchedule(const Schedule& schedule, const ir::Graph& graph,
                                 const target::Target& target, std::vector<Diagnostic>& diagnostics);

// One block, as the strategies and the GUI's inspector need it.
BlockAnalysis analyzeBlock(const Block& block, const ir::Graph& graph, const target::Target& target,
                           std::vector<Diagnostic>& diagnostics);

} // namespace strata::schedule
