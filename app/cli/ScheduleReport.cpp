#include "ScheduleReport.h"

#include "base/Units.h"

#include <fmt/format.h>

namespace strata::cli {

using nlohmann::json;

namespace {

const schedule::BlockAnalysis* analysisOf(const schedule::ScheduleCheck& check, int blockId) {
    for (const auto& b : check.analysis.blocks)
        if (b.blockId == blockId) return &b;
    return nullptr;
}

std::string opsSummary(const schedule::Block& block, const ir::Graph& graph) {
    if (block.ops.empty()) return "-";
    const std::string& first = graph.op(block.ops.front()).name;
    if (block.ops.size() == 1) return first;
    return fmt::format("{} .. {} ({} ops)", first, graph.op(block.ops.back()).name, block.ops.size());
}

} // namespace

json scheduleJson(const schedule::Schedule& s, const schedule::ScheduleCheck& check, const ir::Graph& graph,
                  const target::Target& target) {
    json blocks = json::array();
    for (const schedule::Block& b : s.blocks) {
        json ops = json::array();
        for (ir::OpId op : b.ops)
            ops.push_back(op.index < graph.ops.size() ? graph.op(op).name : std::string("?"));
        json entry = {{"id", b.id}, {"ops", ops}, {"mp", b.mp}, {"buffering", b.buffering},
                      {"tile_auto", b.tile.isAuto()}};
        const schedule::BlockAnalysis* a = analysisOf(check, b.id);
        if (a && a->analysed) {
            entry["tile"] = a->cost.grid.extents;
            entry["tiles"] = a->cost.tiles();
            entry["flops"] = a->cost.flops;
            entry["recompute"] = a->cost.recomputeRatio();
            entry["dram_bytes"] = a->dramBytes();
            entry["dram_read_bytes"] = a->cost.dramReadBytes;
            entry["dram_write_bytes"] = a->cost.dramWriteBytes;
            entry["sram_peak_bytes"] = a->cost.sramPeakBytes;
            entry["arithmetic_intensity"] = a->arithmeticIntensity();
        } else {
            entry["tile"] = b.tile.isAuto() ? json("auto") : json(*b.tile.extents);
            for (const char* key : {"tiles", "flops", "dram_bytes", "sram_peak_bytes"}) entry[key] = nullptr;
        }
        blocks.push_back(std::move(entry));
    }
    json diagnostics = json::array();
    for (const auto& d : check.diagnostics) diagnostics.push_back(d.toString());
    return {{"target", target.name},
            {"strategy", s.strategy},
            {"valid", check.valid()},
            {"model_hash", s.modelHash},
            {"blocks", blocks},
            {"dram_bytes", check.analysis.dramBytes},
            {"flops", check.analysis.flops},
            {"unfused_flops", check.analysis.unfusedFlops},
            {"working_memory_bytes", target.workingMemoryBytes()},
            {"diagnostics", diagnostics}};
}

std::string scheduleText(const schedule::Schedule& s, const schedule::ScheduleCheck& check, const ir::Graph& graph,
                         const target::Target& target) {
    std::string out;
    out += fmt::format("Schedule   {} for '{}' on {} ({} blocks, {} ops)\n", s.strategy.empty() ? "-" : s.strategy,
                       graph.name, target.name, s.blocks.size(), graph.ops.size());
    out += fmt::format("Valid      {}\n", check.valid() ? "yes" : "no");
    out += fmt::format("DRAM       {}   FLOPs {} (unfused {})   working memory {} x {}\n",
                       formatBytes(check.analysis.dramBytes), formatCount(check.analysis.flops),
                       formatCount(check.analysis.unfusedFlops), formatBytes(target.workingMemoryBytes()),
                       target.cores());
    out += "\n";
    out += fmt::format("{:<6} {:>3} {:>3} {:<18} {:>6} {:>10} {:>9} {:>10} {:>10} {:>8}  {}\n", "block", "mp", "buf",
                       "tile", "tiles", "FLOPs", "recompute", "DRAM", "SRAM peak", "FLOP/B", "ops");
    for (const schedule::Block& b : s.blocks) {
        const schedule::BlockAnalysis* a = analysisOf(check, b.id);
        bool ok = a && a->analysed;
        std::string tile = ok ? ir::shapeToString(a->cost.grid.extents) + (b.tile.isAuto() ? "*" : "")
                              : schedule::tileToString(b.tile);
        out += fmt::format("{:<6} {:>3} {:>3} {:<18} {:>6} {:>10} {:>9} {:>10} {:>10} {:>8}  {}\n",
                           schedule::blockName(b.id), b.mp, b.buffering, tile,
                           ok ? std::to_string(a->cost.tiles()) : "-", ok ? formatCount(a->cost.flops) : "-",
                           ok ? fmt::format("{:.1f}%", 100.0 * a->cost.recomputeRatio()) : "-",
                           ok ? formatBytes(a->dramBytes()) : "-", ok ? formatBytes(a->cost.sramPeakBytes) : "-",
                           ok ? fmt::format("{:.1f}", a->arithmeticIntensity()) : "-", opsSummary(b, graph));
    }
    out += "\n* tile chosen automatically\n";
    return out;
}

} // namespace strata::cli
