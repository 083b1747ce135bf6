#pragma once
// The tensor regions one core moved (loaded or stored) recently enough to still be in its
// cache: a reuse-distance model (docs/EMULATOR.md, "Kinds of read"). Walking the core's stream in
// order and counting the bytes it moves, a region stays until the core has moved more bytes
// since than its working memory holds. Kept per tensor, so a lookup scans only that tensor's
// regions.

#include "compiler/Program.h"
#include "tiling/Region.h"

#include <cstdint>
#include <deque>
#include <functional>
#include <unordered_map>
#include <vector>

namespace strata::emulator {

class RecentRegions {
  public:
    explicit RecentRegions(std::uint64_t capacityBytes) : m_capacity(capacityBytes) {}

    // Forgets what the core moved more than its capacity ago (`moved`: its count of bytes moved).
    void evict(std::uint64_t moved);
    // A region of tensor `value` moved, by a store when `stored`, the count reading `movedAfter`.
    void add(std::uint32_t value, const tiling::Region* region, bool stored,
             std::uint64_t movedAfter);

    // Elements of `region` of `value` among the recent regions (overlaps summed): all of them,
    // and those stored.
    struct Found {
        std::int64_t moved = 0;
        std::int64_t stored = 0;
        // The most of them one region holds: unlike the sums, not counting twice the elements a
        // core loaded again (or stored, then loaded).
        std::int64_t largest = 0;
        // Bytes the core has moved since it last moved any of them (its count at the last
        // evict() less that move's); 0 when none is recent.
        std::uint64_t distance = 0;
    };
    Found find(std::uint32_t value, const tiling::Region& region) const;

  private:
    struct Entry {
        const tiling::Region* region;
        std::uint64_t movedAfter;
        bool stored;
    };
    std::uint64_t m_capacity;
    std::uint64_t m_now = 0; // the core's count of moved bytes at the last evict()
    std::deque<std::pair<std::uint32_t, std::uint64_t>>
        m_order; // (value, movedAfter), oldest first
    std::unordered_map<std::uint32_t, std::deque<Entry>> m_byValue;
};

// Walks each core's stream in order with what it moved recently: `visit(id, transfer, recent)` for
// every transfer between main memory and working memory, before the transfer joins `recent`.
void forEachMainMemoryTransfer(
    const compiler::Program& program, const std::string& mainMemory, std::uint64_t capacityBytes,
    const std::function<void(compiler::InstrId, const compiler::Transfer&, const RecentRegions&)>&
        visit);

// Elements two regions of one tensor share (0 when their ranks differ).
std::int64_t overlapElements(const tiling::Region& a, const tiling::Region& b);

} // namespace strata::emulator
