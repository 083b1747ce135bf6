// The runtime's barrier: no core passes a barrier before every core reached it, phase after
// phase, both when waiting cores spin and when they block at once.
#include "runtime/SpinBarrier.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

namespace strata::runtime {
namespace {

// Each worker counts its arrivals at phase p into arrived[p], then after the barrier checks that
// every worker counted in: a core released early sees a count below the worker count.
void checkPhases(int workers, std::chrono::nanoseconds spin, int phases) {
    SpinBarrier barrier(workers, spin);
    std::vector<std::atomic<int>> arrived(static_cast<std::size_t>(phases));
    std::atomic<int> early{0};
    std::vector<std::thread> threads;
    for (int w = 0; w < workers; ++w)
        threads.emplace_back([&, w] {
            for (int p = 0; p < phases; ++p) {
                // Uneven arrival: a different worker is late at each phase.
                if (p % workers == w) std::this_thread::yield();
                arrived[static_cast<std::size_t>(p)].fetch_add(1);
                barrier.arriveAndWait();
                if (arrived[static_cast<std::size_t>(p)].load() != workers) early.fetch_add(1);
            }
        });
    for (std::thread& t : threads) t.join();
    EXPECT_EQ(early.load(), 0);
    for (int p = 0; p < phases; ++p) EXPECT_EQ(arrived[static_cast<std::size_t>(p)].load(), workers) << "phase " << p;
}

TEST(SpinBarrier, NoWorkerPassesBeforeAllArriveWhenSpinning) {
    checkPhases(2, std::chrono::milliseconds(1), 2000);
}

TEST(SpinBarrier, NoWorkerPassesBeforeAllArriveWhenBlocking) {
    checkPhases(3, std::chrono::nanoseconds(0), 500);
}

TEST(SpinBarrier, ASingleWorkerNeverWaits) {
    SpinBarrier barrier(1, std::chrono::milliseconds(1));
    for (int i = 0; i < 10; ++i) barrier.arriveAndWait();
    SUCCEED();
}

TEST(SpinBarrier, MoreWorkersThanCpusBlockAtOnce) {
    const int cpus = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    EXPECT_EQ(SpinBarrier::defaultSpin(cpus + 1).count(), 0);
    EXPECT_GT(SpinBarrier::defaultSpin(1).count(), 0);
}

} // namespace
} // namespace strata::runtime
