#include "compiler/TileLayout.h"

#include "compiler/EpilogueRule.h"
#include "tiling/SlotPacking.h"

#include <algorithm>
#include <unordered_map>

namespace strata::compiler {

const TileLayout::Placed* TileLayout::find(std::uint32_t value) const {
    auto it = std::lower_bound(placed.begin(), placed.end(), value,
                               [](const Placed& p, std::uint32_t v) { return p.value < v; });
    return it != placed.end() && it->value == value ? &*it : nullptr;
}

namespace {

using Births = std::unordered_map<std::uint32_t, int>; // value index -> the position that makes it

// `births`: values that count as made earlier than by their op: the output of an op that may
// run as an epilogue of a compute in this tile (EpilogueRule.h) counts as made by that compute,
// so it shares no bytes with the compute's operands or anything live in between, and the fused
// compute can write it in place.
TileLayout layout(const ir::Graph& g, const tiling::TilePlan& tile, const std::vector<ir::ValueId>& resident,
                  const Births& births) {
    const int n = static_cast<int>(tile.ops.size());
    std::unordered_map<std::uint32_t, int> lastUse, producedAt;
    for (int p = 0; p < n; ++p) {
        const ir::Op& op = g.op(tile.ops[static_cast<std::size_t>(p)]);
        for (ir::ValueId in : op.inputs)
            if (in.valid()) lastUse[in.index] = p;
        for (ir::ValueId out : op.outputs)
            if (out.valid()) producedAt[out.index] = p;
    }
    for (const auto& [value, p] : births) producedAt[value] = p;
    auto stored = [&](ir::ValueId v) {
        return std::any_of(tile.stores.begin(), tile.stores.end(), [&](const auto& s) { return s.first == v; });
    };
    auto lastUseOf = [&](ir::ValueId v, int otherwise) {
        auto it = lastUse.find(v.index);
        return it == lastUse.end() ? otherwise : it->second;
    };

    TileLayout layout;
    std::vector<tiling::Lifetime> items;
    for (const auto& [v, r] : tile.loads) {
        if (std::find(resident.begin(), resident.end(), v) != resident.end()) continue;
        layout.placed.push_back({v.index, 0, r});
        items.push_back({tiling::regionBytes(r, g.value(v).dtype), 0, lastUseOf(v, 0)});
    }
    for (const auto& [v, r] : tile.computed) {
        auto produced = producedAt.find(v.index);
        const int from = produced == producedAt.end() ? 0 : produced->second;
        const int to = stored(v) ? n - 1 : std::max(from, lastUseOf(v, from));
        layout.placed.push_back({v.index, 0, r});
        items.push_back({tiling::regionBytes(r, g.value(v).dtype), from, to});
    }
    const tiling::Packing packing = tiling::packByLifetime(items);
    for (std::size_t i = 0; i < layout.placed.size(); ++i) layout.placed[i].offset = packing.offsets[i];
    layout.extent = packing.extent;
    // A value both loaded and computed keeps its last entry, as the map this replaced did.
    std::stable_sort(layout.placed.begin(), layout.placed.end(),
                     [](const auto& a, const auto& b) { return a.value < b.value; });
    for (std::size_t i = layout.placed.size(); i-- > 1;)
        if (layout.placed[i - 1].value == layout.placed[i].value) layout.placed.erase(layout.placed.begin() + static_cast<std::ptrdiff_t>(i - 1));
    return layout;
}

// Every epilogue step the tile could fuse, in op order: its output's index and the position of
// the compute leading its chain. The chain stops at a stored intermediate or an op elsewhere.
std::vector<std::pair<std::uint32_t, int>> epilogueSteps(const ir::Graph& g, const tiling::TilePlan& tile) {
    std::vector<std::pair<std::uint32_t, int>> out;
    std::unordered_map<std::uint32_t, int> positionOf;
    const int n = static_cast<int>(tile.ops.size());
    for (int p = 0; p < n; ++p) positionOf[tile.ops[static_cast<std::size_t>(p)].index] = p;
    auto stored = [&](ir::ValueId v) {
        return std::any_of(tile.stores.begin(), tile.stores.end(), [&](const auto& s) { return s.first == v; });
    };
    for (int p = 0; p < n; ++p) {
        const ir::Op* producer = &g.op(tile.ops[static_cast<std::size_t>(p)]);
        if (!takesEpilogues(*producer)) continue;
        for (const ir::Op* next = epilogueConsumer(g, *producer); next && !stored(producer->outputs[0]);
             next = epilogueConsumer(g, *producer)) {
            if (!positionOf.contains(g.value(producer->outputs[0]).consumers.front().index)) break;
            out.emplace_back(next->outputs[0].index, p);
            producer = next;
        }
    }
    return out;
}

} // namespace

TileLayout layoutTile(const ir::Graph& g, const tiling::TilePlan& tile, const std::vector<ir::ValueId>& resident,
                      std::uint64_t roomBytes) {
    // Each fused epilogue step, greedily in op order, where the slot stays within the room.
    Births births;
    TileLayout best = layout(g, tile, resident, births);
    const std::uint64_t budget = std::max(best.extent, roomBytes);
    for (const auto& [value, position] : epilogueSteps(g, tile)) {
        births[value] = position;
        TileLayout tried = layout(g, tile, resident, births);
        if (tried.extent <= budget)
            best = std::move(tried);
        else
            births.erase(value);
    }
    return best;
}

} // namespace strata::compiler
