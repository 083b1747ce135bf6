// A project's saved run: saving after Run on Host writes the emulated and measured traces beside
// the project and references them; opening it in a new window brings the run back as the
// schedule's own (Timeline with both runs, the table's Measured and Error columns). A run of
// another schedule comes back as stale files in the Timeline only; a missing or malformed trace
// file is a diagnostic naming it, and the project still opens and stays usable.

#include "project/Project.h"
#include "runs/RunList.h"
#include "support/WindowFixture.h"
#include "tabs/CompareTab.h"
#include "tabs/TimelineTab.h"
#include "timeline/TimelineData.h"
#include "views/schedule/ScheduleTableModel.h"
#include "views/timeline/TimelineView.h"

#include <QFile>
#include <QSaveFile>
#include <QTemporaryDir>
#include <gtest/gtest.h>

namespace strata::gui {
namespace {

using Table = views::schedule::ScheduleTableModel;

using test::openProject;
using test::runOnHost;
using test::settle;

class ProjectTracesTest : public test::ProjectWindowFixture {
  protected:
    static bool openOnHost(MainWindow& window) {
        return test::openSample(window, "resnet_tiny.onnx", QStringLiteral("host"));
    }

    static bool edit(MainWindow& window) { return test::splitFirstFusedBlock(window); }

