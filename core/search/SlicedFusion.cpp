#include "search/SlicedFusion.h"

namespace strata::search {
namespace {

bool slicedAlone(const schedule::Block& block, ir::OpId op, const ir::Graph& graph,
                 const target::Target& target, schedule::AnalysisCache& cache) {
    schedule::Block alone{block.id, {op}, block.mp, {}, 1}; // auto tile, single buffer
    std::vector<Diagnostic> ignored;
    const schedule::BlockAnalysis a = schedule::analyzeBlock(alone, graph, target, ignored, &cache);
    return a.analysed && a.cost.grid.sliceChannels > 0;
}

} // namespace

bool fusionForcesSlices(const schedule::Schedule& schedule,
                        const schedule::ScheduleAnalysis& analysis, const ir::Graph& graph,
                        const target::Target& target, schedule::AnalysisCache& cache) {
    for (std::size_t i = 0; i < schedule.blocks.size() && i < analysis.blocks.size(); ++i) {
        const schedule::Block& block = schedule.blocks[i];
        if (block.ops.size() < 2 || analysis.blocks[i].cost.grid.sliceChannels == 0)
            continue;
        bool inherent = false;
        for (ir::OpId op : block.ops)
            if ((inherent = slicedAlone(block, op, graph, target, cache)))
                break;
        if (!inherent)
            return true;
    }
    return false;
}

} // namespace strata::search
