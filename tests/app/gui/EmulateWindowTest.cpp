// Predictions in the main window: a sample opens and is emulated without asking; the badges,
// the schedule table's Predicted column and the status bar's total show the emulator's times;
// an edit is predicted again (a burst of edits once, for the last revision), undo brings the
// earlier prediction back, Emulate (F5) predicts on demand with the automatic prediction off.
// How long an edit takes to reach the badges is a benchmark: tests/bench/BenchGuiEdits.cpp.

#include "controllers/EmulateController.h"
#include "tabs/GraphTab.h"
#include "support/GuiTestSupport.h"
#include "shell/MainWindow.h"
#include "document/ScheduleDocument.h"
#include "document/ScheduleEditor.h"
#include "schedule/Edits.h"
#include "support/WindowFixture.h"
#include "views/graph/GraphItems.h"
#include "views/graph/GraphScene.h"
#include "views/graph/HeatLegend.h"
#include "views/graph/GraphView.h"
#include "views/schedule/ScheduleTableModel.h"

#include <QAction>
#include <QComboBox>
#include <QLabel>
#include <QSettings>
#include <QSignalSpy>
#include <QUndoStack>
#include <algorithm>
#include <cstdio>
#include <gtest/gtest.h>

namespace strata::gui {
namespace {

namespace sch = strata::schedule;
using views::schedule::ScheduleTableModel;

class EmulateWindowTest : public test::WindowFixture {
  protected:
    EmulateController& emulation() const { return *m_window->emulateController(); }
    ScheduleTableModel& model() const { return *m_window->scheduleModel(); }
    views::graph::GraphScene& scene() const { return *m_window->graphTab()->view()->scene(); }
    const sch::Schedule& schedule() const { return *document().schedule(); }

    bool open(const QString& path, const QString& target) {
        return test::openModel(*m_window, path, target);
    }

    // The first block with more than one op: split it before its second op.
    std::optional<ir::OpId> splitPoint() const {
        for (const sch::Block& block : schedule().blocks)
            if (block.ops.size() > 1)
                return block.ops[1];
        return std::nullopt;
    }

