#pragma once
// What one compile leaves for the next compile of the same graph on the same target: the
// schedule check's tiling outcomes by block signature, each block's tile plans by its ops and
// grid, and each block's written instructions (compiler/BlockChunk.h) by everything they depend
// on. The GUI keeps one per (model, target) and predicts after every edit, so an edit re-tiles
// and re-writes only the blocks it changed. One compile at a time may use a cache.

#include "compiler/CompileState.h"
#include "schedule/Analysis.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <unordered_map>

namespace strata::compiler {

struct BlockChunk;
struct ChunkVerdict;

class CompileCache {
  public:
    CompileCache(const ir::Graph& graph, const target::Target& target) : m_analysis(graph, target), m_graph(&graph), m_target(&target) {}
    CompileCache(const CompileCache&) = delete;
    CompileCache& operator=(const CompileCache&) = delete;

    bool isFor(const ir::Graph& graph, const target::Target& target) const {
        return m_graph == &graph && m_target == &target;
    }
    schedule::AnalysisCache& analysis() { return m_analysis; }

    // The tile plans of `ops` cut by `grid`: the cached ones, or `make()`'s, kept for next time.
    std::shared_ptr<const BlockTiles> tiles(std::span<const ir::OpId> ops, const tiling::TileGrid& grid,
                                            const std::function<BlockTiles()>& make);

    // The chunk kept under `key` (compiler/BlockChunk.h's chunkKey), or null; keepChunk stores
    // one for next time.
    std::shared_ptr<const BlockChunk> chunk(const std::string& key);
    void keepChunk(const std::string& key, std::shared_ptr<const BlockChunk> chunk);
    // The chunk kept under `key`, without counting a hit or a miss (for verify, after
    // insert-transfers has looked it up).
    std::shared_ptr<const BlockChunk> keptChunk(const std::string& key) const;

    // What verify found in `chunk` (passes/VerifyChunks.h), or null; keepVerdict stores one,
    // holding the chunk so that its address names it while the verdict is kept.
    std::shared_ptr<ChunkVerdict> verdict(const BlockChunk* chunk);
    void keepVerdict(std::shared_ptr<const BlockChunk> chunk, std::shared_ptr<ChunkVerdict> verdict);
    void countWholeVerify() { ++m_wholeVerifies; }
    void countRaceRechecks(std::size_t chunks) { m_raceRechecks += chunks; }

    // Ends one compile: plans and chunks neither this compile nor the one before used are
    // dropped, so the cache holds about two schedules' worth however long the user edits.
    void endCompile();

    std::size_t blockPlans() const { return m_plans.size(); }
    std::uint64_t hits() const { return m_hits; }
    std::uint64_t misses() const { return m_misses; }
    std::size_t blockChunks() const { return m_chunks.size(); }
    std::uint64_t chunkHits() const { return m_chunkHits; }
    std::uint64_t chunkMisses() const { return m_chunkMisses; }
    std::size_t chunkVerdicts() const { return m_verdicts.size(); }
    std::uint64_t verdictHits() const { return m_verdictHits; }
    std::uint64_t verdictMisses() const { return m_verdictMisses; }
    // Verifies that fell back to the whole program (something not clean, or no chunks).
    std::uint64_t wholeVerifies() const { return m_wholeVerifies; }
    // Kept verdicts whose races were checked again because the DRAM plan moved their tensors.
    std::uint64_t raceRechecks() const { return m_raceRechecks; }

  private:
    struct Entry {
        std::shared_ptr<const BlockTiles> plan;
        std::uint64_t lastUsed = 0;
    };
    schedule::AnalysisCache m_analysis;
    const ir::Graph* m_graph;
    const target::Target* m_target;
    struct ChunkEntry {
        std::shared_ptr<const BlockChunk> chunk;
        std::uint64_t lastUsed = 0;
    };
    std::unordered_map<std::string, Entry> m_plans;
    std::unordered_map<std::string, ChunkEntry> m_chunks;
    struct VerdictEntry {
        std::shared_ptr<const BlockChunk> chunk;
        std::shared_ptr<ChunkVerdict> verdict;
        std::uint64_t lastUsed = 0;
    };
    std::unordered_map<const BlockChunk*, VerdictEntry> m_verdicts;
    std::uint64_t m_compile = 0;
    std::uint64_t m_hits = 0, m_misses = 0;
    std::uint64_t m_chunkHits = 0, m_chunkMisses = 0;
    std::uint64_t m_verdictHits = 0, m_verdictMisses = 0, m_wholeVerifies = 0, m_raceRechecks = 0;
};

} // namespace strata::compiler
