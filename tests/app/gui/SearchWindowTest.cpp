// Build > Search Schedules… from the main window: a small search with a candidate cap finds a
// schedule that validates, the same seed finds the same one, Apply makes it current as one
// undoable edit (Undo restores the schedule before), a clicked Pareto point is the one applied,
// Cancel ends a running search with what it found so far, the search's start and result
// are pinned in the Compare tab, compared with each other, and on the host the best predicted
// can be run on this computer, the measured fastest being the one Apply uses.

#include "dialogs/SearchDialog.h"
#include "document/ScheduleDocument.h"
#include "jobs/SearchJob.h"
#include "runs/RunList.h"
#include "schedule/Validate.h"
#include "search/Evaluation.h"
#include "search/Measure.h"
#include "shell/MainWindow.h"
#include "support/WindowFixture.h"
#include "tabs/CompareTab.h"
#include "views/compare/CompareView.h"
#include "views/search/ParetoPlot.h"
#include "views/search/SearchHistoryPlot.h"

#include <QAction>
#include <QComboBox>
#include <QDir>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabWidget>
#include <QUndoStack>
#include <gtest/gtest.h>

namespace strata::gui {
namespace {

constexpr std::int64_t kCandidates = 48;

class SearchWindowTest : public test::WindowFixture {
  protected:
    SearchDialog& dialog() const { return *m_window->searchDialog(); }

    // Shows the dialog with a generous budget, so that the candidate cap alone ends the search.
    void prepare(std::int64_t cap, int seed = 7) {
        m_window->searchDialog()->showAction()->trigger();
        dialog().findChild<QSpinBox*>(QStringLiteral("searchBudget"))->setValue(600);
        dialog().findChild<QSpinBox*>(QStringLiteral("searchSeed"))->setValue(seed);
        dialog().setMaxEvaluations(cap);
    }

