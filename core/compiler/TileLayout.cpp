#include "compiler/TileLayout.h"

#include "tiling/SlotPacking.h"

#include <algorithm>
#include <unordered_map>

namespace strata::compiler {

const TileLayout::Placed* TileLayout::find(std::uint32_t value) const {
    auto it = std::lower_bound(placed.begin(), placed.end(), value,
                               [](const Placed& p, std::uint32_t v) { return p.value < v; });
    return it != placed.end() && it->value == value ? &*it : nullptr;
}

TileLayout layoutTile(const ir::Graph& g, const tiling::TilePlan& tile, const std::vector<ir::ValueId>& resident) {
    const int n = static_cast<int>(tile.ops.size());
    std::unordered_map<std::uint32_t, int> lastUse, producedAt;
    for (int p = 0; p < n; ++p) {
        const ir::Op& op = g.op(tile.ops[static_cast<std::size_t>(p)]);
        for (ir::ValueId in : op.inputs)
            if (in.valid()) lastUse[in.index] = p;
        for (ir::ValueId out : op.outputs)
            if (out.valid()) producedAt[out.index] = p;
    }
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

} // namespace strata::compiler
