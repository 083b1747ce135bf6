#pragma once
// Two cores' copies slowing each other down (target::TransferPath::concurrentSlowdown): while
// another core moves a large transfer on path q, a large transfer on path p moves at its own
// rate / S[p][q] (the largest such factor when other cores use several paths); large is at least
// the core's private cache (slows). Calibration measures it with the contention programs
// (calibrate/ConcurrentSlowdownFit.h): on the development host two cores' 64 KiB-1 MiB copies
// run ~1.4x slower each than one core's, a slowdown no shared bandwidth accounts for. In models
// only transfers past the private cache showed it: smaller ones ran at their own rates beside
// the other core's (docs/ACCURACY.md, "Two cores' transfers").

#include "target/Target.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace strata::emulator {

class ConcurrentSlowdown {
  public:
    ConcurrentSlowdown(const target::Target& target, int cores);

    // True when some path slows down beside another core's transfers.
    bool any() const { return m_any; }

    // True when a transfer of `bytes` slows down (and slows others down): one at least as large
    // as the core's private cache (target::Target::privateCacheBytes; any when unknown).
    bool slows(std::uint64_t bytes) const { return m_any && bytes >= m_minBytes; }

    // A transfer of `core` started (+1) or stopped (-1) moving bytes on `path`. True when that
    // changed whether the core moves anything on the path (other cores' factors may change).
    bool moving(int core, std::size_t path, int change);

    // The factor a transfer of `core` on `path` moves slower by now (1: none).
    double factor(int core, std::size_t path) const;

  private:
    std::size_t m_paths = 0;
    bool m_any = false;
    std::uint64_t m_minBytes = 0;
    std::vector<double> m_factor; // [path * paths + other path]
    std::vector<int> m_moving;    // [core * paths + path]: transfers moving
    std::vector<int> m_cores;     // [path]: cores with a transfer moving on it
};

} // namespace strata::emulator
