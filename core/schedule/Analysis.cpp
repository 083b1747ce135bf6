#include "schedule/Analysis.h"

#include "base/Units.h"
#include "schedule/BlockSignature.h"
#include "tiling/DramLayouts.h"

#include <algorithm>

namespace strata::schedule {

double BlockAnalysis::arithmeticIntensity() const {
    std::uint64_t bytes = dramBytes();
    return bytes > 0 ? cost.flops / static_cast<double>(bytes) : 0.0;
}

namespace {

Location blockLocation(const Block& block, const ir::Graph& graph, ir::ValueId anchor) {
    Location where;
    where.block = blockName(block.id);
    const ir::Value& v = graph.value(anchor);
    if (v.producer.valid()) where.node = graph.op(v.producer).name;
    where.value = v.name;
    return where;
}

// Why an explicit tile cannot cut the anchor; empty when it can.
std::string explicitTileProblem(const TileSpec& tile, const ir::Shape& shape) {
    const ir::Shape& extents = *tile.extents;
    if (extents.size() != shape.size())
        return "tile " + tileToString(tile) + " has " + std::to_string(extents.size()) +
               " dimensions; the block's output has " + std::to_string(shape.size()) + " (" +
               ir::shapeToString(shape) + ")";
    for (std::size_t d = 0; d < shape.size(); ++d) {
        if (extents[d] < 1)
            return "tile " + tileToString(tile) + ": extent " + std::to_string(extents[d]) + " in dimension " +
                   std::to_string(d) + " must be at least 1";
        if (extents[d] > shape[d])
            return "tile " + tileToString(tile) + " is larger than the block's output (" + ir::shapeToString(shape) +
                   ") in dimension " + std::to_string(d);
    }
    tiling::TileGrid grid = tiling::makeGrid(shape, extents);
    if (grid.tileCount() > tiling::kMaxTilesPerBlock)
        return "tile " + tileToString(tile) + " makes " + std::to_string(grid.tileCount()) + " tiles; at most " +
               std::to_string(tiling::kMaxTilesPerBlock) + " per block";
    return {};
}

TilingOutcome tileBlock(const Block& block, const ir::Graph& graph, const target::Target& target,
                        const std::vector<int>& dramLayouts) {
    TilingOutcome outcome;
    const std::uint64_t capacity = target.workingMemoryBytes();
    tiling::BlockTiler tiler(graph, block.ops, target.channelGranule);
    tiler.preferRowCuts(tiler.anchor().index < dramLayouts.size() &&
                        dramLayouts[tiler.anchor().index] == tiling::kChannelsLast);
    const ir::Op& producer = graph.op(graph.value(tiler.anchor()).producer);
    outcome.anchorOp = static_cast<std::size_t>(
        std::lower_bound(block.ops.begin(), block.ops.end(), graph.value(tiler.anchor()).producer) - block.ops.begin());
    outcome.anchorOutput = static_cast<std::size_t>(
        std::find(producer.outputs.begin(), producer.outputs.end(), tiler.anchor()) - producer.outputs.begin());
    const int mp = std::max(1, block.mp);
    const int buffering = std::clamp(block.buffering, 1, 2);

    if (block.tile.isAuto()) {
        auto chosen = tiler.chooseAndEvaluate(capacity, buffering, mp);
        if (!chosen) {
            outcome.status = TilingOutcome::Status::NoFit;
            outcome.leastFootprint = tiler.elementTileFootprint(buffering);
            return outcome;
        }
        outcome.cost = std::move(*chosen);
        return outcome;
    }
    outcome.badTile = explicitTileProblem(block.tile, tiler.anchorShape());
    if (!outcome.badTile.empty()) {
        outcome.status = TilingOutcome::Status::BadTile;
        return outcome;
    }
    outcome.cost = tiler.evaluate(tiling::makeGrid(tiler.anchorShape(), *block.tile.extents), buffering, mp);
    return outcome;
}

} // namespace

const std::vector<int>& AnalysisCache::dramLayouts() {
    if (!m_dramLayouts)
        m_dramLayouts = tiling::chooseDramLayouts(*m_graph, m_target->channelGranule);
    return *m_dramLayouts;
}

const TilingOutcome* AnalysisCache::find(const std::string& signature) const {
    auto it = m_outcomes.find(signature);
    return it == m_outcomes.end() ? nullptr : &it->second;
}

const TilingOutcome& AnalysisCache::insert(std::string signature, TilingOutcome outcome) {
    return m_outcomes.insert_or_assign(std::move(signature), std::move(outcome)).first->second;
}

BlockAnalysis analyzeBlock(const Block& block, const ir::Graph& graph, const target::Target& target,
                           std::vector<Diagnostic>& diagnostics, AnalysisCache* cache) {
    BlockAnalysis result;
    result.blockId = block.id;
    result.workingMemoryBytes = target.workingMemoryBytes();

    std::optional<TilingOutcome> local;
    const TilingOutcome* outcome = nullptr;
    if (cache && cache->isFor(graph, target)) {
        std::string signature = blockSignature(block, graph);
        outcome = cache->find(signature);
        if (!outcome)
            outcome = &cache->insert(std::move(signature),
                                     tileBlock(block, graph, target, cache->dramLayouts()));
    } else {
        local = tileBlock(block, graph, target,
                          tiling::chooseDramLayouts(graph, target.channelGranule));
        outcome = &*local;
    }
    result.anchor = graph.op(block.ops[outcome->anchorOp]).outputs[outcome->anchorOutput];
    const Location where = blockLocation(block, graph, result.anchor);
    const int buffering = std::clamp(block.buffering, 1, 2);
    switch (outcome->status) {
    case TilingOutcome::Status::BadTile: diagnostics.push_back(error(outcome->badTile, where)); return result;
    case TilingOutcome::Status::NoFit:
        if (outcome->leastFootprint <= result.workingMemoryBytes) {
            // Small tiles fit, but a grid of them would be more than a block may have.
            diagnostics.push_back(
                error("does not fit working memory '" + target.workingMemory + "' (" +
                          formatBytes(result.workingMemoryBytes) + ") with at most " +
                          std::to_string(tiling::kMaxTilesPerBlock) +
                          " tiles: 1-element tiles need " + formatBytes(outcome->leastFootprint) +
                          (buffering > 1 ? " with double buffering" : "") + ", but the output " +
                          ir::shapeToString(graph.value(result.anchor).shape) +
                          " would need more tiles than that",
                      where));
            return result;
        }
        diagnostics.push_back(error("does not fit working memory '" + target.workingMemory + "' (" +
                                        formatBytes(result.workingMemoryBytes) +
                                        ") with any tile: even 1-element tiles need " +
                                        formatBytes(outcome->leastFootprint) +
                                        (buffering > 1 ? " with double buffering" : ""),
                                    where));
        return result;
    case TilingOutcome::Status::Ok: break;
    }
    result.cost = outcome->cost;
    result.analysed = true;
    if (result.cost.sramPeakBytes > result.workingMemoryBytes)
        diagnostics.push_back(error("SRAM working set " + formatBytes(result.cost.sramPeakBytes) + " (tile " +
                                        ir::shapeToString(result.cost.grid.extents) + ", buffering " +
                                        std::to_string(buffering) + ") exceeds working memory '" +
                                        target.workingMemory + "' (" + formatBytes(result.workingMemoryBytes) + ")",
                                    where));
    return result;
}

ScheduleAnalysis analyzeSchedule(const Schedule& schedule, const ir::Graph& graph,
                                 const target::Target& target, std::vector<Diagnostic>& diagnostics,
                                 AnalysisCache* cache) {
    // Without a cache from the caller, one for this call still tiles repeated blocks once.
    std::optional<AnalysisCache> local;
    if (!cache || !cache->isFor(graph, target)) cache = &local.emplace(graph, target);
    ScheduleAnalysis analysis;
    analysis.blocks.reserve(schedule.blocks.size());
    for (const Block& block : schedule.blocks) {
        BlockAnalysis b = analyzeBlock(block, graph, target, diagnostics, cache);
        analysis.flops += b.cost.flops;
        analysis.unfusedFlops += b.cost.unfusedFlops;
        analysis.dramBytes += b.dramBytes();
        analysis.sramPeakBytes = std::max(analysis.sramPeakBytes, b.cost.sramPeakBytes);
        analysis.blocks.push_back(std::move(b));
    }
    return analysis;
}

} // namespace strata::schedule
