// The schedule table model over a real schedule of a small graph: the model contract, one row
// per block with its knobs and analysis, sorting by number, errors on their block's row, and
// knob edits forwarded as requests without changing the model.

#include "views/schedule/ScheduleTableModel.h"

#include "TestGraphs.h"
#include "schedule/Edits.h"
#include "schedule/Strategies.h"
#include "target/TargetLoader.h"
#include "views/graph/GraphStyle.h"

#include <QAbstractItemModelTester>
#include <QBrush>
#include <QColor>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <gtest/gtest.h>

namespace strata::views::schedule {
namespace {

namespace sch = strata::schedule;
using M = ScheduleTableModel;

std::shared_ptr<const target::Target> mncore2() {
    auto t = target::resolveTarget("mncore2");
    EXPECT_TRUE(t.ok());
    return std::make_shared<const target::Target>(std::move(*t));
}

ScheduleSnapshot snapshotOf(std::shared_ptr<const ir::Graph> graph,
                            std::shared_ptr<const target::Target> target, sch::Schedule s) {
    ScheduleSnapshot snap;
    snap.revision = 1;
    snap.check = std::make_shared<const sch::ScheduleCheck>(sch::checkSchedule(s, *graph, *target));
    snap.schedule = std::make_shared<const sch::Schedule>(std::move(s));
    snap.graph = std::move(graph);
    snap.target = std::move(target);
    return snap;
}

class ScheduleTableModelTest : public ::testing::Test {
  protected:
    void SetUp() override {
        m_graph = test::makeSmallGraph();
        m_target = mncore2();
        m_perOp = sch::makeSchedule(*m_graph, *m_target, sch::Strategy::PerOp);
        ASSERT_EQ(m_perOp.blocks.size(), 3u);
    }

    QString text(int row, int column) const { return m_model.index(row, column).data().toString(); }

