#include "compiler/passes/TileBlocks.h"

#include <algorithm>

namespace strata::compiler {

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
        tiling::BlockTiler tiler(state.graph, block.ops);
        for (std::int64_t t = 0; t < tiled.grid.tileCount(); ++t) tiled.tiles.push_back(tiler.planTile(tiled.grid, t));

        for (ir::ValueId in : tiler.blockInputs()) {
            const tiling::Region whole = tiling::fullRegion(state.graph.value(in).shape);
            bool everyTileWhole = !tiled.tiles.empty();
            for (const auto& tile : tiled.tiles) {
                auto it = std::find_if(tile.loads.begin(), tile.loads.end(), [&](const auto& l) { return l.first == in; });
                everyTileWhole = everyTileWhole && it != tile.loads.end() && it->second == whole;
            }
            if (everyTileWhole) tiled.resident.push_back(in);
        }
        state.blocks.push_back(std::move(tiled));
    }
}

} // namespace strata::compiler
