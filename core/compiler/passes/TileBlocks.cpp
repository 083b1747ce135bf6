#include "compiler/passes/TileBlocks.h"

#include "compiler/CompileCache.h"
#include "tiling/SlotPacking.h"

#include <algorithm>

namespace strata::compiler {
namespace {

BlockTiles planBlock(const ir::Graph& graph, const schedule::Block& block, const tiling::TileGrid& grid,
                     std::uint64_t workingBytes) {
    BlockTiles plan;
    tiling::BlockTiler tiler(graph, block.ops);
    for (std::int64_t t = 0; t < grid.tileCount(); ++t) plan.tiles.push_back(tiler.planTile(grid, t));

    for (ir::ValueId in : tiler.blockInputs()) {
        const tiling::Region whole = tiling::fullRegion(graph.value(in).shape);
        bool everyTileWhole = !plan.tiles.empty();
        for (const auto& tile : plan.tiles) {
            auto it = std::find_if(tile.loads.begin(), tile.loads.end(), [&](const auto& l) { return l.first == in; });
            everyTileWhole = everyTileWhole && it != tile.loads.end() && it->second == whole;
        }
        if (everyTileWhole) plan.resident.push_back(in);
    }
    // Fused epilogues may grow a slot into what working memory has left for two of them (the
    // most buffering there is), whatever this block's buffering: the plan is cached without it.
    std::uint64_t residentBytes = 0;
    for (ir::ValueId v : plan.resident) residentBytes += tiling::sramAligned(graph.value(v).bytes());
    const std::uint64_t room = workingBytes > residentBytes ? (workingBytes - residentBytes) / 2 : 0;
    for (const tiling::TilePlan& tile : plan.tiles) {
        plan.layouts.push_back(layoutTile(graph, tile, plan.resident, room));
        plan.slotBytes = std::max(plan.slotBytes, plan.layouts.back().extent);
    }
    return plan;
}

} // namespace

void tileBlocks(CompileState& state) {
    for (std::size_t b = 0; b < state.schedule.blocks.size(); ++b) {
        const schedule::Block& block = state.schedule.blocks[b];
        const schedule::BlockAnalysis* analysed =
            b < state.analysis.blocks.size() ? &state.analysis.blocks[b] : nullptr;
        if (!analysed || !analysed->analysed || analysed->blockId != block.id) {
            state.diagnostics.push_back(error("block has no tiling analysis; validate the schedule first",
                                              Location{.block = schedule::blockName(block.id)}));
            continue;
        }
        TiledBlock tiled;
        tiled.block = block;
        tiled.buffering = std::clamp(block.buffering, 1, 2);
        tiled.grid = analysed->cost.grid;
        auto make = [&] { return planBlock(state.graph, block, tiled.grid, state.target.workingMemoryBytes()); };
        tiled.plan = state.cache ? state.cache->tiles(block.ops, tiled.grid, make)
                                 : std::make_shared<const BlockTiles>(make());
        state.blocks.push_back(std::move(tiled));
    }
}

} // namespace strata::compiler
