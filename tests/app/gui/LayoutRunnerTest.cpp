// Layouts in the background: through the strata-layout helper, an overview for big graphs,
// only the newest layout reports, and a helper that hangs, crashes, talks garbage or is
// missing never takes the app down.

#include "jobs/LayoutRunner.h"

#include "support/GuiTestSupport.h"

#include <QElapsedTimer>
#include <QProcess>
#include <QSignalSpy>
#include <gtest/gtest.h>

namespace strata::gui {
namespace {

constexpr int kLayoutTimeoutMs = 60'000;

std::string joined(const std::vector<Diagnostic>& diagnostics) {
    std::string out;
    for (const Diagnostic& d : diagnostics)
        out += d.toString() + "\n";
    return out;
}

LayoutJob jobFor(std::shared_ptr<const ir::Graph> graph) {
    LayoutJob job;
    job.graph = std::move(graph);
    return job;
}

// Waits until every stage the runner started has ended and been handled: its jobs on the job
// runner have delivered or been dropped, and each helper process it owns deletes itself once its
// result was, so with none left nothing more can arrive. A condition, not a sleep.
bool drained(LayoutRunner& runner) {
    test::drainTasks();
    return QTest::qWaitFor([&] { return runner.findChildren<QProcess*>().isEmpty(); },
                           kLayoutTimeoutMs);
}

// Runs `job` and returns its outcome (an empty one, with a test failure, on timeout).
LayoutOutcome runToEnd(LayoutRunner& runner, LayoutJob job) {
    QSignalSpy finished(&runner, &LayoutRunner::finished);
    const std::uint64_t generation = runner.start(std::move(job));
    EXPECT_TRUE(runner.isRunning());
    if (!QTest::qWaitFor([&] { return finished.count() > 0; }, kLayoutTimeoutMs)) {
        ADD_FAILURE() << "the layout did not finish";
        return {};
    }
    EXPECT_FALSE(runner.isRunning());
    auto outcome = finished.at(0).at(0).value<LayoutOutcome>();
    EXPECT_EQ(outcome.generation, generation);
    return outcome;
}

TEST(LayoutRunnerTest, LaysOutThroughTheHelper) {
    LayoutRunner runner;
    ASSERT_TRUE(QFileInfo(runner.helperPath()).isExecutable()) << runner.helperPath().toStdString();
    const auto graph = test::makeChainGraph(10);
    const LayoutOutcome outcome = runToEnd(runner, jobFor(graph));
    ASSERT_TRUE(outcome.ok()) << joined(outcome.diagnostics);
    EXPECT_EQ(outcome.graph, graph);
    EXPECT_FALSE(outcome.overview);
    EXPECT_EQ(outcome.layout->nodes.size(), 12u);
    EXPECT_EQ(outcome.layout->edges.size(), 11u);
    EXPECT_FALSE(hasErrors(outcome.diagnostics));
}

TEST(LayoutRunnerTest, ABigGraphGetsAnOverview) {
    LayoutRunner runner;
    LayoutJob job = jobFor(test::makeChainGraph(1600));
    job.overviewAbove = 1500;
    const LayoutOutcome outcome = runToEnd(runner, job);
    ASSERT_TRUE(outcome.ok()) << joined(outcome.diagnostics);
    EXPECT_TRUE(outcome.overview);
    EXPECT_TRUE(outcome.input.blocksAreChunks);
    EXPECT_FALSE(outcome.input.collapsedBlocks.empty());
    EXPECT_LE(outcome.layout->nodes.size(), 110u);
    EXPECT_NE(joined(outcome.diagnostics).find("overview"), std::string::npos)
        << joined(outcome.diagnostics);
}

TEST(LayoutRunnerTest, AnExpansionBeyondTheLimitIsRefused) {
    LayoutRunner runner;
    LayoutJob job = jobFor(test::makeChainGraph(100));
    job.allowOverview = false;
    job.limits.maxNodes = 50;
    const LayoutOutcome outcome = runToEnd(runner, job);
    EXPECT_FALSE(outcome.ok());
    EXPECT_NE(joined(outcome.diagnostics).find("limited to 50"), std::string::npos)
        << joined(outcome.diagnostics);
}

TEST(LayoutRunnerTest, OnlyTheNewestLayoutReports) {
    LayoutRunner runner;
    QSignalSpy finished(&runner, &LayoutRunner::finished);
    runner.start(jobFor(test::makeChainGraph(300)));
    runner.start(jobFor(test::makeChainGraph(40)));
    const auto newestGraph = test::makeChainGraph(5);
    const std::uint64_t newest = runner.start(jobFor(newestGraph));
    ASSERT_TRUE(QTest::qWaitFor([&] { return !runner.isRunning(); }, kLayoutTimeoutMs));
    ASSERT_TRUE(drained(runner)); // the stale stages have ended too: none reported
    ASSERT_EQ(finished.count(), 1);
    const auto outcome = finished.at(0).at(0).value<LayoutOutcome>();
    EXPECT_EQ(outcome.generation, newest);
    EXPECT_EQ(outcome.graph, newestGraph);
    EXPECT_TRUE(outcome.ok());
}

TEST(LayoutRunnerTest, ACancelledLayoutNeverReports) {
    LayoutRunner runner;
    QSignalSpy finished(&runner, &LayoutRunner::finished);
    runner.start(jobFor(test::makeChainGraph(300)));
    runner.cancel();
    EXPECT_FALSE(runner.isRunning());
    ASSERT_TRUE(drained(runner)); // its preparation finished and was dropped
    EXPECT_EQ(finished.count(), 0);
}

TEST(LayoutRunnerTest, AHangingHelperIsKilled) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    LayoutRunner runner;
    runner.setHelperPath(test::writeScript(dir, "hang", "exec sleep 60"));
    runner.setTimeoutMs(300);
    QElapsedTimer clock;
    clock.start();
    // Times out, falls back to the overview, which times out too.
    const LayoutOutcome outcome = runToEnd(runner, jobFor(test::makeChainGraph(10)));
    EXPECT_FALSE(outcome.ok());
    EXPECT_LT(clock.elapsed(), 20'000); // killed, not waited for
    const std::string text = joined(outcome.diagnostics);
    EXPECT_NE(text.find("took longer than 0.3 s"), std::string::npos) << text;
    EXPECT_NE(text.find("overview"), std::string::npos) << text;
}

TEST(LayoutRunnerTest, ACrashingHelperIsADiagnostic) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    LayoutRunner runner;
    runner.setHelperPath(test::writeScript(dir, "crash", "kill -SEGV $$"));
    LayoutJob job = jobFor(test::makeChainGraph(10));
    job.allowOverview = false;
    const LayoutOutcome outcome = runToEnd(runner, job);
    EXPECT_FALSE(outcome.ok());
    EXPECT_NE(joined(outcome.diagnostics).find("crashed"), std::string::npos)
        << joined(outcome.diagnostics);
}

TEST(LayoutRunnerTest, AGarbledReplyIsADiagnostic) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    LayoutRunner runner;
    runner.setHelperPath(
        test::writeScript(dir, "garbage", "cat > /dev/null; echo '{\"strata_layout\": 1, '"));
    LayoutJob job = jobFor(test::makeChainGraph(10));
    job.allowOverview = false;
    const LayoutOutcome outcome = runToEnd(runner, job);
    EXPECT_FALSE(outcome.ok());
    EXPECT_NE(joined(outcome.diagnostics).find("truncated JSON"), std::string::npos)
        << joined(outcome.diagnostics);
}