    // Every block of the schedule shows a prediction in the table and on its badge.
    void expectPredictionsShown() {
        ASSERT_TRUE(emulation().isCurrent());
        ASSERT_EQ(model().rowCount(), static_cast<int>(schedule().blocks.size()));
        const auto predicted = emulation().predictions();
        for (int row = 0; row < model().rowCount(); ++row) {
            const int block = model().blockAt(row);
            ASSERT_TRUE(predicted.count(block)) << "block " << block;
            const QModelIndex cell = model().index(row, ScheduleTableModel::PredictedColumn);
            EXPECT_EQ(cell.data(ScheduleTableModel::SortRole).toDouble(), predicted.at(block));
            EXPECT_FALSE(cell.data().toString().isEmpty());
            const views::graph::BlockBadge* badge = scene().findBadge(block);
            ASSERT_NE(badge, nullptr);
            ASSERT_TRUE(badge->predictedSeconds.has_value());
            EXPECT_EQ(*badge->predictedSeconds, predicted.at(block));
        }
    }
};

TEST_F(EmulateWindowTest, ASampleIsPredictedWhenItOpens) {
    if (!open(test::samplePath("resnet_tiny.onnx"), QStringLiteral("mncore2")))
        FAIL() << "cannot open the committed sample";
    ASSERT_NE(emulation().last(), nullptr);
    const EmulationRun& run = *emulation().last();
    EXPECT_EQ(run.graph, document().graph());
    EXPECT_EQ(run.targetName, QStringLiteral("mncore2"));
    ASSERT_NE(run.program, nullptr);
    EXPECT_EQ(run.trace.events.size(), run.program->instructions.size());
    expectPredictionsShown();
    // Block times lie within the total; the total is in the status bar.
    std::int64_t end = 0;
    for (const trace::Event& e : run.trace.events)
        end = std::max(end, e.endPs);
    for (const auto& [block, seconds] : emulation().predictions()) {
        EXPECT_GT(seconds, 0.0) << "block " << block;
        EXPECT_LE(seconds, static_cast<double>(end) * 1e-12 * (1 + 1e-9));
    }
    EXPECT_TRUE(emulation().totalLabel()->text().contains(
        views::graph::formatSeconds(static_cast<double>(end) * 1e-12)))
        << emulation().totalLabel()->text().toStdString();
}

TEST_F(EmulateWindowTest, AnEditIsPredictedAgainAndUndoBringsTheOldPredictionBack) {
    if (!open(test::samplePath("resnet_tiny.onnx"), QStringLiteral("mncore2")))
        FAIL() << "cannot open the committed sample";
    const auto before = emulation().predictions();
    const auto at = splitPoint();
    ASSERT_TRUE(at);
    QSignalSpy emulated(&emulation(), &EmulateController::emulated);
    ASSERT_TRUE(document().split(*at).applied());
    EXPECT_FALSE(emulation().isCurrent()); // the old prediction is not shown for the new schedule
    EXPECT_TRUE(model().index(0, ScheduleTableModel::PredictedColumn).data().toString().isEmpty());
    ASSERT_TRUE(QTest::qWaitFor([&] { return emulated.count() > 0; }, test::kSettleTimeoutMs));
    ASSERT_TRUE(settle());
    const auto run = emulated.back().at(0).value<std::shared_ptr<const EmulationRun>>();
    ASSERT_NE(run, nullptr);
    EXPECT_EQ(run->revision, document().revision());
    EXPECT_EQ(run, emulation().last());
    expectPredictionsShown();
    EXPECT_EQ(emulation().predictions().size(), before.size() + 1);
    EXPECT_GE(emulation().lastLatencyMs(), 0);

    // Back to the schedule predicted before: that prediction is good again.
    document().undoStack()->undo();
    ASSERT_TRUE(settle());
    expectPredictionsShown();
    EXPECT_EQ(emulation().predictions(), before);
}

// The prediction runs beside the UI's own work on the new schedule, not after it.
TEST_F(EmulateWindowTest, AnEditStartsItsPredictionBeforeTheEventLoopTurns) {
    if (!open(test::samplePath("resnet_tiny.onnx"), QStringLiteral("mncore2")))
        FAIL() << "cannot open the committed sample";
    ASSERT_FALSE(emulation().isEmulating());
    const auto at = splitPoint();
    ASSERT_TRUE(at);
    ASSERT_TRUE(document().split(*at).applied());
    EXPECT_TRUE(emulation().isEmulating());
    ASSERT_TRUE(settle());
    expectPredictionsShown();
}

TEST_F(EmulateWindowTest, ABurstOfEditsIsPredictedOnceForTheLastRevision) {
    if (!open(test::samplePath("resnet_tiny.onnx"), QStringLiteral("mncore2")))
        FAIL() << "cannot open the committed sample";
    QSignalSpy emulated(&emulation(), &EmulateController::emulated);
    int edits = 0;
    for (int i = 0; i < 3; ++i)
        if (const auto at = splitPoint(); at && document().split(*at).applied())
            ++edits;
    ASSERT_GE(edits, 2);
    ASSERT_TRUE(QTest::qWaitFor([&] { return emulated.count() > 0; }, test::kSettleTimeoutMs));
    ASSERT_TRUE(settle());
    test::drainTasks(); // every emulation started has come back
    ASSERT_EQ(emulated.count(), 1);
    EXPECT_EQ(emulated.front().at(0).value<std::shared_ptr<const EmulationRun>>()->revision,
              document().revision());
    expectPredictionsShown();
}

TEST_F(EmulateWindowTest, AnOlderScheduleIsNotShownWhenANewerOneArrives) {
    if (!open(test::samplePath("resnet_tiny.onnx"), QStringLiteral("mncore2")))
        FAIL() << "cannot open the committed sample";
    QSignalSpy emulated(&emulation(), &EmulateController::emulated);
    const auto at = splitPoint();
    ASSERT_TRUE(at);
    ASSERT_TRUE(document().split(*at).applied());
    emulation().emulate(); // running for this revision...
    ASSERT_TRUE(emulation().isEmulating());
    const auto next = splitPoint();
    ASSERT_TRUE(next);
    ASSERT_TRUE(document().split(*next).applied()); // ...which is stale at once
    ASSERT_TRUE(settle());
    ASSERT_GE(emulated.count(), 1);
    for (const QList<QVariant>& signal : emulated)
        EXPECT_EQ(signal.at(0).value<std::shared_ptr<const EmulationRun>>()->revision,
                  document().revision());
    expectPredictionsShown();
}

TEST_F(EmulateWindowTest, EmulateOnDemandWhenAutomaticPredictionIsOff) {
    if (!open(test::samplePath("resnet_tiny.onnx"), QStringLiteral("mncore2")))
        FAIL() << "cannot open the committed sample";
    EXPECT_EQ(emulation().emulateAction()->shortcut(), QKeySequence(Qt::Key_F5));
    emulation().autoAction()->setChecked(false);
    const auto at = splitPoint();
    ASSERT_TRUE(at);
    ASSERT_TRUE(document().split(*at).applied());
    ASSERT_TRUE(settle());
    // An automatic prediction would start from a zero-delay timer: let due timers fire.
    QCoreApplication::processEvents();
    EXPECT_FALSE(emulation().isEmulating());
    EXPECT_FALSE(emulation().isCurrent());
    EXPECT_TRUE(emulation().totalLabel()->text().contains(QStringLiteral("F5")));

    emulation().emulateAction()->trigger();
    EXPECT_TRUE(emulation().isEmulating());
    emulation().cancelAction()->trigger();
    EXPECT_FALSE(emulation().isEmulating());
    EXPECT_FALSE(emulation().isCurrent());

    emulation().emulateAction()->trigger();
    ASSERT_TRUE(settle());
    expectPredictionsShown();
}

TEST_F(EmulateWindowTest, TheHeatOverlayColoursBlocksByPredictionOrDram) {
    if (!open(test::samplePath("resnet_tiny.onnx"), QStringLiteral("mncore2")))
        FAIL() << "cannot open the committed sample";
    views::graph::GraphView* view = m_window->graphTab()->view();
    QComboBox* combo = view->heatCombo();
    auto choose = [&](views::graph::HeatMode mode) {
        combo->setCurrentIndex(combo->findData(static_cast<int>(mode)));
    };
    // The hottest block by prediction is the darkest.
    choose(views::graph::HeatMode::PredictedTime);
    const auto predicted = emulation().predictions();
    ASSERT_FALSE(predicted.empty());
    const auto hottest = std::max_element(predicted.begin(), predicted.end(),
                                          [](const auto& a, const auto& b) {
                                              return a.second < b.second;
                                          });
    ASSERT_NE(scene().clusterForBlock(hottest->first), nullptr);
    EXPECT_EQ(scene().clusterForBlock(hottest->first)->heat(), views::graph::heatColor(1.0));
    EXPECT_EQ(scene().heat().size(), predicted.size());

    // By DRAM bytes: every analysed block has a colour, the legend says so.
    choose(views::graph::HeatMode::DramBytes);
    EXPECT_EQ(scene().heat().size(), schedule().blocks.size());
    EXPECT_EQ(view->heatLegend()->title(), QStringLiteral("DRAM bytes"));

    // After an edit the prediction is redone and the overlay follows it.
    choose(views::graph::HeatMode::PredictedTime);
    const auto at = splitPoint();
    ASSERT_TRUE(at);
    ASSERT_TRUE(document().split(*at).applied());
    ASSERT_TRUE(settle());
    EXPECT_EQ(scene().heat().size(), emulation().predictions().size());
    EXPECT_EQ(scene().heat().size(), schedule().blocks.size());
}

} // namespace
} // namespace strata::gui
