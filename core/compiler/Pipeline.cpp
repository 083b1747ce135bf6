#include "compiler/Pipeline.h"

#include "base/Units.h"
#include "compiler/emit/AsmEmitter.h"
#include "compiler/emit/KernelCall.h"
#include "compiler/passes/DistributeTiles.h"
#include "compiler/passes/InsertTransfers.h"
#include "compiler/passes/PlanDram.h"
#include "compiler/passes/TileBlocks.h"
#include "compiler/passes/Verify.h"
#include "schedule/Validate.h"

#include <algorithm>
#include <chrono>

namespace strata::compiler {
namespace {

std::string dumpTiles(const CompileState& s) {
    std::string out;
    for (const TiledBlock& b : s.blocks) {
        out += schedule::blockName(b.block.id) + ": tile " + ir::shapeToString(b.grid.extents) + ", " +
               std::to_string(b.tiles().size()) + " tiles, buffering " + std::to_string(b.buffering);
        if (b.grid.sliceChannels > 0)
            out += ", input channels in slices of " + std::to_string(b.grid.sliceChannels);
        if (!b.resident().empty()) {
            out += ", resident:";
            for (ir::ValueId v : b.resident()) out += " " + s.graph.value(v).name;
        }
        out += "\n";
        for (std::size_t t = 0; t < b.tiles().size() && t < 2; ++t) {
            const auto& tile = b.tiles()[t];
            out += "  tile " + std::to_string(t) + " makes " + tiling::regionToString(tile.anchor) + "\n";
            for (const auto& [v, r] : tile.loads) out += "    load  " + s.graph.value(v).name + " " + tiling::regionToString(r) + "\n";
            for (const auto& [v, r] : tile.stores) out += "    store " + s.graph.value(v).name + " " + tiling::regionToString(r) + "\n";
        }
        if (b.tiles().size() > 2) out += "  ... " + std::to_string(b.tiles().size() - 2) + " more tiles\n";
    }
    return out;
}

std::string dumpDram(const CompileState& s) {
    std::string out = "DRAM plan: " + formatBytes(s.program.dramBytes) + "\n";
    for (const DramBuffer& b : s.program.dram)
        out += "  @" + std::to_string(b.offset) + " " + formatBytes(b.bytes) + " " + dramRoleName(b.role) + " " +
               s.graph.value(b.value).name + " [blocks " + std::to_string(b.firstBlock) + ".." +
               std::to_string(b.lastBlock) + "]\n";
    return out;
}

std::string dumpDistribution(const CompileState& s) {
    std::string out;
    for (const TiledBlock& b : s.blocks) {
        std::vector<int> cores = b.coreOfTile;
        std::sort(cores.begin(), cores.end());
        cores.erase(std::unique(cores.begin(), cores.end()), cores.end());
        out += schedule::blockName(b.block.id) + ": " + std::to_string(b.tiles().size()) + " tiles on cores";
        for (int c : cores) out += " " + std::to_string(c);
        out += "\n";
    }
    return out;
}

std::string dumpProgram(const CompileState& s) { return emitAssembly(s.program, s.graph); }

std::string dumpVerify(const CompileState& s) {
    return s.failed() ? "verifier: errors\n" : "verifier: ok (" + std::to_string(s.program.instructions.size()) + " instructions)\n";
}

} // namespace

const std::vector<Pass>& passes() {
    static const std::vector<Pass> list = {
        {"tile-blocks", "tile each block and plan every tile by bounds inference", tileBlocks, dumpTiles},
        {"plan-dram", "give tensors between blocks a DRAM home, reusing space by lifetime", planDram, dumpDram},
        {"distribute-tiles", "spread each block's tiles over its mp cores", distributeTiles, dumpDistribution},
        {"insert-transfers", "write per-core streams: loads, waits, computes (elementwise epilogues fused), stores, barriers", insertTransfers, dumpProgram},
        {"verify", "check waits, working-memory use, tags and DRAM order", verify, dumpVerify},
    };
    return list;
}

Expected<CompileResult> compile(const ir::Graph& graph, const target::Target& target, const schedule::Schedule& schedule,
                                const CompileOptions& options) {
    auto proceed = [&](int step, const std::string& name) { return !options.proceed || options.proceed(step, name); };
    if (!proceed(0, "check")) return error("compile cancelled");
    CompileCache* cache = options.cache && options.cache->isFor(graph, target) ? options.cache : nullptr;
    // Whatever way this compile ends, the cache ages by one compile.
    struct EndCompile {
        CompileCache* cache;
        ~EndCompile() {
            if (cache) cache->endCompile();
        }
    } endCompile{cache};
    // An op no kernel can run is refused here, not half-way through a run (KernelCall.h).
    std::vector<Diagnostic> refused;
    for (const ir::Op& op : graph.ops)
        if (std::string why = runtimeRefusal(graph, op); !why.empty())
            refused.push_back(error(std::move(why), Location{.node = op.name}));
    if (!refused.empty())
        return refused;
    schedule::ScheduleCheck check = schedule::checkSchedule(schedule, graph, target, cache ? &cache->analysis() : nullptr);
    if (!check.valid()) return std::move(check.diagnostics);

    CompileState state{graph, target, schedule, std::move(check.analysis), {}, {}, {}};
    state.cache = cache;
    state.program.modelName = graph.name;
    state.program.modelHash = graph.contentHash;
    state.program.targetName = target.name;
    state.program.mainMemory = target.mainMemory;
    state.program.workingMemory = target.workingMemory;
    CompileResult result;
    auto wanted = [&](const std::string& name) {
        return std::any_of(options.dumpAfter.begin(), options.dumpAfter.end(),
                           [&](const std::string& d) { return d == name || d == "all"; });
    };
    int step = 1;
    for (const Pass& pass : passes()) {
        if (!proceed(step++, pass.name)) return error("compile cancelled");
        auto start = std::chrono::steady_clock::now();
        pass.run(state);
        PassRecord record;
        record.name = pass.name;
        record.milliseconds = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
        if (wanted(pass.name)) record.dump = pass.dump(state);
        result.passes.push_back(std::move(record));
        if (state.failed()) return std::move(state.diagnostics);
    }
    result.program = std::move(state.program);
    result.warnings = std::move(state.diagnostics);
    return result;
}

} // namespace strata::compiler
