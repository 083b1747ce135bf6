#include "compiler/passes/TileBlocks.h"

#include <algorithm>

namespace strata::compiler {

void tileBlocks(CompileState& state) {
    const std::uint64_t capacity = state.target.workingMemoryBytes();
    for (const schedule::Block& block : state.schedule.blocks) {
        TiledBlock tiled;
        tiled.block = block;
        tiled.buffering = std::clamp(block.buffering, 1, 2);
        tiling::BlockTiler tiler(state.graph, block.ops);
        if (block.tile.extents) {
            tiled.grid = tiling::makeGrid(tiler.anchorShape(), *block.tile.extents);
        } else {
            auto chosen = tiler.chooseAndEvaluate(capacity, tiled.buffering, std::max(1, block.mp));
            if (!chosen) {
                state.diagnostics.push_back(error("no tile fits the working memory",
                                                  Location{.block = schedule::blockName(block.id)}));
                continue;
            }
            tiled.grid = chosen->grid;
        }
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
