#pragma once
// A layout reorder's cost per byte of its boxes beyond the core's private cache
// (compute.overhead_cycles.reorder_far_byte, emulator::reorderFarBytes): boxes that fit are
// rewritten in that cache at the data-movement figure, larger ones go through the shared cache.
// On the host a reorder of boxes under 1 MiB ran at 6.4 B/ns, one of 4 MiB and more at 3.4-4.2
// (docs/ACCURACY.md, "Reorders past the private cache").

#include <cstddef>
#include <vector>

namespace strata::calibrate {

// One reorder measured: its output elements, the bytes of its boxes (read and written) and its
// cycles.
struct ReorderSample {
    double elements = 0;
    double boxBytes = 0;
    double cycles = 0;
};

// Per shape (elements, box bytes) whose boxes exceed `privateCacheBytes`: its median cycles less
// what the target charges it within the cache (`overheadCycles` + elements / `perCycle`, the
// data-movement throughput), over its bytes beyond the cache; the median over those shapes, at
// least 0. 0 with fewer than kMinFarReorderShapes such shapes, or without a throughput or cache.
inline constexpr std::size_t kMinFarReorderShapes = 2;
double fitReorderFarByteCycles(const std::vector<ReorderSample>& samples, double overheadCycles,
                               double perCycle, double privateCacheBytes);

} // namespace strata::calibrate
