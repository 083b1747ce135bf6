// The Transfers tab in the main window: after Run on Host on a sample its plots hold the run's
// transfers (throughput per path, one scatter point per matched transfer, the error histogram,
// one bar per block); a click on a scatter point selects its instruction's op in the graph;
// Run Microbench on the host target plots the emulated and measured experiment; Calibrate Host
// (quick) shows per-path residuals, the fit's no worse than the uncalibrated target's.

#include "controllers/CalibrationController.h"
#include "dialogs/CalibrationDialog.h"
#include "tabs/GraphTab.h"
#include "support/GuiTestSupport.h"
#include "shell/MainWindow.h"
#include "controllers/MeasureController.h"
#include "document/ScheduleDocument.h"
#include "tabs/TransfersTab.h"
#include "panels/InspectorDock.h"
#include "support/WindowFixture.h"
#include "views/schedule/ScheduleTableView.h"
#include "views/graph/GraphView.h"
#include "views/transfers/BlockErrorBars.h"
#include "views/transfers/CalibrationResidualsPlot.h"
#include "views/transfers/DurationScatter.h"
#include "views/transfers/ErrorHistogram.h"
#include "views/transfers/ThroughputPlot.h"

#include <QAction>
#include <QComboBox>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <cmath>
#include <gtest/gtest.h>

