#include "compiler/CompileCache.h"

namespace strata::compiler {
namespace {

// The ops and the tile extents say everything a block's tile plans depend on (the graph and
// target are the cache's own).
std::string planKey(std::span<const ir::OpId> ops, const tiling::TileGrid& grid) {
    std::string key;
    key.reserve(ops.size() * 6 + grid.extents.size() * 6);
    for (ir::OpId op : ops) key += std::to_string(op.index) + ',';
    key += '|';
    for (std::int64_t e : grid.extents) key += std::to_string(e) + ',';
    return key;
}

} // namespace

std::shared_ptr<const BlockTiles> CompileCache::tiles(std::span<const ir::OpId> ops, const tiling::TileGrid& grid,
                                                      const std::function<BlockTiles()>& make) {
    Entry& entry = m_plans[planKey(ops, grid)];
    entry.lastUsed = m_compile;
    if (entry.plan) {
        ++m_hits;
        return entry.plan;
    }
    ++m_misses;
    entry.plan = std::make_shared<const BlockTiles>(make());
    return entry.plan;
}

void CompileCache::endCompile() {
    std::erase_if(m_plans, [&](const auto& item) { return item.second.lastUsed + 1 < m_compile; });
    ++m_compile;
}

} // namespace strata::compiler
