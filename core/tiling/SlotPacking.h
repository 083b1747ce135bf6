#pragma once
// Packing a tile's buffers into working memory by lifetime. Schedule analysis and the compiler
// both use it, so the SRAM figure validate() checks is the one the compiler allocates.

#include <cstdint>
#include <vector>

namespace strata::tiling {

inline constexpr std::uint64_t kSramAlignment = 64;

std::uint64_t sramAligned(std::uint64_t bytes);

// A buffer live from op `from` to op `to` (positions among the ops a tile computes).
struct Lifetime {
    std::uint64_t bytes = 0; // aligned by the packer
    int from = 0;
    int to = 0;
};

struct Packing {
    std::vector<std::uint64_t> offsets; // per item, in the order given
    std::uint64_t extent = 0;
};

// First fit, largest first (ties keep the given order): each buffer goes at the lowest offset
// free of every buffer whose lifetime overlaps it.
Packing packByLifetime(const std::vector<Lifetime>& items);

} // namespace strata::tiling
