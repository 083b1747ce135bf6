#pragma once
// The main-memory bytes one core moved (loaded or stored) recently enough to still be in its
// cache, by address: the reuse-distance model of RecentRegions.h for stores, whose destination
// is a new tensor's region but often lines the core has just read or written under another
// tensor (a freed buffer reused). Walking the core's stream in order and counting the bytes it
// moves, a byte stays until the core has moved more bytes since than its working memory holds.

#include <cstddef>
#include <cstdint>
#include <map>

namespace strata::emulator {

class RecentSpans {
  public:
    explicit RecentSpans(std::uint64_t capacityBytes) : m_capacity(capacityBytes) {}

    // Bytes [begin, end) moved, the core's count of moved bytes reading `movedAfter`: they
    // replace whatever was recorded for those addresses.
    void touch(std::uint64_t begin, std::uint64_t end, std::uint64_t movedAfter);
    // The share of [begin, end) still recent when the core's count reads `moved`; 0 for an empty
    // span.
    double residentShare(std::uint64_t begin, std::uint64_t end, std::uint64_t moved) const;
    // Bytes moved since any of [begin, end) was last moved, the core's count reading `moved`
    // (the reuse distance of its most recent bytes); 0 when none is recent.
    std::uint64_t distance(std::uint64_t begin, std::uint64_t end, std::uint64_t moved) const;

  private:
    struct Piece {
        std::uint64_t end;
        std::uint64_t movedAfter;
    };
    // Drops the pieces out of reach, now and then (when the map has doubled since).
    void forget(std::uint64_t moved);

    std::uint64_t m_capacity;
    std::map<std::uint64_t, Piece> m_pieces; // disjoint, by their first byte
    std::size_t m_sweptAt = 0;
};

} // namespace strata::emulator