TEST(LayoutRunnerTest, WithoutTheHelperItLaysOutInTheApp) {
    LayoutRunner runner;
    runner.setHelperPath(QStringLiteral("/nonexistent/strata-layout"));
    const LayoutOutcome outcome = runToEnd(runner, jobFor(test::makeChainGraph(10)));
    ASSERT_TRUE(outcome.ok()) << joined(outcome.diagnostics);
    EXPECT_EQ(outcome.layout->nodes.size(), 12u);
    EXPECT_NE(joined(outcome.diagnostics).find("missing"), std::string::npos)
        << joined(outcome.diagnostics);
}

TEST(LayoutRunnerTest, AnEmptyGraphHasAnEmptyLayout) {
    LayoutRunner runner;
    auto empty = std::make_shared<ir::Graph>();
    empty->finalize();
    const LayoutOutcome outcome = runToEnd(runner, jobFor(empty));
    ASSERT_TRUE(outcome.ok()) << joined(outcome.diagnostics);
    EXPECT_TRUE(outcome.layout->nodes.empty());
}

TEST(LayoutRunnerTest, ABadPartitionIsADiagnostic) {
    LayoutRunner runner;
    LayoutJob job = jobFor(test::makeChainGraph(10));
    job.input.blockOfOp = {0, 1, 2};
    const LayoutOutcome outcome = runToEnd(runner, job);
    EXPECT_FALSE(outcome.ok());
    EXPECT_NE(joined(outcome.diagnostics).find("3 entries but the graph has 10 ops"),
              std::string::npos)
        << joined(outcome.diagnostics);
}

} // namespace
} // namespace strata::gui
