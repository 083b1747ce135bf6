#include "views/OpTableView.h"

#include "TestGraphs.h"
#include "views/OpTableModel.h"

#include <QHeaderView>
#include <QTest>
#include <gtest/gtest.h>

namespace strata::views {
namespace {

int sumOfSections(const QHeaderView& header) {
    int sum = 0;
    for (int i = 0; i < header.count(); ++i)
        sum += header.sectionSize(i);
    return sum;
}

class OpTableViewTest : public ::testing::Test {
  protected:
    void SetUp() override {
        m_model.setGraph(test::makeSmallGraph());
        m_view.setModel(&m_model);
        m_view.resize(1400, 400);
        m_view.show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(&m_view));
        m_view.fitColumns();
    }
    int em() const { return m_view.fontMetrics().horizontalAdvance(QLatin1Char('M')); }

    OpTableModel m_model;
    OpTableView m_view;
};

TEST_F(OpTableViewTest, NameColumnTakesTheRoomLeft) {
    const QHeaderView& header = *m_view.horizontalHeader();
    EXPECT_EQ(sumOfSections(header), m_view.viewport()->width());
    EXPECT_GT(header.sectionSize(OpTableModel::NameColumn),
              header.sectionSize(OpTableModel::TypeColumn));
}

TEST_F(OpTableViewTest, NameColumnNeverShrinksBelowItsMinimum) {
    m_view.resize(500, 400);
    QTest::qWait(1);
    const QHeaderView& header = *m_view.horizontalHeader();
    EXPECT_GE(header.sectionSize(OpTableModel::NameColumn), 12 * em());
    EXPECT_GT(sumOfSections(header), m_view.viewport()->width()); // scrolls instead
}

TEST_F(OpTableViewTest, WideningAColumnTakesRoomFromTheName) {
    QHeaderView& header = *m_view.horizontalHeader();
    const int name = header.sectionSize(OpTableModel::NameColumn);
    header.resizeSection(OpTableModel::TypeColumn,
                         header.sectionSize(OpTableModel::TypeColumn) + 50);
    EXPECT_EQ(header.sectionSize(OpTableModel::NameColumn), name - 50);
    EXPECT_EQ(sumOfSections(header), m_view.viewport()->width());
}

TEST_F(OpTableViewTest, HeadersAreNotClipped) {
    const QHeaderView& header = *m_view.horizontalHeader();
    for (int column = 0; column < OpTableModel::ColumnCount; ++column)
        EXPECT_GE(header.sectionSize(column), header.sectionSizeHint(column)) << column;
}

} // namespace
} // namespace strata::views
