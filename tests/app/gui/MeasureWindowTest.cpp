// Run on Host and Export from the main window: a sample runs on this computer in the background
// and its measured timeline is paired with its prediction in the Timeline tab (same instruction
// ids), the prediction-error heat becomes available, an edit makes the run stale, and Export
// writes the bundle with plots; exporting with no model open fails with a message.

#include "controllers/ExportController.h"
#include "tabs/GraphTab.h"
#include "shell/MainWindow.h"
#include "controllers/MeasureController.h"
#include "document/ScheduleDocument.h"
#include "tabs/TimelineTab.h"
#include "timeline/TimelineData.h"
#include "trace/TraceCompare.h"
#include "trace/TraceJson.h"
#include "views/graph/GraphView.h"
#include "views/schedule/ScheduleTableModel.h"
#include "views/timeline/TimelineView.h"
#include "support/WindowFixture.h"

#include <QAction>
#include <QComboBox>
#include <QSignalSpy>
#include <QStandardItemModel>
#include <QTemporaryDir>
#include <QUndoStack>
#include <gtest/gtest.h>

namespace strata::gui {
namespace {

class MeasureWindowTest : public test::WindowFixture {
  protected:
    MeasureController& measure() const { return *m_window->measureController(); }

    bool errorHeatAvailable() const {
        QComboBox* combo = m_window->graphTab()->view()->heatCombo();
        const int index = combo->findData(static_cast<int>(views::graph::HeatMode::PredictionError));
        auto* model = qobject_cast<QStandardItemModel*>(combo->model());
        return index >= 0 && model && model->item(index)->isEnabled();
    }
};

TEST_F(MeasureWindowTest, RunOnHostPairsTheMeasuredRunWithItsPrediction) {
    if (!openOnHost("resnet_tiny.onnx"))
        FAIL() << "cannot open the committed sample";
    EXPECT_FALSE(errorHeatAvailable());
    QSignalSpy measured(&measure(), &MeasureController::measured);
    measure().runAction()->trigger();
    ASSERT_TRUE(QTest::qWaitFor([&] { return measured.count() > 0; }, test::kLoadTimeoutMs));
    ASSERT_TRUE(settle());

    ASSERT_NE(measure().last(), nullptr);
    const MeasuredRun& run = *measure().last();
    EXPECT_TRUE(measure().isCurrent());
    EXPECT_EQ(run.measured.source, trace::Source::Measured);
    EXPECT_EQ(run.totalsNs.size(), static_cast<std::size_t>(MeasureJob::kRepeats));
    ASSERT_EQ(run.measured.events.size(), run.emulation->trace.events.size());
    for (std::size_t i = 0; i < run.measured.events.size(); ++i)
        EXPECT_EQ(run.measured.events[i].id, run.emulation->trace.events[i].id);
    EXPECT_TRUE(errorHeatAvailable());

    // The Timeline shows the prediction and the measurement.
    const auto& data = m_window->timelineTab()->view()->data();
    ASSERT_NE(data, nullptr);
    ASSERT_EQ(data->traces().size(), 2u);
    EXPECT_EQ(data->traces()[0]->source, trace::Source::Emulated);
    EXPECT_EQ(data->traces()[1]->source, trace::Source::Measured);

    // The schedule table's Measured and Error columns hold compareTraces' per-block figures.
    using Model = views::schedule::ScheduleTableModel;
    const Model& table = *m_window->scheduleModel();
    const auto compared = trace::compareTraces(run.emulation->trace, run.measured);
    ASSERT_TRUE(compared.ok());
    ASSERT_FALSE(compared->blocks.empty());
    for (const trace::BlockComparison& b : compared->blocks) {
        const int row = table.rowOfBlock(b.block);
        ASSERT_GE(row, 0) << b.block;
        EXPECT_DOUBLE_EQ(table.index(row, Model::MeasuredColumn).data(Model::SortRole).toDouble(),
                         static_cast<double>(b.measuredPs) * 1e-12);
        EXPECT_DOUBLE_EQ(table.index(row, Model::PredictionErrorColumn).data(Model::PredictionErrorRole).toDouble(),
                         b.error);
        EXPECT_FALSE(table.index(row, Model::PredictionErrorColumn).data().toString().isEmpty());
    }

    // An edit makes the run stale: no error heat for a schedule that was not run.
    const schedule::Block& first = document().schedule()->blocks.front();
    if (first.ops.size() > 1) {
        ASSERT_TRUE(document().split(first.ops[1]).applied());
        ASSERT_TRUE(settle());
        EXPECT_FALSE(measure().isCurrent());
        EXPECT_FALSE(errorHeatAvailable());
        for (int row = 0; row < table.rowCount(); ++row)
            EXPECT_TRUE(table.index(row, Model::MeasuredColumn).data().toString().isEmpty()) << row;
        // Undo is the measured schedule again: its figures come back.
        document().undoStack()->undo();
        ASSERT_TRUE(settle());
        EXPECT_TRUE(measure().isCurrent());
        const int row = table.rowOfBlock(compared->blocks.front().block);
        EXPECT_FALSE(table.index(row, Model::MeasuredColumn).data().toString().isEmpty());
    }
}

// The Timeline tab open on the prediction, Run on Host adds the measurement: the axis spans the
// longer of the two runs (a measurement on a busy machine is several times the prediction), not
// the prediction it showed first.
TEST_F(MeasureWindowTest, TheTimelineShowsTheMeasuredRunWholeWhenItArrives) {
    if (!openOnHost("resnet_tiny.onnx"))
        FAIL() << "cannot open the committed sample";
    ASSERT_TRUE(m_window->showTab(QStringLiteral("timeline")));
    views::timeline::TimelineView& timeline = *m_window->timelineTab()->view();
    ASSERT_TRUE(QTest::qWaitFor([&] { return timeline.data() != nullptr; }, test::kLoadTimeoutMs));
    QSignalSpy measured(&measure(), &MeasureController::measured);
    measure().runAction()->trigger();
    ASSERT_TRUE(QTest::qWaitFor([&] { return measured.count() > 0; }, test::kLoadTimeoutMs));
    ASSERT_TRUE(settle());
    ASSERT_EQ(timeline.data()->traces().size(), 2u);
    const double end = static_cast<double>(timeline.data()->endPs());
    EXPECT_EQ(end, static_cast<double>(std::max(timeline.data()->traces()[0]->endPs(),
                                                timeline.data()->traces()[1]->endPs())));
    EXPECT_DOUBLE_EQ(timeline.viewport().startPs, 0);
    EXPECT_GE(timeline.viewport().endPs(), end);
}

TEST_F(MeasureWindowTest, ExportWritesTheBundleWithPlots) {
    if (!openOnHost("resnet_tiny.onnx"))
        FAIL() << "cannot open the committed sample";
    QTemporaryDir dir;
    ExportController& exporter = *m_window->exportController();
    QSignalSpy finished(&exporter, &ExportController::finished);
    exporter.exportTo(dir.filePath(QStringLiteral("bundle")));
    ASSERT_TRUE(QTest::qWaitFor([&] { return finished.count() > 0; }, test::kLoadTimeoutMs));
    ASSERT_TRUE(finished.at(0).at(0).toBool()) << finished.at(0).at(3).toString().toStdString();
    const QStringList files = finished.at(0).at(2).toStringList();
    for (const char* name : {"block_times.png", "block_times.svg", "block_times.pdf", "emulated.trace.json",
                             "resnet_tiny.s", "schedule.json", "report.md", "bundle.json"})
        EXPECT_TRUE(files.contains(QLatin1String(name))) << name;
    for (const QString& f : files)
        EXPECT_TRUE(QFileInfo::exists(dir.filePath(QStringLiteral("bundle/") + f))) << f.toStdString();
    EXPECT_TRUE(trace::loadTraceFile(dir.filePath(QStringLiteral("bundle/emulated.trace.json")).toStdString()));
}

TEST_F(MeasureWindowTest, ExportWithoutAModelSaysSo) {
    QTemporaryDir dir;
    QSignalSpy finished(m_window->exportController(), &ExportController::finished);
    m_window->exportController()->exportTo(dir.path());
    ASSERT_EQ(finished.count(), 1);
    EXPECT_FALSE(finished.at(0).at(0).toBool());
    EXPECT_TRUE(finished.at(0).at(3).toString().contains(QStringLiteral("open a model")));
}

} // namespace
} // namespace strata::gui
