#pragma once
// The runtime's barrier: waiting cores spin (with the CPU's pause hint) for a bounded time before
// they block. The workers are pinned one per CPU, so a spinning core keeps nothing else from
// running, and the last core to arrive releases the others within a cache-line transfer instead
// of the tens of microseconds a futex wake-up takes (std::barrier blocks at once). A wait longer
// than the spin budget (a core far behind) blocks, so an overloaded machine is not starved.

#include <atomic>
#include <chrono>
#include <cstdint>

namespace strata::runtime {

class SpinBarrier {
  public:
    // `spin`: how long a waiting core spins before blocking; zero blocks at once.
    SpinBarrier(int count, std::chrono::nanoseconds spin);

    void arriveAndWait();

    // A spin budget for `count` workers: zero when they outnumber this computer's CPUs (a spinner
    // would then hold the CPU the core it waits for needs).
    static std::chrono::nanoseconds defaultSpin(int count);

  private:
    const int m_count;
    const std::int64_t m_spinNs;
    alignas(64) std::atomic<int> m_arrived{0};
    alignas(64) std::atomic<std::uint32_t> m_phase{0};
};

} // namespace strata::runtime
