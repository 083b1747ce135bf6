// The Compare tab's worst-predicted table: one row per block with A's and B's compute, transfer
// and wait time, sorted by absolute error (worst first) through the sort role, under
// QAbstractItemModelTester; a click on a row asks for its block.

#include "views/compare/BlockSplitModel.h"

#include "views/compare/CompareView.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTest>
#include <gtest/gtest.h>

namespace strata::views::compare {
namespace {

trace::BlockAccuracy block(int id, double computeA, double computeB, double error) {
    trace::BlockAccuracy b;
    b.block = id;
    b.emulated.computePs = computeA;
    b.measured.computePs = computeB;
    b.emulated.transferPs = 2 * computeA;
    b.measured.transferPs = 3 * computeB;
    b.emulated.waitPs = 5;
    b.measured.waitPs = 7;
    b.measuredSpanPs = computeB + 3 * computeB;
    b.emulatedSpanPs = static_cast<std::int64_t>(b.measuredSpanPs * (1 + error));
    b.error = error;
    return b;
}

std::vector<trace::BlockAccuracy> threeBlocks() {
    return {block(0, 1e6, 1.1e6, -0.1), block(1, 2e6, 1e6, +0.6), block(2, 3e6, 2e6, -0.3)};
}

TEST(BlockSplitModel, RowsHoldEachSideOfTheSplit) {
    BlockSplitModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setBlocks(threeBlocks());
    ASSERT_EQ(model.rowCount(), 3);
    ASSERT_EQ(model.columnCount(), BlockSplitModel::ColumnCount);
    EXPECT_EQ(model.index(1, BlockSplitModel::BlockColumn).data().toString(), QStringLiteral("B1"));
    EXPECT_EQ(model.index(1, BlockSplitModel::ErrorColumn).data().toString(),
              QStringLiteral("+60.0 %"));
    EXPECT_EQ(model.index(2, BlockSplitModel::ErrorColumn).data().toString(),
              QStringLiteral("-30.0 %"));
    EXPECT_DOUBLE_EQ(
        model.index(1, BlockSplitModel::ComputeAColumn).data(BlockSplitModel::SortRole).toDouble(),
        2e6);
    EXPECT_DOUBLE_EQ(
        model.index(1, BlockSplitModel::ComputeBColumn).data(BlockSplitModel::SortRole).toDouble(),
        1e6);
    EXPECT_DOUBLE_EQ(
        model.index(1, BlockSplitModel::TransferBColumn).data(BlockSplitModel::SortRole).toDouble(),
        3e6);
    EXPECT_DOUBLE_EQ(
        model.index(1, BlockSplitModel::WaitAColumn).data(BlockSplitModel::SortRole).toDouble(), 5);
    EXPECT_DOUBLE_EQ(
        model.index(1, BlockSplitModel::WaitBColumn).data(BlockSplitModel::SortRole).toDouble(), 7);
    EXPECT_EQ(model.index(2, BlockSplitModel::WaitAColumn).data(BlockSplitModel::BlockRole).toInt(),
              2);
    model.setBlocks({});
    EXPECT_EQ(model.rowCount(), 0);
}

TEST(BlockSplitModel, SortedByAbsoluteErrorTheWorstComesFirst) {
    BlockSplitModel model;
    QSortFilterProxyModel proxy;
    proxy.setSourceModel(&model);
    proxy.setSortRole(BlockSplitModel::SortRole);
    model.setBlocks(threeBlocks());
    proxy.sort(BlockSplitModel::ErrorColumn, Qt::DescendingOrder);
    std::vector<int> order;
    for (int row = 0; row < proxy.rowCount(); ++row)
        order.push_back(proxy.index(row, 0).data(BlockSplitModel::BlockRole).toInt());
    EXPECT_EQ(order, (std::vector<int>{1, 2, 0}));
}

TEST(CompareViewBlocks, WorstPredictedTableShowsTheSplitAndAClickAsksForTheBlock) {
    CompareView view;
    view.resize(1200, 700);
    view.show();
    CompareView::Comparison c;
    c.delta.totalAPs = 10;
    c.delta.totalBPs = 12;
    c.sameProgram = true;
    c.blocks = threeBlocks();
    view.showComparison(c);
    QTableView* table = view.blockTable();
    ASSERT_NE(table, nullptr);
    EXPECT_TRUE(table->isVisible());
    ASSERT_EQ(table->model()->rowCount(), 3);
    EXPECT_EQ(table->model()->index(0, 0).data(BlockSplitModel::BlockRole).toInt(),
              1); // worst first

    QSignalSpy asked(&view, &CompareView::blockActivated);
    const QRect row = table->visualRect(table->model()->index(1, BlockSplitModel::ErrorColumn));
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, row.center());
    ASSERT_EQ(asked.count(), 1);
    EXPECT_EQ(asked.at(0).at(0).toInt(), 2);

    // Runs of different programs have no split: the table goes away.
    c.sameProgram = false;
    c.blocks.clear();
    view.showComparison(c);
    EXPECT_FALSE(table->isVisible());
}

} // namespace
} // namespace strata::views::compare
