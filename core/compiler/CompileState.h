#pragma once
// What the passes of the pipeline read and write (Pipeline.h lists them in order).

#include "base/Diagnostic.h"
#include "compiler/Program.h"
#include "compiler/TileLayout.h"
#include "schedule/Analysis.h"
#include "schedule/Schedule.h"
#include "target/Target.h"
#include "tiling/BlockTiling.h"

#include <memory>
#include <vector>

namespace strata::compiler {

class CompileCache;

// What tiling gives one block from its ops and grid alone; immutable, so compiles share it
// through the CompileCache.
struct BlockTiles {
    std::vector<tiling::TilePlan> tiles;
    std::vector<ir::ValueId> resident;   // inputs every tile reads whole: loaded once per core
    std::vector<TileLayout> layouts;     // per tile: its slot's layout
    std::uint64_t slotBytes = 0;         // the largest layout's extent
};

// One schedule block, tiled.
struct TiledBlock {
    schedule::Block block;
    tiling::TileGrid grid;
    int buffering = 1;
    std::shared_ptr<const BlockTiles> plan;
    std::vector<int> coreOfTile;         // DistributeTiles

    const std::vector<tiling::TilePlan>& tiles() const { return plan->tiles; }
    const std::vector<ir::ValueId>& resident() const { return plan->resident; }
};

struct CompileState {
    const ir::Graph& graph;
    const target::Target& target;
    schedule::Schedule schedule;
    schedule::ScheduleAnalysis analysis; // validation's per-block analysis: the resolved grids
    std::vector<TiledBlock> blocks;      // in schedule order
    Program program;
    std::vector<Diagnostic> diagnostics;
    CompileCache* cache = nullptr;       // when the caller keeps one (Pipeline.h)

    bool failed() const { return hasErrors(diagnostics); }
};

} // namespace strata::compiler
