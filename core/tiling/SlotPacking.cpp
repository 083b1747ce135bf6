#include "tiling/SlotPacking.h"

#include <algorithm>
#include <numeric>

namespace strata::tiling {

std::uint64_t sramAligned(std::uint64_t bytes) { return (bytes + kSramAlignment - 1) / kSramAlignment * kSramAlignment; }

Packing packByLifetime(const std::vector<Lifetime>& items) {
    Packing packing;
    packing.offsets.assign(items.size(), 0);
    std::vector<std::size_t> order(items.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return items[a].bytes > items[b].bytes; });
    std::vector<std::size_t> placed;
    std::vector<std::pair<std::uint64_t, std::uint64_t>> taken;
    for (std::size_t i : order) {
        const Lifetime& item = items[i];
        const std::uint64_t bytes = sramAligned(item.bytes);
        taken.clear();
        for (std::size_t p : placed)
            if (items[p].from <= item.to && item.from <= items[p].to)
                taken.emplace_back(packing.offsets[p], packing.offsets[p] + sramAligned(items[p].bytes));
        std::sort(taken.begin(), taken.end());
        std::uint64_t offset = 0;
        for (auto [begin, end] : taken) {
            if (offset + bytes <= begin) break;
            offset = std::max(offset, end);
        }
        packing.offsets[i] = offset;
        packing.extent = std::max(packing.extent, offset + bytes);
        placed.push_back(i);
    }
    return packing;
}

} // namespace strata::tiling