namespace strata::gui {
namespace {

class TransfersWindowTest : public test::WindowFixture {
  protected:
    TransfersTab& tab() const { return *m_window->transfersTab(); }
};

TEST_F(TransfersWindowTest, PlotsTheRunOnHostAndAClickSelectsTheEvent) {
    if (!openOnHost("resnet_tiny.onnx"))
        FAIL() << "cannot open the committed sample";
    ASSERT_TRUE(runOnHost());
    ASSERT_TRUE(m_window->showTab(QStringLiteral("transfers")));
    EXPECT_EQ(m_window->currentTabName(), QStringLiteral("transfers"));
    ASSERT_TRUE(settle()); // the tab analyses the run once shown

    ASSERT_NE(tab().shownEmulation(), nullptr);
    const trace::Trace& predicted = tab().shownEmulation()->trace;
    std::size_t transfers = 0;
    for (const auto& e : predicted.events) transfers += e.kind == trace::EventKind::Transfer && e.durationPs() > 0;
    ASSERT_GT(transfers, 0u);

    // Throughput: predicted and measured per path, each with points.
    auto* throughput = tab().throughputPlot();
    ASSERT_GE(throughput->graphCount(), 2);
    for (int i = 0; i < throughput->graphCount(); ++i) EXPECT_GT(throughput->graph(i)->dataCount(), 0) << i;
    EXPECT_EQ(throughput->xAxis->scaleType(), QCPAxis::stLogarithmic);
    // Scatter: every transfer timed in both runs (the measured run times each instruction).
    auto* scatter = tab().scatter();
    EXPECT_GT(scatter->pointCount(), 0u);
    EXPECT_LE(scatter->pointCount(), transfers);
    EXPECT_GT(tab().histogram()->transferBars()->dataCount(), 0);
    EXPECT_GT(tab().blockBars()->barCount(), 0u);

    // Click the first point of the first path's series.
    QCPGraph* graph = scatter->graph(0);
    ASSERT_NE(graph, nullptr);
    scatter->replot();
    const auto point = graph->data()->at(0);
    const QPoint pos(static_cast<int>(scatter->xAxis->coordToPixel(point->key)),
                     static_cast<int>(scatter->yAxis->coordToPixel(point->value)));
    QSignalSpy selected(&tab(), &TransfersTab::eventsSelected);
    QTest::mouseClick(scatter, Qt::LeftButton, Qt::NoModifier, pos);
    ASSERT_EQ(selected.count(), 1);
    const auto ids = selected.at(0).at(0).value<QVector<quint32>>();
    ASSERT_FALSE(ids.isEmpty());
    // The id clicked is a transfer drawn where the click was.
    const quint32 id = ids.front();
    const auto& program = *tab().shownEmulation()->program;
    ASSERT_LT(id, program.instructions.size());
    EXPECT_TRUE(std::holds_alternative<compiler::Transfer>(program.instructions[id].body));
    const ir::OpId op = program.instructions[id].from.op;
    if (op.valid()) {
        const auto ops = m_window->graphTab()->view()->selectedOps();
        EXPECT_EQ(ops, std::vector<ir::OpId>{op});
        // One selection: the Inspector shows the op's block, the schedule table selects it.
        const int block = m_window->scheduleDocument()->blockOfOp(op);
        EXPECT_EQ(m_window->inspectorDock()->shownBlock(), block);
        EXPECT_EQ(m_window->scheduleTable()->selectedBlocks(), std::vector<int>{block});
    }
}

// The error histogram grouped by transfer kind (path and kind of read) and by op class: one
// series per group, every matched transfer (compute) counted once over the groups.
TEST_F(TransfersWindowTest, ErrorHistogramGroupsByTransferKindAndOpClass) {
    if (!openOnHost("resnet_tiny.onnx"))
        FAIL() << "cannot open the committed sample";
    ASSERT_TRUE(runOnHost());
    ASSERT_TRUE(m_window->showTab(QStringLiteral("transfers")));
    ASSERT_TRUE(settle());
    auto* histogram = tab().histogram();
    const auto counted = [&] {
        double sum = 0;
        for (QCPBars* bars : histogram->groupBars())
            for (auto it = bars->data()->constBegin(); it != bars->data()->constEnd(); ++it)
                sum += it->value;
        return sum;
    };
    const auto allCounted = [](QCPBars* bars) {
        double sum = 0;
        for (auto it = bars->data()->constBegin(); it != bars->data()->constEnd(); ++it)
            sum += it->value;
        return sum;
    };
    EXPECT_TRUE(histogram->groupBars().empty());
    const double inRangeTransfers = allCounted(histogram->transferBars());

    tab().histogramGrouping()->setCurrentIndex(1); // transfers by kind
    ASSERT_FALSE(histogram->groupBars().empty());
    EXPECT_FALSE(histogram->transferBars()->visible());
    for (QCPBars* bars : histogram->groupBars())
        EXPECT_TRUE(bars->name().startsWith(QStringLiteral("load/")) ||
                    bars->name().startsWith(QStringLiteral("store/")))
            << bars->name().toStdString();
    EXPECT_GT(counted(), 0);

    tab().histogramGrouping()->setCurrentIndex(2); // computes by op class
    ASSERT_FALSE(histogram->groupBars().empty());
    bool conv = false;
    for (QCPBars* bars : histogram->groupBars())
        conv = conv || bars->name().contains(QStringLiteral("conv"));
    EXPECT_TRUE(conv); // resnet_tiny is convolutions

    tab().histogramGrouping()->setCurrentIndex(0);
    EXPECT_TRUE(histogram->groupBars().empty());
    EXPECT_TRUE(histogram->transferBars()->visible());
    EXPECT_DOUBLE_EQ(allCounted(histogram->transferBars()), inRangeTransfers);
}

TEST_F(TransfersWindowTest, RunMicrobenchOnTheHostPlotsEmulatedAndMeasured) {
    if (!openOnHost("resnet_tiny.onnx"))
        FAIL() << "cannot open the committed sample";
    QSignalSpy finished(&tab(), &TransfersTab::microbenchFinished);
    tab().microbenchButton()->click();
    EXPECT_FALSE(tab().microbenchButton()->isEnabled()); // running in the background
    ASSERT_TRUE(QTest::qWaitFor([&] { return finished.count() > 0; }, test::kLoadTimeoutMs));
    ASSERT_TRUE(finished.at(0).at(0).toBool());
    ASSERT_TRUE(tab().microbench().has_value());
    const auto& outcome = *tab().microbench();
    ASSERT_TRUE(outcome.predicted && outcome.measured);
    EXPECT_EQ(outcome.predicted->kinds, (std::vector<std::string>{"load", "store"}));
    EXPECT_EQ(outcome.measured->rows.size(), outcome.predicted->rows.size());
    // Two kinds alone (predicted, measured), the total (predicted, measured) and the ideal.
    EXPECT_EQ(tab().throughputPlot()->graphCount(), 7);
    EXPECT_EQ(tab().throughputPlot()->graph(0)->dataCount(), static_cast<int>(outcome.predicted->rows.size()));
}

TEST_F(TransfersWindowTest, ACancelledMicrobenchLeavesNoResult) {
    if (!openOnHost("resnet_tiny.onnx"))
        FAIL() << "cannot open the committed sample";
    QSignalSpy finished(&tab(), &TransfersTab::microbenchFinished);
    tab().runMicrobench();
    tab().cancelMicrobench();
    EXPECT_TRUE(tab().microbenchButton()->isEnabled());
    // The worker stops at its next size; its result comes back and is dropped as stale.
    test::drainTasks();
    EXPECT_EQ(finished.count(), 0);
    EXPECT_FALSE(tab().microbench().has_value());
    EXPECT_TRUE(settle());
}

TEST_F(TransfersWindowTest, QuickCalibrationShowsResidualsBeforeAndAfter) {
    CalibrationController& calibration = *m_window->calibrationController();
    calibration.setQuick(true);
    QSignalSpy finished(&calibration, &CalibrationController::finished);
    calibration.calibrateAction()->trigger();
    EXPECT_TRUE(calibration.isRunning());
    ASSERT_TRUE(QTest::qWaitFor([&] { return finished.count() > 0; }, 60'000));
    ASSERT_TRUE(finished.at(0).at(0).toBool());
    EXPECT_FALSE(calibration.progressLines().isEmpty());
    CalibrationDialog* dialog = calibration.dialog();
    ASSERT_NE(dialog, nullptr);
    ASSERT_FALSE(dialog->plots().empty());
    EXPECT_EQ(dialog->plots().size(), calibration.last()->report->paths.size());
    for (const auto* plot : dialog->plots()) {
        EXPECT_GT(plot->measuredGraph()->dataCount(), 0);
        EXPECT_EQ(plot->beforeGraph()->dataCount(), 65);
        EXPECT_EQ(plot->afterGraph()->dataCount(), 65);
        // Not "after <= before": the fit may be made from a subset of the samples shown (the
        // compiled programs' transfers), so over all of them either can be smaller.
        EXPECT_TRUE(std::isfinite(plot->rmsBefore()) && plot->rmsBefore() > 0);
        EXPECT_TRUE(std::isfinite(plot->rmsAfter()) && plot->rmsAfter() > 0);
    }
    EXPECT_TRUE(dialog->useButton()->isEnabled());
    // Each kind of read gets its line: its figures, or (a fit this machine's noise made
    // untrustworthy) that it was not fitted and how it is priced instead.
    const target::TransferPath* load = calibration.last()->report->target.findPath("load");
    ASSERT_NE(load, nullptr);
    for (const auto& [kind, what] :
         {std::pair{target::ReadKind::Weight, "weight reads"},
          std::pair{target::ReadKind::Cached, "reads of what the core stored"}}) {
        const QString line = QStringLiteral("<b>load</b>, %1: ").arg(QLatin1String(what));
        const QString shown = load->figuresOf(kind)
                                  ? line + QStringLiteral("%1 bytes/cycle")
                                               .arg(load->figuresOf(kind)->bytesPerCycle, 0, 'f', 1)
                                  : line + QStringLiteral("not fitted from");
        EXPECT_TRUE(dialog->figuresText().contains(shown)) << shown.toStdString() << "\n"
                                                           << dialog->figuresText().toStdString();
    }
    // And the store path's stores into lines the core holds, when there were any to fit.
    const target::TransferPath* store = calibration.last()->report->target.findPath("store");
    ASSERT_NE(store, nullptr);
    const calibrate::PathReport* storeReport = nullptr;
    for (const calibrate::PathReport& p : calibration.last()->report->paths)
        if (p.path == "store")
            storeReport = &p;
    ASSERT_NE(storeReport, nullptr);
    const auto& held = store->figuresOf(target::ReadKind::CachedWrite);
    const QString line = QStringLiteral("<b>store</b>, stores into lines the core holds: ");
    if (held) {
        EXPECT_TRUE(dialog->figuresText().contains(
            line + QStringLiteral("%1 bytes/cycle").arg(held->bytesPerCycle, 0, 'f', 1)))
            << dialog->figuresText().toStdString();
    } else if (storeReport->kindSamples[static_cast<std::size_t>(target::ReadKind::CachedWrite)] >
               0) {
        EXPECT_TRUE(dialog->figuresText().contains(line + QStringLiteral("not fitted from")))
            << dialog->figuresText().toStdString();
    }
    // With two cores, how much faster a block on one core computes.
    if (calibration.last()->report->cores >= 2) {
        EXPECT_TRUE(dialog->figuresText().contains(
            QStringLiteral("a block on <b>one core</b> computes in %1x the time")
                .arg(calibration.last()->report->oneCoreWorkFactor, 0, 'f', 2)))
            << dialog->figuresText().toStdString();
    }
    // To look at the dialog: STRATA_GUI_TEST_GRAB_DIR=/some/dir saves it there.
    if (const QString dir = qEnvironmentVariable("STRATA_GUI_TEST_GRAB_DIR"); !dir.isEmpty()) {
        dialog->resize(1400, 1100);
        QCoreApplication::processEvents();
        dialog->grab().save(dir + QStringLiteral("/calibration-dialog.png"));
    }

    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("host.calibrated.json"));
    ASSERT_TRUE(calibration.useCalibratedTarget(path));
    ASSERT_TRUE(settle());
    ASSERT_NE(document().target(), nullptr);
    EXPECT_TRUE(document().target()->calibrated);
}

} // namespace
} // namespace strata::gui
