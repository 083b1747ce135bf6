#include "compiler/CompileCache.h"

#include "compiler/BlockChunk.h"
#include "compiler/passes/VerifyChunks.h"

namespace strata::compiler {
namespace {

// The ops, the tile extents and the channel slices say everything a block's tile plans depend on
// (the graph and target are the cache's own).
std::string planKey(std::span<const ir::OpId> ops, const tiling::TileGrid& grid) {
    std::string key;
    key.reserve(ops.size() * 6 + grid.extents.size() * 6);
    for (ir::OpId op : ops) key += std::to_string(op.index) + ',';
    key += '|';
    for (std::int64_t e : grid.extents) key += std::to_string(e) + ',';
    key += '|' + std::to_string(grid.sliceChannels);
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

std::string chunkKey(const TiledBlock& block) {
    return std::to_string(block.block.id) + '|' + std::to_string(block.block.mp) + '|' +
           std::to_string(block.buffering) + '|' + std::to_string(reinterpret_cast<std::uintptr_t>(block.plan.get()));
}

std::shared_ptr<const BlockChunk> CompileCache::chunk(const std::string& key) {
    auto it = m_chunks.find(key);
    if (it == m_chunks.end()) {
        ++m_chunkMisses;
        return nullptr;
    }
    ++m_chunkHits;
    it->second.lastUsed = m_compile;
    return it->second.chunk;
}

void CompileCache::keepChunk(const std::string& key, std::shared_ptr<const BlockChunk> chunk) {
    m_chunks[key] = ChunkEntry{std::move(chunk), m_compile};
}

std::shared_ptr<const BlockChunk> CompileCache::keptChunk(const std::string& key) const {
    auto it = m_chunks.find(key);
    return it == m_chunks.end() ? nullptr : it->second.chunk;
}

std::shared_ptr<ChunkVerdict> CompileCache::verdict(const BlockChunk* chunk) {
    auto it = m_verdicts.find(chunk);
    if (it == m_verdicts.end()) {
        ++m_verdictMisses;
        return nullptr;
    }
    ++m_verdictHits;
    it->second.lastUsed = m_compile;
    return it->second.verdict;
}

void CompileCache::keepVerdict(std::shared_ptr<const BlockChunk> chunk, std::shared_ptr<ChunkVerdict> verdict) {
    const BlockChunk* key = chunk.get();
    m_verdicts[key] = VerdictEntry{std::move(chunk), std::move(verdict), m_compile};
}

void CompileCache::endCompile() {
    std::erase_if(m_plans, [&](const auto& item) { return item.second.lastUsed + 1 < m_compile; });
    std::erase_if(m_chunks, [&](const auto& item) { return item.second.lastUsed + 1 < m_compile; });
    std::erase_if(m_verdicts, [&](const auto& item) { return item.second.lastUsed + 1 < m_compile; });
    ++m_compile;
}

} // namespace strata::compiler