    static std::vector<trace::Source> timelineSources(const MainWindow& window) {
        std::vector<trace::Source> sources;
        if (const auto& data = window.timelineTab()->view()->data())
            for (const auto& t : data->traces())
                sources.push_back(t->source);
        return sources;
    }
};

TEST_F(ProjectTracesTest, ASavedRunComesBackWithTheProject) {
    if (!openOnHost(*m_window))
        FAIL() << "cannot open the committed sample";
    ASSERT_TRUE(runOnHost(*m_window));
    const auto run = m_window->measureController()->last();
    ASSERT_NE(run, nullptr);
    const QString path = m_dir.filePath(QStringLiteral("session.strata"));
    ASSERT_TRUE(m_window->projectController()->saveTo(path));

    // Beside the project, referenced from it with the schedule's fingerprint.
    const QString folder = path + QStringLiteral(".traces");
    EXPECT_TRUE(QFileInfo::exists(folder + QStringLiteral("/run-000-emulated.json")));
    EXPECT_TRUE(QFileInfo::exists(folder + QStringLiteral("/run-000-measured.json")));
    auto onDisk = project::loadProjectFile(path.toStdString());
    ASSERT_TRUE(onDisk.ok());
    ASSERT_EQ(onDisk->traces.size(), 2u);
    EXPECT_EQ(onDisk->traces[0].source, "emulated");
    EXPECT_EQ(onDisk->traces[1].source, "measured");
    EXPECT_FALSE(onDisk->traces[1].scheduleHash.empty());

    auto second = makeWindow();
    ASSERT_TRUE(openProject(*second, path));
    const MeasureController& measure = *second->measureController();
    ASSERT_NE(measure.last(), nullptr);
    EXPECT_TRUE(measure.isCurrent());
    EXPECT_EQ(measure.last()->measured.events, run->measured.events);
    EXPECT_EQ(measure.last()->emulation->trace.events, run->emulation->trace.events);
    // With the program compiled now (the same, instruction for instruction): Export works.
    EXPECT_NE(measure.last()->emulation->program, nullptr);
    EXPECT_EQ(timelineSources(*second), (std::vector{trace::Source::Emulated, trace::Source::Measured}));
    // The table's Measured column is filled from the saved run.
    const Table& table = *second->scheduleModel();
    int measuredRows = 0;
    for (int row = 0; row < table.rowCount(); ++row)
        measuredRows += !table.index(row, Table::MeasuredColumn).data().toString().isEmpty();
    EXPECT_GT(measuredRows, 0);

    // Saved again unchanged, the same files stay referenced.
    ASSERT_TRUE(second->projectController()->saveTo(path));
    auto again = project::loadProjectFile(path.toStdString());
    ASSERT_TRUE(again.ok());
    EXPECT_EQ(again->traces, onDisk->traces);
}

TEST_F(ProjectTracesTest, EveryRunIsSavedAndComesBackInTheRunList) {
    if (!openOnHost(*m_window))
        FAIL() << "cannot open the committed sample";
    ASSERT_TRUE(runOnHost(*m_window));
    const auto first = m_window->measureController()->last();
    ASSERT_TRUE(edit(*m_window));
    ASSERT_TRUE(runOnHost(*m_window));
    const auto second = m_window->measureController()->last();
    ASSERT_NE(first, second);
    const QString path = m_dir.filePath(QStringLiteral("two.strata"));
    ASSERT_TRUE(m_window->projectController()->saveTo(path));

    auto onDisk = project::loadProjectFile(path.toStdString());
    ASSERT_TRUE(onDisk.ok());
    ASSERT_EQ(project::runCount(onDisk->traces), 2);
    const auto runs = project::tracesByRun(onDisk->traces);
    // Each run with the schedule it ran: the edit made them differ.
    EXPECT_NE(runs[0].front().scheduleJson, runs[1].front().scheduleJson);
    EXPECT_NE(runs[0].front().scheduleHash, runs[1].front().scheduleHash);

    auto reopened = makeWindow();
    ASSERT_TRUE(openProject(*reopened, path));
    // Both runs in the Compare tab's list (a prediction and a measurement each), oldest first.
    const RunList& list = *reopened->compareTab()->runs();
    std::vector<const RunEntry*> measured;
    for (const RunEntry& entry : list.entries())
        if (entry.kind == RunEntry::Kind::HostMeasurement)
            measured.push_back(&entry);
    ASSERT_EQ(measured.size(), 2u);
    EXPECT_EQ(measured[0]->trace->events, first->measured.events);
    EXPECT_EQ(measured[1]->trace->events, second->measured.events);
    // The latest is the schedule's own run.
    EXPECT_TRUE(reopened->measureController()->isCurrent());
    EXPECT_EQ(reopened->measureController()->last()->measured.events, second->measured.events);

    // Saved again, then one more run: the two saved runs stay, the new one is added.
    ASSERT_TRUE(runOnHost(*reopened));
    ASSERT_TRUE(reopened->projectController()->saveTo(path));
    auto again = project::loadProjectFile(path.toStdString());
    ASSERT_TRUE(again.ok());
    EXPECT_EQ(project::runCount(again->traces), 3);
    const auto byRun = project::tracesByRun(again->traces);
    EXPECT_EQ(byRun[0], runs[0]);
    EXPECT_EQ(byRun[1], runs[1]);
}

TEST_F(ProjectTracesTest, ARunOfAnotherScheduleComesBackStale) {
    if (!openOnHost(*m_window))
        FAIL() << "cannot open the committed sample";
    ASSERT_TRUE(runOnHost(*m_window));
    ASSERT_TRUE(edit(*m_window)); // the project's schedule is no longer the one that ran
    const QString path = m_dir.filePath(QStringLiteral("stale.strata"));
    ASSERT_TRUE(m_window->projectController()->saveTo(path));

    auto second = makeWindow();
    ASSERT_TRUE(openProject(*second, path));
    EXPECT_FALSE(second->measureController()->isCurrent());
    EXPECT_TRUE(test::diagnosticsMention(*second->diagnosticsPanel(), QStringLiteral("another schedule")));
    ASSERT_TRUE(settle(*second));
    // Both files in the Timeline, beside the fresh prediction of the project's schedule.
    const auto sources = timelineSources(*second);
    EXPECT_EQ(std::count(sources.begin(), sources.end(), trace::Source::Measured), 1);
    EXPECT_GE(std::count(sources.begin(), sources.end(), trace::Source::Emulated), 1);
    const Table& table = *second->scheduleModel();
    for (int row = 0; row < table.rowCount(); ++row)
        EXPECT_TRUE(table.index(row, Table::MeasuredColumn).data().toString().isEmpty()) << row;
}

TEST_F(ProjectTracesTest, AMissingOrMalformedTraceIsReportedAndTheProjectOpens) {
    if (!openOnHost(*m_window))
        FAIL() << "cannot open the committed sample";
    const QString path = m_dir.filePath(QStringLiteral("broken.strata"));
    ASSERT_TRUE(m_window->projectController()->saveTo(path));
    auto p = project::loadProjectFile(path.toStdString());
    ASSERT_TRUE(p.ok());
    const QString garbage = m_dir.filePath(QStringLiteral("garbage.json"));
    {
        QFile file(garbage);
        ASSERT_TRUE(file.open(QIODevice::WriteOnly));
        file.write("{\"traceEvents\": [ {\"ph\": \"X\", \"ts\": ");
    }
    p->traces = {{garbage.toStdString(), "emulated", "", "0123"},
                 {m_dir.filePath(QStringLiteral("gone.json")).toStdString(), "measured", "", "0123"}};
    {
        QSaveFile file(path);
        ASSERT_TRUE(file.open(QIODevice::WriteOnly));
        file.write(QByteArray::fromStdString(project::projectToJson(*p, m_dir.path().toStdString())));
        ASSERT_TRUE(file.commit());
    }

    auto second = makeWindow();
    ASSERT_TRUE(openProject(*second, path));
    EXPECT_TRUE(test::diagnosticsMention(*second->diagnosticsPanel(), QStringLiteral("garbage.json")));
    EXPECT_TRUE(test::diagnosticsMention(*second->diagnosticsPanel(), QStringLiteral("gone.json")));
    EXPECT_EQ(second->measureController()->last(), nullptr);
    // Still usable: the schedule is there and takes edits.
    ASSERT_NE(second->scheduleDocument()->schedule(), nullptr);
    EXPECT_TRUE(edit(*second));
}

} // namespace
} // namespace strata::gui
