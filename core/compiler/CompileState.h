#pragma once
// What the passes of the pipeline read and write (Pipeline.h lists them in order).

#include "base/Diagnostic.h"
#include "compiler/Program.h"
#include "schedule/Analysis.h"
#include "schedule/Schedule.h"
#include "target/Target.h"
#include "tiling/BlockTiling.h"

#include <vector>

namespace strata::compiler {

// One schedule block, tiled.
struct TiledBlock {
    schedule::Block block;
    tiling::TileGrid grid;
    int buffering = 1;
    std::vector<tiling::TilePlan> tiles;
    std::vector<ir::ValueId> resident;   // inputs every tile reads whole: loaded once per core
    std::vector<int> coreOfTile;         // DistributeTiles
};

struct CompileState {
    const ir::Graph& graph;
    const target::Target& target;
    schedule::Schedule schedule;
    schedule::ScheduleAnalysis analysis; // validation's per-block analysis: the resolved grids
    std::vector<TiledBlock> blocks;      // in schedule order
    Program program;
    std::vector<Diagnostic> diagnostics;

    bool failed() const { return hasErrors(diagnostics); }
};

} // namespace strata::compiler
