// The one background-job runner: the newest start wins (an older job's outcome is dropped and its
// proceed() says no), a start made while a job runs waits and only the newest waiting one runs,
// cancel() drops the outcome, progress reaches the owner once per stage, an owner that is gone
// gets nothing, drain() delivers, and the runner's busy state follows its lanes.

#include "jobs/JobRunner.h"

#include <QObject>
#include <QSignalSpy>
#include <algorithm>
#include <atomic>
#include <gtest/gtest.h>
#include <memory>
#include <thread>

namespace strata::gui {
namespace {

// A gate a job waits at until the test opens it: a job is held running at a known point without
// any sleep deciding the order.
struct Gate {
    std::atomic<bool> open{false};
    std::atomic<bool> reached{false};

    void wait() {
        reached = true;
        while (!open)
            std::this_thread::yield();
    }
    void waitReached() const {
        while (!reached)
            std::this_thread::yield();
    }
};

class JobRunnerTest : public ::testing::Test {
  protected:
    void SetUp() override { JobRunner::instance().drain(); }
    void TearDown() override { JobRunner::instance().drain(); }

    QObject m_owner;
};

TEST_F(JobRunnerTest, DrainDeliversTheOutcome) {
    JobLane lane(&m_owner);
    int delivered = 0;
    const std::uint64_t generation =
        lane.start<int>([](const Proceed&) { return 42; }, [&](int value) { delivered = value; });
    EXPECT_EQ(generation, lane.generation());
    EXPECT_TRUE(lane.isRunning());
    JobRunner::instance().drain();
    EXPECT_EQ(delivered, 42);
    EXPECT_FALSE(lane.isRunning());
    EXPECT_FALSE(JobRunner::instance().isBusy());
}

TEST_F(JobRunnerTest, ANewerStartDropsTheOlderOutcomeAndStopsIt) {
    JobLane lane(&m_owner);
    Gate gate;
    std::atomic<bool> olderSawStop{false};
    std::vector<int> delivered;
    lane.start<int>(
        [&](const Proceed& proceed) {
            gate.wait();
            olderSawStop = !proceed(QStringLiteral("after the gate"));
            return 1;
        },
        [&](int value) { delivered.push_back(value); });
    gate.waitReached();
    lane.start<int>([](const Proceed&) { return 2; },
                    [&](int value) { delivered.push_back(value); });
    gate.open = true;
    JobRunner::instance().drain();
    EXPECT_TRUE(olderSawStop);
    EXPECT_EQ(delivered, std::vector<int>{2});
}

TEST_F(JobRunnerTest, OnlyTheNewestWaitingStartRuns) {
    JobLane lane(&m_owner);
    Gate gate;
    std::atomic<int> ran{0};
    std::vector<int> delivered;
    auto record = [&](int value) { delivered.push_back(value); };
    lane.start<int>(
        [&](const Proceed&) {
            gate.wait();
            ran += 1;
            return 1;
        },
        record);
    gate.waitReached();
    lane.start<int>(
        [&](const Proceed&) {
            ran += 10;
            return 2;
        },
        record);
    lane.start<int>(
        [&](const Proceed&) {
            ran += 100;
            return 3;
        },
        record);
    gate.open = true;
    JobRunner::instance().drain();
    EXPECT_EQ(ran, 101); // the middle start was superseded before it began
    EXPECT_EQ(delivered, std::vector<int>{3});
}

TEST_F(JobRunnerTest, CancelDropsTheOutcomeAndEndsBusyAtOnce) {
    JobLane lane(&m_owner);
    Gate gate;
    std::atomic<bool> sawStop{false};
    bool delivered = false;
    lane.start<int>(
        [&](const Proceed& proceed) {
            gate.wait();
            sawStop = !proceed(QStringLiteral("step"));
            return 0;
        },
        [&](int) { delivered = true; });
    gate.waitReached();
    EXPECT_TRUE(JobRunner::instance().isBusy());
    lane.cancel();
    EXPECT_FALSE(lane.isRunning());
    EXPECT_FALSE(JobRunner::instance().isBusy());
    gate.open = true;
    JobRunner::instance().drain();
    EXPECT_TRUE(sawStop);
    EXPECT_FALSE(delivered);
}

TEST_F(JobRunnerTest, BusyChangedFollowsTheJobs) {
    QSignalSpy busy(&JobRunner::instance(), &JobRunner::busyChanged);
    JobLane first(&m_owner);
    JobLane second(&m_owner);
    first.start<int>([](const Proceed&) { return 1; }, [](int) {});
    second.start<int>([](const Proceed&) { return 2; }, [](int) {});
    EXPECT_TRUE(JobRunner::instance().isBusy());
    JobRunner::instance().drain();
    EXPECT_FALSE(JobRunner::instance().isBusy());
    // One rise for both lanes, one fall once both delivered.
    ASSERT_EQ(busy.count(), 2);
    EXPECT_TRUE(busy.at(0).at(0).toBool());
    EXPECT_FALSE(busy.at(1).at(0).toBool());
}

TEST_F(JobRunnerTest, ProgressReachesTheOwnerOncePerStage) {
    JobLane lane(&m_owner);
    QStringList stages;
    lane.start<int>(
        [](const Proceed& proceed) {
            for (const char* stage : {"compile", "compile", "emulate", "emulate"})
                if (!proceed(QString::fromLatin1(stage)))
                    return -1;
            return 0;
        },
        [](int) {}, [&](const QString& stage) { stages << stage; });
    JobRunner::instance().drain();
    EXPECT_EQ(stages, (QStringList{QStringLiteral("compile"), QStringLiteral("emulate")}));
}

TEST_F(JobRunnerTest, AnOwnerThatIsGoneGetsNothing) {
    auto owner = std::make_unique<QObject>();
    bool delivered = false;
    JobRunner::instance().runOnce<int>(
        owner.get(), [] { return 1; }, [&](int) { delivered = true; });
    owner.reset();
    JobRunner::instance().drain();
    EXPECT_FALSE(delivered);
    EXPECT_FALSE(JobRunner::instance().isBusy());
}

TEST_F(JobRunnerTest, IndependentJobsAllDeliver) {
    std::vector<int> delivered;
    for (int i = 0; i < 3; ++i)
        JobRunner::instance().runOnce<int>(
            &m_owner, [i] { return i; }, [&](int value) { delivered.push_back(value); });
    JobRunner::instance().drain();
    std::sort(delivered.begin(), delivered.end());
    EXPECT_EQ(delivered, (std::vector<int>{0, 1, 2}));
}

TEST_F(JobRunnerTest, BusyMarkCountsWorkOutsideThePool) {
    BusyMark mark;
    mark.set(true);
    EXPECT_TRUE(JobRunner::instance().isBusy());
    mark.set(false);
    EXPECT_FALSE(JobRunner::instance().isBusy());
}

} // namespace
} // namespace strata::gui
