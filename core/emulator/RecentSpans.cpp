#include "emulator/RecentSpans.h"

#include <algorithm>
#include <iterator>

namespace strata::emulator {

void RecentSpans::touch(std::uint64_t begin, std::uint64_t end, std::uint64_t movedAfter) {
    if (end <= begin)
        return;
    // The piece that starts before `begin` and reaches into the span keeps its head; one that
    // ends past `end` keeps its tail; everything between goes.
    auto it = m_pieces.lower_bound(begin);
    if (it != m_pieces.begin()) {
        auto before = std::prev(it);
        if (before->second.end > begin) {
            const Piece old = before->second;
            before->second.end = begin;
            if (old.end > end)
                m_pieces.emplace(end, Piece{old.end, old.movedAfter});
        }
    }
    it = m_pieces.lower_bound(begin);
    while (it != m_pieces.end() && it->first < end) {
        if (it->second.end > end) {
            const Piece tail = it->second;
            it = m_pieces.erase(it);
            m_pieces.emplace_hint(it, end, tail);
            break;
        }
        it = m_pieces.erase(it);
    }
    m_pieces.emplace(begin, Piece{end, movedAfter});
    forget(movedAfter);
}

void RecentSpans::forget(std::uint64_t moved) {
    // Bounded work per call: a sweep only when the map has doubled since the last one.
    if (m_pieces.size() < 2 * m_sweptAt + 64)
        return;
    std::erase_if(m_pieces,
                  [&](const auto& p) { return moved - p.second.movedAfter > m_capacity; });
    m_sweptAt = m_pieces.size();
}

double RecentSpans::residentShare(std::uint64_t begin, std::uint64_t end,
                                  std::uint64_t moved) const {
    if (end <= begin)
        return 0;
    auto it = m_pieces.upper_bound(begin);
    if (it != m_pieces.begin())
        --it;
    std::uint64_t recent = 0;
    for (; it != m_pieces.end() && it->first < end; ++it) {
        const std::uint64_t lo = std::max(begin, it->first), hi = std::min(end, it->second.end);
        if (hi > lo && moved - it->second.movedAfter <= m_capacity)
            recent += hi - lo;
    }
    return double(recent) / double(end - begin);
}

std::uint64_t RecentSpans::distance(std::uint64_t begin, std::uint64_t end,
                                    std::uint64_t moved) const {
    auto it = m_pieces.upper_bound(begin);
    if (it != m_pieces.begin())
        --it;
    std::uint64_t nearest = moved;
    for (; it != m_pieces.end() && it->first < end; ++it)
        if (std::min(end, it->second.end) > std::max(begin, it->first) &&
            moved - it->second.movedAfter <= m_capacity)
            nearest = std::min(nearest, moved - it->second.movedAfter);
    return nearest == moved ? 0 : nearest;
}

} // namespace strata::emulator
