// The background compile job: a sample compiles with every pass recorded and dumped, progress
// comes per step, a cancelled or superseded job reports nothing, a job stopped between passes
// says so, and bad input is a diagnostic.

#include "jobs/CompileJob.h"

#include "model/OnnxImporter.h"
#include "schedule/Strategies.h"
#include "support/GuiTestSupport.h"
#include "target/TargetLoader.h"

#include <QSignalSpy>
#include <gtest/gtest.h>

namespace strata::gui {
namespace {

class CompileJobTest : public ::testing::Test {
  protected:
    void SetUp() override {
        const QString path = test::samplePath("resnet_tiny.onnx");
        if (!QFileInfo::exists(path))
            FAIL() << "cannot open the committed sample";
        auto imported = model::importOnnxFile(path.toStdString());
        ASSERT_TRUE(imported.ok());
        auto revision = std::make_shared<Revision>();
        revision->graph = imported->graph;
        auto target = target::resolveTarget("mncore2");
        ASSERT_TRUE(target.ok());
        auto choice = std::make_shared<TargetChoice>();
        choice->key = QStringLiteral("mncore2");
        choice->target = std::make_shared<const target::Target>(std::move(*target));
        revision->target = choice;
        revision->schedule = std::make_shared<const schedule::Schedule>(
            schedule::makeSchedule(*revision->graph, *choice->target, schedule::Strategy::Rules));
        revision->number = 7;
        m_request = revision;
    }

    RevisionPtr m_request;
};

TEST_F(CompileJobTest, CompilesWithEveryPassRecordedAndDumped) {
    std::vector<std::string> steps;
    const CompileOutcome outcome =
        CompileJob::run(m_request, [&](int step, const std::string& name) {
            EXPECT_EQ(step, static_cast<int>(steps.size()));
            steps.push_back(name);
            return true;
        });
    ASSERT_TRUE(outcome.ok()) << (outcome.failure.empty() ? ""
                                                          : outcome.failure.front().toString());
    EXPECT_FALSE(outcome.cancelled);
    ASSERT_EQ(static_cast<int>(steps.size()), CompileJob::stepCount());
    EXPECT_EQ(steps.front(), "check");
    // The same program as the pipeline's own driver makes.
    auto reference =
        compiler::compile(*m_request->graph, *m_request->machine(), *m_request->schedule);
    ASSERT_TRUE(reference.ok());
    EXPECT_EQ(outcome.result->program.instructions.size(), reference->program.instructions.size());
    EXPECT_EQ(outcome.result->program.streams, reference->program.streams);
    ASSERT_EQ(outcome.result->passes.size(), compiler::passes().size());
    for (std::size_t i = 0; i < compiler::passes().size(); ++i) {
        EXPECT_EQ(outcome.result->passes[i].name, compiler::passes()[i].name);
        EXPECT_EQ(steps[i + 1], compiler::passes()[i].name);
        EXPECT_FALSE(outcome.result->passes[i].dump.empty());
    }
}

TEST_F(CompileJobTest, StopsBetweenPassesWhenToldTo) {
    const CompileOutcome outcome =
        CompileJob::run(m_request, [](int step, const std::string&) { return step < 3; });
    EXPECT_TRUE(outcome.cancelled);
    EXPECT_FALSE(outcome.ok());
    EXPECT_TRUE(outcome.failure.empty());
}

TEST_F(CompileJobTest, MissingInputIsADiagnostic) {
    const auto empty = std::make_shared<const Revision>();
    const CompileOutcome outcome =
        CompileJob::run(empty, [](int, const std::string&) { return true; });
    EXPECT_FALSE(outcome.ok());
    ASSERT_FALSE(outcome.failure.empty());
    EXPECT_EQ(outcome.failure.front().severity, Severity::Error);
}

TEST_F(CompileJobTest, ReportsProgressAndTheResultInTheBackground) {
    CompileJob job;
    QSignalSpy progress(&job, &CompileJob::progress);
    QSignalSpy finished(&job, &CompileJob::finished);
    const std::uint64_t generation = job.start(m_request);
    EXPECT_TRUE(job.isRunning());
    ASSERT_TRUE(finished.wait(test::kSettleTimeoutMs));
    EXPECT_FALSE(job.isRunning());
    const auto outcome = finished.at(0).at(0).value<CompileOutcome>();
    EXPECT_EQ(outcome.generation, generation);
    EXPECT_EQ(outcome.revision, m_request);
    EXPECT_TRUE(outcome.ok());
    JobRunner::instance().drain(); // queued progress may trail the result
    EXPECT_GE(progress.count(), 1);
    for (const auto& args : progress)
        EXPECT_EQ(args.at(1).toInt(), CompileJob::stepCount());
}

TEST_F(CompileJobTest, ACancelledOrSupersededJobReportsNothing) {
    CompileJob job;
    QSignalSpy finished(&job, &CompileJob::finished);
    job.start(m_request);
    job.cancel();
    EXPECT_FALSE(job.isRunning());
    JobRunner::instance().drain(); // the cancelled job, had it reported, has now
    EXPECT_EQ(finished.count(), 0);

    auto copy = std::make_shared<Revision>(*m_request);
    copy->number = 8;
    const RevisionPtr second = copy;
    job.start(m_request);
    job.start(second); // supersedes the first
    ASSERT_TRUE(finished.wait(test::kSettleTimeoutMs));
    JobRunner::instance().drain(); // the superseded job, had it reported, has now
    ASSERT_EQ(finished.count(), 1);
    EXPECT_EQ(finished.at(0).at(0).value<CompileOutcome>().revision, second);
}

} // namespace
} // namespace strata::gui
