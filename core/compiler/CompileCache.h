#pragma once
// What one compile leaves for the next compile of the same graph on the same target: the
// schedule check's tiling outcomes by block signature, and each block's tile plans by its ops
// and grid. The GUI keeps one per (model, target) and predicts after every edit, so an edit
// re-tiles only the blocks it changed. One compile at a time may use a cache.

#include "compiler/CompileState.h"
#include "schedule/Analysis.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <unordered_map>

namespace strata::compiler {

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

    // Ends one compile: plans neither this compile nor the one before used are dropped, so the
    // cache holds about two schedules' worth however long the user edits.
    void endCompile();

    std::size_t blockPlans() const { return m_plans.size(); }
    std::uint64_t hits() const { return m_hits; }
    std::uint64_t misses() const { return m_misses; }

  private:
    struct Entry {
        std::shared_ptr<const BlockTiles> plan;
        std::uint64_t lastUsed = 0;
    };
    schedule::AnalysisCache m_analysis;
    const ir::Graph* m_graph;
    const target::Target* m_target;
    std::unordered_map<std::string, Entry> m_plans;
    std::uint64_t m_compile = 0;
    std::uint64_t m_hits = 0, m_misses = 0;
};

} // namespace strata::compiler
