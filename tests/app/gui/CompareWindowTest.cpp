// The Compare tab in the main window: the prediction pinned before and after an edit is compared
// at once (one bar per block of either schedule, totals equal to the runs' own, blocks of one
// schedule only marked), a Run on Host is picked as prediction against measurement, and
// imported trace files join the list while a malformed one is a diagnostic and changes nothing.

#include "tabs/CompareTab.h"
#include "controllers/EmulateController.h"
#include "tabs/GraphTab.h"
#include "runs/RunList.h"
#include "support/WindowFixture.h"
#include "timeline/TimelineData.h"
#include "trace/AccuracyReport.h"
#include "trace/TraceJson.h"
#include "trace/TraceSummary.h"
#include "views/compare/BlockSplitModel.h"
#include "views/compare/CompareView.h"
#include "views/compare/DeltaChart.h"
#include "views/graph/GraphView.h"
#include "views/timeline/TimelineView.h"

#include <QAction>
#include <QComboBox>
#include <QFile>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <cmath>
#include <gtest/gtest.h>
#include <set>

namespace strata::gui {
namespace {

class CompareWindowTest : public test::WindowFixture {
  protected:
    void SetUp() override {
        WindowFixture::SetUp();
        m_window->showTab(QStringLiteral("compare"));
    }

    CompareTab& tab() const { return *m_window->compareTab(); }
    const views::compare::CompareView& view() const { return *tab().view(); }

    bool open(const QString& target) {
        return openSample("resnet_tiny.onnx", target) && predicted();
    }

    // The prediction of the current schedule is shown.
    bool predicted() {
        const EmulateController& e = *m_window->emulateController();
        return QTest::qWaitFor([&] { return e.isCurrent() && !e.isEmulating(); }, test::kSettleTimeoutMs);
    }

    bool splitAFusedBlock() { return test::splitFirstFusedBlock(*m_window) && predicted(); }

