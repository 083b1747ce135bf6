#pragma once
// Per-block analysis of a schedule on a target: the tile each block runs with, its FLOPs (halo
// recompute included), DRAM traffic, SRAM peak and arithmetic intensity. Fusion shows up here
// as intermediates that no longer cross DRAM.

#include "base/Diagnostic.h"
#include "schedule/Schedule.h"
#include "target/Target.h"
#include "tiling/BlockTiling.h"

#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace strata::schedule {

// What tiling one block gave, independent of the names in it (see BlockSignature.h).
struct TilingOutcome {
    enum class Status { Ok, BadTile, NoFit } status = Status::Ok;
    std::string badTile;                // why an explicit tile does not fit the anchor
    tiling::BlockCost cost;             // when Ok
    std::uint64_t leastFootprint = 0;   // when NoFit: the working set of 1-element tiles
    std::size_t anchorOp = 0;           // the anchor: output `anchorOutput` of the block's op
    std::size_t anchorOutput = 0;       //   at position `anchorOp`
};

// Tiling outcomes by block signature, for one graph and one target. The GUI keeps one per
// (model, target), so after an edit only the changed blocks are tiled again.
class AnalysisCache {
  public:
    AnalysisCache(const ir::Graph& graph, const target::Target& target) : m_graph(&graph), m_target(&target) {}
    bool isFor(const ir::Graph& graph, const target::Target& target) const {
        return m_graph == &graph && m_target == &target;
    }
    const TilingOutcome* find(const std::string& signature) const;
    const TilingOutcome& insert(std::string signature, TilingOutcome outcome);
    std::size_t size() const { return m_outcomes.size(); }
    // Each value's main-memory layout (tiling/DramLayouts.h), chosen once for the graph.
    const std::vector<int>& dramLayouts();

  private:
    const ir::Graph* m_graph;
    const target::Target* m_target;
    std::optional<std::vector<int>> m_dramLayouts;
    std::unordered_map<std::string, TilingOutcome> m_outcomes;
};

struct BlockAnalysis {
    int blockId = 0;
    ir::ValueId anchor;                 // the output the tile grid cuts
    tiling::BlockCost cost;             // grid, flops, DRAM bytes, SRAM peak
    std::uint64_t workingMemoryBytes = 0; // capacity the SRAM peak must fit
    bool analysed = false;              // false when the block's tile is invalid

    std::uint64_t dramBytes() const { return cost.dramReadBytes + cost.dramWriteBytes; }
    double arithmeticIntensity() const; // FLOP per DRAM byte
};

struct ScheduleAnalysis {
    std::vector<BlockAnalysis> blocks;  // in schedule order
    double flops = 0;
    double unfusedFlops = 0;
    std::uint64_t dramBytes = 0;
    std::uint64_t sramPeakBytes = 0;    // largest block peak
};

// Tiles every block (resolving "auto" tiles) and adds a diagnostic for each tile that does not
// match its block's anchor, makes too many tiles, or does not fit the working memory.
// Blocks with the same signature are tiled once; `cache`, when given (and made for this graph
// and target), carries that over between calls.
// Precondition: the schedule's blocks are non-empty and reference valid ops.
ScheduleAnalysis analyzeSchedule(const Schedule& schedule, const ir::Graph& graph,
                                 const target::Target& target, std::vector<Diagnostic>& diagnostics,
                                 AnalysisCache* cache = nullptr);

// One block, as the strategies and the GUI's inspector need it.
BlockAnalysis analyzeBlock(const Block& block, const ir::Graph& graph, const target::Target& target,
                           std::vector<Diagnostic>& diagnostics, AnalysisCache* cache = nullptr);

} // namespace strata::schedule
