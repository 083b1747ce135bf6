#include "schedule/Analysis.h"

#include "base/Units.h"

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

// The grid of an explicit tile, or a diagnostic saying why the tile does not fit the anchor.
std::optional<tiling::TileGrid> explicitGrid(const Block& block, const ir::Graph& graph, ir::ValueId anchor,
                                             std::vector<Diagnostic>& diagnostics) {
    const ir::Shape& shape = graph.value(anchor).shape;
    const ir::Shape& extents = *block.tile.extents;
    auto fail = [&](std::string message) {
        diagnostics.push_back(error(std::move(message), blockLocation(block, graph, anchor)));
        return std::nullopt;
    };
    if (extents.size() != shape.size())
        return fail("tile " + tileToString(block.tile) + " has " + std::to_string(extents.size()) +
                    " dimensions; the block's output has " + std::to_string(shape.size()) + " (" +
                    ir::shapeToString(shape) + ")");
    for (std::size_t d = 0; d < shape.size(); ++d) {
        if (extents[d] < 1)
            return fail("tile " + tileToString(block.tile) + ": extent " + std::to_string(extents[d]) +
                        " in dimension " + std::to_string(d) + " must be at least 1");
        if (extents[d] > shape[d])
            return fail("tile " + tileToString(block.tile) + " is larger than the block's output (" +
                        ir::shapeToString(shape) + ") in dimension " + std::to_string(d));
    }
    tiling::TileGrid grid = tiling::makeGrid(shape, extents);
    if (grid.tileCount() > tiling::kMaxTilesPerBlock)
        return fail("tile " + tileToString(block.tile) + " makes " + std::to_string(grid.tileCount()) +
                    " tiles; at most " + std::to_string(tiling::kMaxTilesPerBlock) + " per block");
    return grid;
}

} // namespace

BlockAnalysis analyzeBlock(const Block& block, const ir::Graph& graph, const target::Target& target,
                           std::vector<Diagnostic>& diagnostics) {
    BlockAnalysis result;
    result.blockId = block.id;
    result.workingMemoryBytes = target.workingMemoryBytes();
    tiling::BlockTiler tiler(graph, block.ops);
    result.anchor = tiler.anchor();
    const int mp = std::max(1, block.mp);
    const int buffering = std::clamp(block.buffering, 1, 2);

    std::optional<tiling::TileGrid> grid;
    if (block.tile.isAuto()) {
        grid = tiler.chooseGrid(result.workingMemoryBytes, buffering, mp);
        if (!grid) {
            ir::Shape ones(tiler.anchorShape().size(), 1);
            std::uint64_t least = tiler.interiorFootprint(tiling::makeGrid(tiler.anchorShape(), ones), buffering);
            diagnostics.push_back(error(
                "does not fit working memory '" + target.workingMemory + "' (" +
                    formatBytes(result.workingMemoryBytes) + ") with any tile: even 1-element tiles need " +
                    formatBytes(least) + (buffering > 1 ? " with double buffering" : ""),
                blockLocation(block, graph, result.anchor)));
            return result;
        }
    } else {
        grid = explicitGrid(block, graph, result.anchor, diagnostics);
        if (!grid) return result;
    }
    result.cost = tiler.evaluate(*grid, buffering, mp);
    result.analysed = true;
    if (result.cost.sramPeakBytes > result.workingMemoryBytes)
        diagnostics.push_back(error(
            "SRAM working set " + formatBytes(result.cost.sramPeakBytes) + " (tile " +
                ir::shapeToString(grid->extents) + ", buffering " + std::to_string(buffering) +
                ") exceeds working memory '" + target.workingMemory + "' (" +
                formatBytes(result.workingMemoryBytes) + ")",
            blockLocation(block, graph, result.anchor)));
    return result;
}

ScheduleAnalysis analyzeSchedule(const Schedule& schedule, const ir::Graph& graph,
                                 const target::Target& target, std::vector<Diagnostic>& diagnostics) {
    ScheduleAnalysis analysis;
    analysis.blocks.reserve(schedule.blocks.size());
    for (const Block& block : schedule.blocks) {
        BlockAnalysis b = analyzeBlock(block, graph, target, diagnostics);
        analysis.flops += b.cost.flops;
        analysis.unfusedFlops += b.cost.unfusedFlops;
        analysis.dramBytes += b.dramBytes();
        analysis.sramPeakBytes = std::max(analysis.sramPeakBytes, b.cost.sramPeakBytes);
        analysis.blocks.push_back(std::move(b));
    }
    return analysis;
}

} // namespace strata::schedule