    // Starts a search and waits for its end.
    bool search() {
        QSignalSpy finished(&dialog(), &SearchDialog::finished);
        if (!dialog().start())
            return false;
        return QTest::qWaitFor([&] { return finished.count() > 0; }, test::kSettleTimeoutMs) &&
               dialog().result() != nullptr;
    }
};

TEST_F(SearchWindowTest, AppliesTheSearchedScheduleAsOneUndoableEdit) {
    if (!test::openSample(*m_window, "resnet_tiny.onnx", QStringLiteral("host")))
        FAIL() << "cannot open the committed sample";
    prepare(kCandidates);
    ASSERT_TRUE(search());
    const auto result = dialog().result();
    ASSERT_TRUE(result->best.has_value());
    EXPECT_FALSE(result->cancelled);
    EXPECT_LE(result->evaluated, kCandidates);
    EXPECT_GT(result->evaluated, 0);
    EXPECT_FALSE(result->pareto.empty());
    EXPECT_GT(dialog().historyPlot()->bestGraph()->dataCount(), 0);
    EXPECT_EQ(dialog().paretoPlot()->pointCount(), static_cast<int>(result->pareto.size()));
    EXPECT_TRUE(dialog().applyButton()->isEnabled());
    const schedule::Schedule searched = result->best->schedule;
    const search::Evaluation best = result->best->evaluation;

    // The same seed and cap give the same result.
    ASSERT_TRUE(search());
    ASSERT_TRUE(dialog().result()->best.has_value());
    EXPECT_EQ(dialog().result()->best->schedule, searched);
    EXPECT_EQ(dialog().result()->best->evaluation, best);

    if (const char* dir = std::getenv("STRATA_SCREENSHOT_DIR")) {
        dialog().historyPlot()->replot();
        dialog().paretoPlot()->replot();
        dialog().grab().save(
            QDir(QString::fromUtf8(dir)).filePath(QStringLiteral("search-dialog.png")));
    }

    const schedule::Schedule before = *document().schedule();
    const int commands = document().undoStack()->count();
    ASSERT_TRUE(dialog().apply());
    ASSERT_TRUE(settle());
    EXPECT_EQ(document().undoStack()->count(), commands + 1);
    ASSERT_NE(document().schedule(), nullptr);
    EXPECT_EQ(document().schedule()->blocks, searched.blocks);
    EXPECT_TRUE(
        schedule::checkSchedule(*document().schedule(), *document().graph(), *document().target())
            .valid());

    document().undoStack()->undo();
    ASSERT_TRUE(settle());
    EXPECT_EQ(*document().schedule(), before);
}

TEST_F(SearchWindowTest, AClickedParetoPointIsTheOneApplied) {
    if (!test::openSample(*m_window, "resnet_tiny.onnx", QStringLiteral("host")))
        FAIL() << "cannot open the committed sample";
    prepare(kCandidates);
    auto& objective = *dialog().findChild<QComboBox*>(QStringLiteral("searchObjective"));
    objective.setCurrentIndex(objective.findData(static_cast<int>(search::Objective::Pareto)));
    ASSERT_TRUE(search());
    const auto result = dialog().result();
    ASSERT_FALSE(result->pareto.empty());
    const int last = static_cast<int>(result->pareto.size()) - 1;
    views::search::ParetoPlot& plot = *dialog().paretoPlot();
    plot.replot();
    QTest::mouseClick(&plot, Qt::LeftButton, {}, plot.pixelOf(last).toPoint());
    EXPECT_EQ(plot.chosen(), last);
    ASSERT_NE(dialog().chosen(), nullptr);
    EXPECT_EQ(dialog().chosen()->schedule, result->pareto.back().schedule);
    ASSERT_TRUE(dialog().apply());
    ASSERT_TRUE(settle());
    EXPECT_EQ(document().schedule()->blocks, result->pareto.back().schedule.blocks);
}

TEST_F(SearchWindowTest, PinsTheStartAndTheResultInTheCompareTab) {
    if (!test::openSample(*m_window, "resnet_tiny.onnx", QStringLiteral("host")))
        FAIL() << "cannot open the committed sample";
    ASSERT_TRUE(settle());
    prepare(kCandidates);
    CompareTab& compare = *m_window->compareTab();
    const int before = compare.runs()->size();
    const schedule::Schedule start = *document().schedule();
    ASSERT_TRUE(search());
    const auto result = dialog().result();
    ASSERT_TRUE(result->best.has_value());
    // The timelines come before finished(): both are pinned once the search has ended.
    ASSERT_EQ(compare.runs()->size(), before + 2);
    const RunEntry& pinnedStart = compare.runs()->entries()[static_cast<std::size_t>(before)];
    const RunEntry& pinnedBest = compare.runs()->entries()[static_cast<std::size_t>(before + 1)];
    EXPECT_EQ(pinnedStart.shortName, QStringLiteral("search start"));
    EXPECT_EQ(pinnedBest.shortName, QStringLiteral("search result"));
    // Their timelines are the predictions of the schedule searched from and of the best found.
    search::Evaluator evaluator(*document().graph(), *document().target(), false);
    const auto startEvaluation = evaluator.evaluate(start);
    ASSERT_TRUE(startEvaluation.has_value());
    EXPECT_EQ(pinnedStart.trace->endPs(), startEvaluation->emulatedPs);
    EXPECT_EQ(pinnedBest.trace->endPs(), result->best->evaluation.emulatedPs);
    // The Compare tab shows the start (A) against the result (B).
    EXPECT_EQ(compare.view()->runA(), before);
    EXPECT_EQ(compare.view()->runB(), before + 1);

    if (const char* dir = std::getenv("STRATA_SCREENSHOT_DIR")) {
        if (auto* tabs = qobject_cast<QTabWidget*>(compare.parentWidget()->parentWidget()))
            tabs->setCurrentWidget(&compare);
        ASSERT_TRUE(settle());
        m_window->grab().save(
            QDir(QString::fromUtf8(dir)).filePath(QStringLiteral("search-compare.png")));
    }
}

TEST_F(SearchWindowTest, CancelEndsARunningSearch) {
    if (!test::openSample(*m_window, "resnet_tiny.onnx", QStringLiteral("host")))
        FAIL() << "cannot open the committed sample";
    prepare(0); // no cap: only the budget or a cancel ends it
    QSignalSpy progress(dialog().job(), &SearchJob::progress);
    QSignalSpy finished(&dialog(), &SearchDialog::finished);
    ASSERT_TRUE(dialog().start());
    EXPECT_TRUE(dialog().isRunning());
    EXPECT_TRUE(dialog().cancelButton()->isEnabled());
    EXPECT_FALSE(dialog().applyButton()->isEnabled());
    ASSERT_TRUE(QTest::qWaitFor([&] { return progress.count() > 0; }, test::kSettleTimeoutMs));
    dialog().cancelButton()->click();
    ASSERT_TRUE(QTest::qWaitFor([&] { return finished.count() > 0; }, test::kSettleTimeoutMs));
    EXPECT_FALSE(dialog().isRunning());
    ASSERT_NE(dialog().result(), nullptr);
    EXPECT_TRUE(dialog().result()->cancelled);
    EXPECT_TRUE(dialog().startButton()->isEnabled());
}

TEST_F(SearchWindowTest, MeasuresTheBestOnThisComputerAndKeepsTheFastest) {
    if (!test::openSample(*m_window, "resnet_tiny.onnx", QStringLiteral("host")))
        FAIL() << "cannot open the committed sample";
    ASSERT_TRUE(settle());
    prepare(kCandidates);
    auto& measure = *dialog().findChild<QSpinBox*>(QStringLiteral("searchMeasure"));
    ASSERT_TRUE(measure.isEnabled());
    measure.setValue(2);
    ASSERT_TRUE(search());
    const auto result = dialog().result();
    ASSERT_TRUE(result->best.has_value());
    ASSERT_FALSE(result->leaders.empty());
    EXPECT_LE(result->leaders.size(), 2u);
    // The leaders, then the best start.
    const auto& measured = dialog().measured();
    ASSERT_EQ(measured.size(), result->leaders.size() + 1);
    for (std::size_t i = 0; i < result->leaders.size(); ++i)
        EXPECT_EQ(measured[i].candidate.schedule, result->leaders[i].schedule);
    for (const auto& m : measured) {
        EXPECT_GT(m.measuredNs, 0.0);
        EXPECT_EQ(m.runsNs.size(), 5u);
    }
    const auto& fastest = measured[search::fastestMeasured(measured)];
    ASSERT_NE(dialog().chosen(), nullptr);
    EXPECT_EQ(dialog().chosen()->schedule, fastest.candidate.schedule);
    EXPECT_TRUE(dialog().measuredText().startsWith(QStringLiteral("Measured on this computer")))
        << dialog().measuredText().toStdString();
    if (const char* dir = std::getenv("STRATA_SCREENSHOT_DIR")) {
        ASSERT_TRUE(settle()); // the status line's second row laid out
        dialog().grab().save(
            QDir(QString::fromUtf8(dir)).filePath(QStringLiteral("search-measured.png")));
    }

    // Predictions only: nothing measured, the predicted best is the one chosen.
    measure.setValue(0);
    ASSERT_TRUE(search());
    EXPECT_TRUE(dialog().measured().empty());
    EXPECT_TRUE(dialog().measuredText().isEmpty());
    ASSERT_TRUE(dialog().result()->best.has_value());
    EXPECT_EQ(dialog().chosen()->schedule, dialog().result()->best->schedule);
}

TEST_F(SearchWindowTest, MeasuringIsForTheHostOnly) {
    if (!test::openSample(*m_window, "resnet_tiny.onnx", QStringLiteral("mncore2")))
        FAIL() << "cannot open the committed sample";
    ASSERT_TRUE(settle());
    prepare(kCandidates);
    EXPECT_FALSE(dialog().findChild<QSpinBox*>(QStringLiteral("searchMeasure"))->isEnabled());
}

TEST_F(SearchWindowTest, StartWithoutAModelSaysWhy) {
    prepare(kCandidates);
    EXPECT_FALSE(dialog().start());
    EXPECT_FALSE(dialog().isRunning());
    EXPECT_TRUE(dialog().statusText().contains(QStringLiteral("Open a model")));
}

} // namespace
} // namespace strata::gui
