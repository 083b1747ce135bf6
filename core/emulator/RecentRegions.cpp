#include "emulator/RecentRegions.h"

#include <algorithm>

namespace strata::emulator {

std::int64_t overlapElements(const tiling::Region& a, const tiling::Region& b) {
    if (a.size() != b.size())
        return 0;
    std::int64_t elements = 1;
    for (std::size_t d = 0; d < a.size(); ++d) {
        elements *= std::max<std::int64_t>(0, std::min(a[d].end, b[d].end) -
                                                  std::max(a[d].begin, b[d].begin));
        if (elements == 0)
            return 0;
    }
    return elements;
}

void forEachMainMemoryTransfer(
    const compiler::Program& program, const std::string& mainMemory, std::uint64_t capacityBytes,
    const std::function<void(compiler::InstrId, const compiler::Transfer&, const RecentRegions&)>&
        visit) {
    for (const std::vector<compiler::InstrId>& stream : program.streams) {
        std::uint64_t moved = 0;
        RecentRegions recent(capacityBytes);
        for (const compiler::InstrId id : stream) {
            const auto* t = std::get_if<compiler::Transfer>(&program.instructions[id].body);
            if (!t)
                continue;
            const bool store = t->destination.memory == mainMemory;
            if ((t->source.memory == mainMemory || store) && t->value.valid()) {
                recent.evict(moved);
                visit(id, *t, recent);
                recent.add(t->value.index, &t->region, store, moved + t->bytes);
            }
            moved += t->bytes;
        }
    }
}

void RecentRegions::evict(std::uint64_t moved) {
    m_now = moved;
    while (!m_order.empty() && moved - m_order.front().second > m_capacity) {
        // Each tensor's entries are in the same order as m_order's: its oldest is this one.
        auto it = m_byValue.find(m_order.front().first);
        it->second.pop_front();
        if (it->second.empty())
            m_byValue.erase(it);
        m_order.pop_front();
    }
}

void RecentRegions::add(std::uint32_t value, const tiling::Region* region, bool stored,
                        std::uint64_t movedAfter) {
    m_order.emplace_back(value, movedAfter);
    m_byValue[value].push_back({region, movedAfter, stored});
}

RecentRegions::Found RecentRegions::find(std::uint32_t value, const tiling::Region& region) const {
    Found found;
    const auto it = m_byValue.find(value);
    if (it == m_byValue.end())
        return found;
    std::uint64_t last = 0;
    bool any = false;
    for (const Entry& e : it->second) {
        const std::int64_t shared = overlapElements(*e.region, region);
        found.moved += shared;
        found.largest = std::max(found.largest, shared);
        if (e.stored)
            found.stored += shared;
        if (shared > 0) {
            last = any ? std::max(last, e.movedAfter) : e.movedAfter;
            any = true;
        }
    }
    if (any && m_now > last)
        found.distance = m_now - last;
    return found;
}

} // namespace strata::emulator
