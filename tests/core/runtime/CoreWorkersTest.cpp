// The runtime's workers: every core's job runs once per run, all at once, on threads kept from
// one run to the next, and two callers' runs never overlap.
#include "runtime/CoreWorkers.h"

#include <atomic>
#include <chrono>
#include <gtest/gtest.h>
#include <thread>
#include <vector>

namespace strata::runtime {
namespace {

// Runs `cores` jobs that each wait (up to 10 s) until every one has started: they return
// together only if they ran at the same time. Each job's thread id, by core.
std::vector<std::thread::id> runTogether(std::size_t cores) {
    std::atomic<std::size_t> started{0};
    std::vector<std::thread::id> ids(cores);
    std::vector<int> runs(cores, 0);
    CoreWorkers::shared().run(cores, [&](std::size_t core) {
        ids[core] = std::this_thread::get_id();
        ++runs[core];
        started.fetch_add(1);
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
        while (started.load() < cores && std::chrono::steady_clock::now() < deadline)
            std::this_thread::yield();
    });
    EXPECT_EQ(started.load(), cores);
    for (std::size_t core = 0; core < cores; ++core)
        EXPECT_EQ(runs[core], 1) << "core " << core;
    return ids;
}

TEST(CoreWorkers, EveryCoresJobRunsOnceAndAllAtOnce) {
    const std::vector<std::thread::id> ids = runTogether(2);
    EXPECT_NE(ids[0], ids[1]);
    EXPECT_NE(ids[0], std::this_thread::get_id());
}

TEST(CoreWorkers, TheSameThreadsRunEveryRunAndMoreAreAddedForMoreCores) {
    const std::vector<std::thread::id> two = runTogether(2);
    EXPECT_EQ(runTogether(2), two);
    const std::vector<std::thread::id> one = runTogether(1);
    EXPECT_EQ(one[0], two[0]);
    const std::vector<std::thread::id> three = runTogether(3);
    EXPECT_EQ(three[0], two[0]);
    EXPECT_EQ(three[1], two[1]);
    EXPECT_NE(three[2], two[0]);
    EXPECT_NE(three[2], two[1]);
}

TEST(CoreWorkers, TwoCallersRunsNeverOverlap) {
    // Every job of a run marks the run as its caller's; the run's last job clears the mark
    // before the run returns. A job that finds another caller's mark ran inside that run.
    std::atomic<int> owner{0};
    std::atomic<int> overlaps{0};
    auto caller = [&](int me) {
        for (int i = 0; i < 200; ++i) {
            std::atomic<int> left{2};
            CoreWorkers::shared().run(2, [&](std::size_t) {
                const int before = owner.exchange(me);
                if (before != 0 && before != me)
                    overlaps.fetch_add(1);
                std::this_thread::sleep_for(std::chrono::microseconds(20));
                if (owner.load() != me)
                    overlaps.fetch_add(1);
                if (left.fetch_sub(1) == 1)
                    owner.store(0);
            });
        }
    };
    std::thread a(caller, 1), b(caller, 2);
    a.join();
    b.join();
    EXPECT_EQ(overlaps.load(), 0);
}

TEST(CoreWorkers, NoCoresRunNothing) {
    bool ran = false;
    CoreWorkers::shared().run(0, [&](std::size_t) { ran = true; });
    EXPECT_FALSE(ran);
}

} // namespace
} // namespace strata::runtime
