#include "runtime/SpinBarrier.h"

#include <thread>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace strata::runtime {
namespace {

// Tells the CPU this is a spin loop: it saves power and yields the pipeline to a hyper-thread sibling.
inline void pause() {
#if defined(__x86_64__) || defined(__i386__)
    _mm_pause();
#elif defined(__aarch64__)
    asm volatile("yield");
#endif
}

std::int64_t nowNs() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

// Spin at most this long: past it the wait is a core far behind, whose wake-up latency is small
// next to the wait itself.
constexpr std::chrono::nanoseconds kSpin = std::chrono::milliseconds(2);

} // namespace

SpinBarrier::SpinBarrier(int count, std::chrono::nanoseconds spin) : m_count(count), m_spinNs(spin.count()) {}

std::chrono::nanoseconds SpinBarrier::defaultSpin(int count) {
    const unsigned cpus = std::thread::hardware_concurrency();
    return cpus != 0 && static_cast<unsigned>(count) <= cpus ? kSpin : std::chrono::nanoseconds(0);
}

void SpinBarrier::arriveAndWait() {
    const std::uint32_t phase = m_phase.load(std::memory_order_acquire);
    if (m_arrived.fetch_add(1, std::memory_order_acq_rel) + 1 == m_count) {
        // Reset before the release: a core can arrive at the next barrier only after it sees the new phase.
        m_arrived.store(0, std::memory_order_relaxed);
        m_phase.store(phase + 1, std::memory_order_release);
        m_phase.notify_all();
        return;
    }
    if (m_spinNs > 0) {
        const std::int64_t deadline = nowNs() + m_spinNs;
        for (unsigned i = 1; m_phase.load(std::memory_order_acquire) == phase; ++i) {
            pause();
            // Reading the clock costs more than a pause: look at it every 256 rounds.
            if (i % 256 == 0 && nowNs() > deadline) break;
        }
    }
    while (m_phase.load(std::memory_order_acquire) == phase) m_phase.wait(phase, std::memory_order_acquire);
}

} // namespace strata::runtime