    static std::set<int> blocksOf(const trace::Trace& t) {
        std::set<int> blocks;
        for (const trace::Event& e : t.events)
            if (e.block >= 0)
                blocks.insert(e.block);
        return blocks;
    }
};

TEST_F(CompareWindowTest, PinnedRunsBeforeAndAfterAnEditAreCompared) {
    if (!open(QStringLiteral("mncore2")))
        FAIL() << "cannot open the committed sample";
    EXPECT_EQ(view().comparison(), nullptr); // nothing to compare yet
    tab().pinAction()->trigger();
    ASSERT_EQ(tab().runs()->size(), 1);
    ASSERT_TRUE(splitAFusedBlock());
    tab().pinAction()->trigger();
    ASSERT_EQ(tab().runs()->size(), 2);

    // The newest pin against the one before, without picking.
    EXPECT_EQ(view().runA(), 0);
    EXPECT_EQ(view().runB(), 1);
    EXPECT_EQ(view().comboA()->count(), 2);
    ASSERT_NE(view().comparison(), nullptr);
    const trace::Trace& before = *tab().runs()->entries()[0].trace;
    const trace::Trace& after = *tab().runs()->entries()[1].trace;
    const trace::RunDelta& delta = view().comparison()->delta;
    EXPECT_EQ(delta.totalAPs, trace::summarize(before).totalPs);
    EXPECT_EQ(delta.totalBPs, trace::summarize(after).totalPs);
    EXPECT_EQ(delta.deltaPs, delta.totalBPs - delta.totalAPs);

    // One bar per block of either schedule; the split made a block the first one did not have.
    std::set<int> blocks = blocksOf(before);
    const std::set<int> afterBlocks = blocksOf(after);
    blocks.insert(afterBlocks.begin(), afterBlocks.end());
    const int expectedBars = std::min<int>(static_cast<int>(blocks.size()), views::compare::DeltaChart::kMaxBars);
    EXPECT_EQ(view().chart()->barCount(), expectedBars);
    EXPECT_GE(delta.onlyInB, 1u);
    bool labelled = false;
    for (int i = 0; i < view().chart()->barCount(); ++i)
        labelled |= view().chart()->barLabel(i).contains(QStringLiteral("only in B"));
    EXPECT_TRUE(labelled);
    // Sorted: the largest slowdown on top.
    for (std::size_t i = 1; i < delta.blocks.size(); ++i)
        EXPECT_GE(delta.blocks[i - 1].deltaPs, delta.blocks[i].deltaPs);

    // Both runs on one timeline axis.
    const auto& data = view().timelineView()->data();
    ASSERT_NE(data, nullptr);
    EXPECT_EQ(data->traces().size(), 2u);
    EXPECT_FALSE(view().comparison()->sameProgram); // another schedule, another program
    // So no event of B is matched with one of A (their ids name other instructions).
    for (const trace::Event& e : before.events)
        EXPECT_LT(data->findById(1, e.id), 0) << e.id;

    // Swapped, the delta changes sign.
    const std::int64_t forward = delta.deltaPs; // `delta` is the view's: the swap replaces it
    view().comboA()->setCurrentIndex(1);
    view().comboB()->setCurrentIndex(0);
    ASSERT_NE(view().comparison(), nullptr);
    EXPECT_EQ(view().comparison()->delta.deltaPs, -forward);
    EXPECT_NE(forward, 0);
}

TEST_F(CompareWindowTest, ARunOnHostIsPickedAsPredictionAgainstMeasurement) {
    if (!open(QStringLiteral("host")))
        FAIL() << "cannot open the committed sample";
    ASSERT_TRUE(test::runOnHost(*m_window));
    ASSERT_EQ(tab().runs()->size(), 2);
    EXPECT_EQ(tab().runs()->entries()[0].kind, RunEntry::Kind::HostPrediction);
    EXPECT_EQ(tab().runs()->entries()[1].kind, RunEntry::Kind::HostMeasurement);
    EXPECT_EQ(view().runA(), 0);
    EXPECT_EQ(view().runB(), 1);
    ASSERT_NE(view().comparison(), nullptr);
    EXPECT_TRUE(view().comparison()->sameProgram);
    // Same program: the timeline pairs every event by instruction id.
    const auto& data = view().timelineView()->data();
    ASSERT_NE(data, nullptr);
    for (const trace::Event& e : tab().runs()->entries()[0].trace->events)
        EXPECT_GE(data->findById(1, e.id), 0) << e.id;
    const MeasuredRun& run = *m_window->measureController()->last();
    EXPECT_EQ(view().comparison()->delta.totalBPs, trace::summarize(run.measured).totalPs);
    EXPECT_EQ(view().chart()->barCount(),
              std::min<int>(static_cast<int>(blocksOf(run.measured).size()), views::compare::DeltaChart::kMaxBars));
}

// The worst-predicted table: one row per block of the run, each with the split of
// trace::accuracyReport (prediction against measurement), worst first; a click selects the block
// in the graph.
TEST_F(CompareWindowTest, WorstPredictedBlocksAreOneClickAway) {
    if (!open(QStringLiteral("host")))
        FAIL() << "cannot open the committed sample";
    ASSERT_TRUE(test::runOnHost(*m_window));
    ASSERT_NE(view().comparison(), nullptr);
    const RunEntry& predicted = tab().runs()->entries()[0];
    const RunEntry& measured = tab().runs()->entries()[1];
    auto expected = trace::accuracyReport(*predicted.trace, {*measured.trace});
    ASSERT_TRUE(expected.ok());
    QTableView* table = view().blockTable();
    ASSERT_TRUE(table->isVisible());
    ASSERT_EQ(table->model()->rowCount(), static_cast<int>(expected->blocks.size()));
    ASSERT_GT(table->model()->rowCount(), 0);
    double worst = 0;
    for (const trace::BlockAccuracy& b : expected->blocks)
        worst = std::max(worst, std::abs(b.error));
    using Model = views::compare::BlockSplitModel;
    EXPECT_DOUBLE_EQ(table->model()->index(0, Model::ErrorColumn).data(Model::SortRole).toDouble(),
                     worst);

    const QModelIndex second =
        table->model()->index(std::min(1, table->model()->rowCount() - 1), Model::BlockColumn);
    const int block = second.data(Model::BlockRole).toInt();
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualRect(second).center());
    EXPECT_EQ(m_window->graphTab()->view()->selectedBlocks(), std::vector<int>{block});
}

TEST_F(CompareWindowTest, ImportedTracesJoinTheListAndABadOneIsReported) {
    if (!open(QStringLiteral("mncore2")))
        FAIL() << "cannot open the committed sample";
    QTemporaryDir dir;
    const QString good = dir.filePath(QStringLiteral("run.json"));
    ASSERT_TRUE(trace::saveTraceFile(m_window->emulateController()->last()->trace, good.toStdString()).empty());
    const QString bad = dir.filePath(QStringLiteral("bad.json"));
    {
        QFile file(bad);
        ASSERT_TRUE(file.open(QIODevice::WriteOnly));
        file.write("{\"strata\": {\"schema_version\": 1}, \"traceEvents\": [ {\"ph\": \"X\", \"dur\": -5");
    }
    RunList& runs = *tab().runs();
    QSignalSpy failed(&runs, &RunList::importFailed);
    runs.importFile(bad);
    ASSERT_TRUE(QTest::qWaitFor([&] { return failed.count() > 0; }, test::kLoadTimeoutMs));
    EXPECT_EQ(failed.at(0).at(0).toString(), bad);
    EXPECT_EQ(runs.size(), 0);
    EXPECT_FALSE(m_window->isBusy());

    QSignalSpy imported(&runs, &RunList::imported);
    runs.importFile(good);
    ASSERT_TRUE(QTest::qWaitFor([&] { return imported.count() > 0; }, test::kLoadTimeoutMs));
    tab().pinAction()->trigger();
    ASSERT_EQ(runs.size(), 2);
    EXPECT_EQ(runs.entries()[0].kind, RunEntry::Kind::Imported);
    EXPECT_TRUE(runs.entries()[0].name.contains(QStringLiteral("run.json")));
    // The file is the same prediction as the pinned one: nothing changed, same program.
    ASSERT_NE(view().comparison(), nullptr);
    EXPECT_EQ(view().comparison()->delta.deltaPs, 0);
    EXPECT_TRUE(view().comparison()->sameProgram);
}

} // namespace
} // namespace strata::gui