    std::shared_ptr<const ir::Graph> m_graph;
    std::shared_ptr<const target::Target> m_target;
    sch::Schedule m_perOp;
    M m_model;
};

TEST_F(ScheduleTableModelTest, PassesTheModelTester) {
    QAbstractItemModelTester tester(&m_model,
                                    QAbstractItemModelTester::FailureReportingMode::Fatal);
    m_model.setSnapshot(snapshotOf(m_graph, m_target, m_perOp));
    EXPECT_EQ(m_model.rowCount(), 3);
    m_model.setSnapshot({});
    EXPECT_EQ(m_model.rowCount(), 0);

    QSortFilterProxyModel proxy;
    QAbstractItemModelTester proxyTester(&proxy,
                                         QAbstractItemModelTester::FailureReportingMode::Fatal);
    proxy.setSourceModel(&m_model);
    proxy.setSortRole(M::SortRole);
    m_model.setSnapshot(snapshotOf(m_graph, m_target, m_perOp));
    proxy.sort(M::FlopsColumn, Qt::DescendingOrder);
    EXPECT_EQ(proxy.rowCount(), 3);
    // Predictions change one column in place (the testers check the dataChanged range).
    m_model.setPredictions({{m_perOp.blocks[0].id, 2e-3}, {m_perOp.blocks[2].id, 5e-6}});
    proxy.sort(M::PredictedColumn, Qt::DescendingOrder);
    EXPECT_EQ(proxy.index(0, M::BlockColumn).data(M::BlockIdRole).toInt(), m_perOp.blocks[0].id);
    m_model.clearPredictions();
    // Measurements too (Measured and Error, one dataChanged range).
    m_model.setMeasurements({{m_perOp.blocks[1].id, {1e-3, 0.3}}, {m_perOp.blocks[2].id, {2e-3, -0.05}}});
    proxy.sort(M::PredictionErrorColumn, Qt::DescendingOrder);
    EXPECT_EQ(proxy.index(0, M::BlockColumn).data(M::BlockIdRole).toInt(), m_perOp.blocks[1].id);
    m_model.clearMeasurements();
}

// The split of a block's time by kind, predicted / measured, where the run gave it; sorted by the
// measured time.
TEST_F(ScheduleTableModelTest, ComputeTransferAndWaitPredictedAgainstMeasured) {
    m_model.setSnapshot(snapshotOf(m_graph, m_target, m_perOp));
    M::BlockMeasurement split{1e-3, 0.3, M::KindSplit{2e-3, 5e-4, 1e-6},
                              M::KindSplit{1e-3, 7e-4, 3e-6}};
    M::BlockMeasurement noSplit{2e-3, -0.05, std::nullopt, std::nullopt};
    m_model.setMeasurements({{m_perOp.blocks[0].id, split}, {m_perOp.blocks[1].id, noSplit}});
    EXPECT_EQ(text(0, M::ComputeSplitColumn), QStringLiteral("2.00 ms / 1.00 ms"));
    EXPECT_EQ(text(0, M::TransferSplitColumn), QStringLiteral("500 \u00b5s / 700 \u00b5s"));
    EXPECT_EQ(text(0, M::WaitSplitColumn), QStringLiteral("1.00 \u00b5s / 3.00 \u00b5s"));
    EXPECT_EQ(text(1, M::ComputeSplitColumn), QString());
    EXPECT_EQ(m_model.index(0, M::TransferSplitColumn).data(M::SortRole).toDouble(), 7e-4);
    EXPECT_EQ(m_model.index(1, M::TransferSplitColumn).data(M::SortRole).toDouble(), -1.0);
    EXPECT_EQ(m_model.headerData(M::ComputeSplitColumn, Qt::Horizontal).toString(),
              QStringLiteral("Compute"));
    EXPECT_FALSE(m_model.headerData(M::WaitSplitColumn, Qt::Horizontal, Qt::ToolTipRole)
                     .toString()
                     .isEmpty());
}

TEST_F(ScheduleTableModelTest, MeasuredTimesAndSignedErrorsUntilTheNextSnapshot) {
    m_model.setSnapshot(snapshotOf(m_graph, m_target, m_perOp));
    m_model.setPredictions({{m_perOp.blocks[0].id, 1.3e-3}, {m_perOp.blocks[1].id, 0.95e-3}});
    QSignalSpy changed(&m_model, &QAbstractItemModel::dataChanged);
    m_model.setMeasurements({{m_perOp.blocks[0].id, {1e-3, 0.3}},
                             {m_perOp.blocks[1].id, {1e-3, -0.05}},
                             {m_perOp.blocks[2].id, {2e-3, 0.12}}});
    ASSERT_EQ(changed.count(), 1);
    EXPECT_EQ(changed.at(0).at(0).toModelIndex().column(), M::MeasuredColumn);
    EXPECT_EQ(changed.at(0).at(1).toModelIndex().column(), M::WaitSplitColumn);
    EXPECT_EQ(text(0, M::MeasuredColumn), QStringLiteral("1.00 ms"));
    EXPECT_EQ(text(0, M::PredictionErrorColumn), QStringLiteral("+30.0 %"));
    EXPECT_EQ(text(1, M::PredictionErrorColumn), QStringLiteral("-5.0 %"));
    EXPECT_EQ(m_model.index(1, M::PredictionErrorColumn).data(M::PredictionErrorRole).toDouble(), -0.05);
    EXPECT_EQ(m_model.headerData(M::MeasuredColumn, Qt::Horizontal).toString(), QStringLiteral("Measured"));
    EXPECT_EQ(m_model.headerData(M::PredictionErrorColumn, Qt::Horizontal).toString(), QStringLiteral("Error"));
    // Coloured by size: red from 25 %, amber from 10 %, plain below.
    auto colour = [&](int row) {
        return m_model.index(row, M::PredictionErrorColumn).data(Qt::ForegroundRole);
    };
    EXPECT_EQ(colour(0).value<QBrush>().color(), QColor(0xC6, 0x28, 0x28));
    EXPECT_EQ(colour(2).value<QBrush>().color(), QColor(0xB2, 0x6A, 0x00));
    EXPECT_FALSE(colour(1).isValid());
    EXPECT_TRUE(m_model.index(0, M::PredictionErrorColumn).data(Qt::ToolTipRole).toString().contains(
        QStringLiteral("too slow")));
    // Sorted by size of the error; unmeasured blocks sort last.
    EXPECT_EQ(m_model.index(1, M::PredictionErrorColumn).data(M::SortRole).toDouble(), 0.05);
    m_model.setMeasurements({{m_perOp.blocks[0].id, {1e-3, 0.3}}});
    EXPECT_EQ(text(2, M::MeasuredColumn), QString());
    EXPECT_FALSE(m_model.index(2, M::PredictionErrorColumn).data(M::PredictionErrorRole).isValid());
    EXPECT_EQ(m_model.index(2, M::PredictionErrorColumn).data(M::SortRole).toDouble(), -1.0);
    // A new snapshot is another schedule: the run measured the previous one.
    m_model.setSnapshot(snapshotOf(m_graph, m_target, m_perOp));
    EXPECT_EQ(text(0, M::MeasuredColumn), QString());
    EXPECT_EQ(text(0, M::PredictionErrorColumn), QString());
}

TEST_F(ScheduleTableModelTest, PredictedTimesFillTheirColumnUntilTheNextSnapshot) {
    m_model.setSnapshot(snapshotOf(m_graph, m_target, m_perOp));
    QSignalSpy changed(&m_model, &QAbstractItemModel::dataChanged);
    m_model.setPredictions({{m_perOp.blocks[1].id, 1.5e-3}});
    ASSERT_EQ(changed.count(), 1);
    EXPECT_EQ(changed.at(0).at(0).toModelIndex().column(), M::PredictedColumn);
    EXPECT_EQ(changed.at(0).at(1).toModelIndex().column(), M::PredictedColumn);
    EXPECT_EQ(text(1, M::PredictedColumn), QStringLiteral("1.50 ms"));
    EXPECT_EQ(text(0, M::PredictedColumn), QString());
    EXPECT_EQ(m_model.index(1, M::PredictedColumn).data(M::SortRole).toDouble(), 1.5e-3);
    EXPECT_EQ(m_model.headerData(M::PredictedColumn, Qt::Horizontal).toString(),
              QStringLiteral("Predicted"));
    // A new snapshot is another schedule: its predictions are not known yet.
    m_model.setSnapshot(snapshotOf(m_graph, m_target, m_perOp));
    EXPECT_EQ(text(1, M::PredictedColumn), QString());
}

TEST_F(ScheduleTableModelTest, OneRowPerBlockWithItsKnobsAndAnalysis) {
    m_model.setSnapshot(snapshotOf(m_graph, m_target, m_perOp));
    ASSERT_EQ(m_model.rowCount(), 3);
    EXPECT_EQ(m_model.columnCount(), M::ColumnCount);
    EXPECT_EQ(text(0, M::BlockColumn), QStringLiteral("B0"));
    EXPECT_EQ(text(0, M::OpsColumn), QStringLiteral("1"));
    EXPECT_EQ(text(0, M::RangeColumn), QStringLiteral("conv1"));
    EXPECT_EQ(text(2, M::RangeColumn), QStringLiteral("fc"));
    EXPECT_EQ(text(0, M::MpColumn), QString::number(m_target->maxMp()));
    EXPECT_TRUE(text(0, M::TileColumn).endsWith(QLatin1Char('*')))
        << text(0, M::TileColumn).toStdString();
    EXPECT_FALSE(text(0, M::DramColumn).isEmpty());
    EXPECT_TRUE(text(0, M::SramColumn).contains(QStringLiteral(" / ")));
    EXPECT_TRUE(text(0, M::ErrorColumn).isEmpty());
    EXPECT_EQ(m_model.index(1, 0).data(M::BlockIdRole).toInt(), m_perOp.blocks[1].id);
    EXPECT_EQ(m_model.rowOfBlock(m_perOp.blocks[2].id), 2);
    EXPECT_EQ(m_model.blockAt(2), m_perOp.blocks[2].id);
    EXPECT_EQ(m_model.blockAt(3), -1);
    // The block's colour is its cluster's in the graph.
    EXPECT_EQ(m_model.index(1, M::BlockColumn).data(Qt::DecorationRole).value<QColor>(),
              graph::blockColor(m_perOp.blocks[1].id));
    const double fraction = m_model.index(0, M::SramColumn).data(M::SramFractionRole).toDouble();
    EXPECT_GT(fraction, 0.0);
    EXPECT_LE(fraction, 1.0);
    EXPECT_EQ(m_model.index(0, M::MpColumn).data(M::MaxMpRole).toInt(), m_target->maxMp());
}

TEST_F(ScheduleTableModelTest, AFusedBlockShowsItsRange) {
    auto fused = sch::mergeBlocks(m_perOp, *m_graph, m_perOp.blocks[0].id, m_perOp.blocks[1].id);
    ASSERT_TRUE(fused.ok());
    m_model.setSnapshot(snapshotOf(m_graph, m_target, *fused));
    ASSERT_EQ(m_model.rowCount(), 2);
    EXPECT_EQ(text(0, M::OpsColumn), QStringLiteral("2"));
    EXPECT_EQ(text(0, M::RangeColumn), QStringLiteral("conv1 \u2192 relu1"));
    EXPECT_TRUE(m_model.index(0, M::RangeColumn)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("relu1")));
}

TEST_F(ScheduleTableModelTest, SortsByNumberNotByText) {
    m_model.setSnapshot(snapshotOf(m_graph, m_target, m_perOp));
    for (int column = 0; column < M::ColumnCount; ++column)
        EXPECT_TRUE(m_model.index(0, column).data(M::SortRole).isValid()) << column;
    // fc's 1 GFLOP sorts above conv's few FLOPs, whatever the unit text says.
    QSortFilterProxyModel proxy;
    proxy.setSourceModel(&m_model);
    proxy.setSortRole(M::SortRole);
    proxy.sort(M::FlopsColumn, Qt::DescendingOrder);
    EXPECT_EQ(proxy.index(0, M::RangeColumn).data().toString(), QStringLiteral("fc"));
}

TEST_F(ScheduleTableModelTest, ErrorsShowOnTheirBlocksRow) {
    auto tooMany = sch::setMp(m_perOp, m_perOp.blocks[1].id, m_target->maxMp() + 1);
    ASSERT_TRUE(tooMany.ok());
    const ScheduleSnapshot snap = snapshotOf(m_graph, m_target, *tooMany);
    ASSERT_FALSE(snap.check->valid());
    m_model.setSnapshot(snap);
    EXPECT_TRUE(m_model.index(1, 0).data(M::HasErrorRole).toBool());
    EXPECT_FALSE(m_model.index(0, 0).data(M::HasErrorRole).toBool());
    EXPECT_TRUE(text(1, M::ErrorColumn).contains(QStringLiteral("mp")))
        << text(1, M::ErrorColumn).toStdString();
    EXPECT_TRUE(text(0, M::ErrorColumn).isEmpty());
    EXPECT_TRUE(m_model.index(1, 3).data(Qt::BackgroundRole).isValid());
}

TEST_F(ScheduleTableModelTest, KnobEditsAreRequestsNotChanges) {
    m_model.setSnapshot(snapshotOf(m_graph, m_target, m_perOp));
    const int id = m_perOp.blocks[0].id;
    EXPECT_TRUE(m_model.flags(m_model.index(0, M::MpColumn)) & Qt::ItemIsEditable);
    EXPECT_TRUE(m_model.flags(m_model.index(0, M::TileColumn)) & Qt::ItemIsEditable);
    EXPECT_TRUE(m_model.flags(m_model.index(0, M::BufferingColumn)) & Qt::ItemIsEditable);
    EXPECT_FALSE(m_model.flags(m_model.index(0, M::DramColumn)) & Qt::ItemIsEditable);
    EXPECT_EQ(m_model.index(0, M::TileColumn).data(Qt::EditRole).toString(),
              QStringLiteral("auto"));

    QSignalSpy mp(&m_model, &M::mpEditRequested);
    QSignalSpy tile(&m_model, &M::tileEditRequested);
    QSignalSpy buffering(&m_model, &M::bufferingEditRequested);
    EXPECT_FALSE(m_model.setData(m_model.index(0, M::MpColumn), 1));
    EXPECT_FALSE(m_model.setData(m_model.index(0, M::TileColumn), QStringLiteral("1x4x4x4")));
    EXPECT_FALSE(m_model.setData(m_model.index(0, M::BufferingColumn), 1));
    // The same value asks for nothing.
    EXPECT_FALSE(m_model.setData(m_model.index(0, M::TileColumn), QStringLiteral("auto")));
    ASSERT_EQ(mp.count(), m_target->maxMp() == 1 ? 0 : 1);
    if (mp.count()) {
        EXPECT_EQ(mp.at(0).at(0).toInt(), id);
    }
    ASSERT_EQ(tile.count(), 1);
    EXPECT_EQ(tile.at(0).at(1).toString(), QStringLiteral("1x4x4x4"));
    ASSERT_EQ(buffering.count(), m_perOp.blocks[0].buffering == 1 ? 0 : 1);
    // Nothing changed: the model waits for the next snapshot.
    EXPECT_EQ(text(0, M::MpColumn), QString::number(m_perOp.blocks[0].mp));
}

} // namespace
} // namespace strata::views::schedule
