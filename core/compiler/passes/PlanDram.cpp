#include "compiler/passes/PlanDram.h"

#include "tiling/DramLayouts.h"

#include <algorithm>
#include <map>

namespace strata::compiler {
namespace {

constexpr std::uint64_t kAlignment = 64;

std::uint64_t aligned(std::uint64_t bytes) { return (bytes + kAlignment - 1) / kAlignment * kAlignment; }

bool overlaps(const DramBuffer& a, const DramBuffer& b) {
    return a.firstBlock <= b.lastBlock && b.firstBlock <= a.lastBlock;
}

} // namespace

void planDram(CompileState& state) {
    const ir::Graph& g = state.graph;
    const int end = static_cast<int>(state.blocks.size());
    std::map<std::uint32_t, DramBuffer> buffers; // by value index: deterministic order
    auto touch = [&](ir::ValueId v, int position, bool writes) {
        auto [it, fresh] = buffers.try_emplace(v.index);
        DramBuffer& b = it->second;
        if (fresh) {
            b.value = v;
            b.bytes = g.value(v).bytes();
            const ir::Value& value = g.value(v);
            bool isInput = std::find(g.inputs.begin(), g.inputs.end(), v) != g.inputs.end();
            b.role = value.isConstant ? DramBuffer::Role::Weight
                     : isInput        ? DramBuffer::Role::Input
                                      : DramBuffer::Role::Intermediate;
            b.firstBlock = b.role == DramBuffer::Role::Intermediate ? position : -1;
            b.lastBlock = position;
        }
        if (writes) b.firstBlock = std::min(b.firstBlock, position);
        b.lastBlock = std::max(b.lastBlock, position);
    };
    for (int p = 0; p < end; ++p) {
        const TiledBlock& block = state.blocks[static_cast<std::size_t>(p)];
        for (const auto& tile : block.tiles()) {
            for (const auto& [value, region] : tile.loads) touch(value, p, false);
            for (const auto& [value, region] : tile.stores) touch(value, p, true);
        }
    }
    for (ir::ValueId out : g.outputs) {
        if (!buffers.count(out.index)) continue;
        DramBuffer& b = buffers[out.index];
        b.role = DramBuffer::Role::Output;
        b.lastBlock = end;
    }
    const std::vector<int> layouts = tiling::chooseDramLayouts(g, state.target.channelGranule);
    for (auto& [index, b] : buffers)
        if (b.role == DramBuffer::Role::Intermediate)
            b.layout = layouts[index];
    for (auto& [index, b] : buffers)
        if (b.role != DramBuffer::Role::Intermediate) {
            b.firstBlock = -1;
            b.lastBlock = end;
        }

    // First fit, largest first; ties by value index so the plan is deterministic.
    std::vector<DramBuffer> order;
    for (auto& [index, b] : buffers) order.push_back(b);
    std::stable_sort(order.begin(), order.end(), [](const DramBuffer& a, const DramBuffer& b) { return a.bytes > b.bytes; });
    std::vector<DramBuffer> placed;
    std::uint64_t extent = 0;
    for (DramBuffer b : order) {
        std::vector<std::pair<std::uint64_t, std::uint64_t>> taken; // [begin, end) of live overlaps
        for (const DramBuffer& p : placed)
            if (overlaps(p, b)) taken.emplace_back(p.offset, p.offset + aligned(p.bytes));
        std::sort(taken.begin(), taken.end());
        std::uint64_t offset = 0;
        for (auto [begin, stop] : taken) {
            if (offset + aligned(b.bytes) <= begin) break;
            offset = std::max(offset, stop);
        }
        b.offset = offset;
        extent = std::max(extent, offset + aligned(b.bytes));
        placed.push_back(b);
    }
    std::sort(placed.begin(), placed.end(), [](const DramBuffer& a, const DramBuffer& b) { return a.offset < b.offset || (a.offset == b.offset && a.value < b.value); });
    state.program.dram = std::move(placed);
    state.program.dramBytes = extent;
    if (const target::MemorySpace* main = state.target.findMemory(state.target.mainMemory);
        main && extent > main->capacityBytes)
        state.diagnostics.push_back(error("the DRAM plan needs " + std::to_string(extent) + " bytes; '" + main->name +
                                          "' holds " + std::to_string(main->capacityBytes)));
}

} // namespace strata::compiler
