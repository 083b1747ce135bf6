#include "compiler/passes/DistributeTiles.h"

#include <algorithm>

namespace strata::compiler {

void distributeTiles(CompileState& state) {
    const int cores = state.target.cores();
    for (TiledBlock& block : state.blocks) {
        const int mp = std::clamp(block.block.mp, 1, cores);
        const int stride = std::max(1, cores / mp);
        block.coreOfTile.clear();
        const std::size_t tiles = block.tiles().size();
        for (std::size_t t = 0; t < tiles; ++t)
            block.coreOfTile.push_back(static_cast<int>(t * static_cast<std::size_t>(mp) / tiles) *
                                       stride);
    }
}

} // namespace strata::compiler
