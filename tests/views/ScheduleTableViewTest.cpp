// The schedule table view: selection by block id, editors for the knobs within the target's
// limits, and painting (the SRAM bars) of a real schedule.

#include "views/schedule/ScheduleTableView.h"

#include "TestGraphs.h"
#include "schedule/Strategies.h"
#include "target/TargetLoader.h"
#include "views/schedule/ScheduleTableModel.h"

#include <QComboBox>
#include <QHeaderView>
#include <QImage>
#include <QLineEdit>
#include <QPixmap>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QTest>
#include <gtest/gtest.h>

namespace strata::views::schedule {
namespace {

namespace sch = strata::schedule;
using M = ScheduleTableModel;

class ScheduleTableViewTest : public ::testing::Test {
  protected:
    void SetUp() override {
        auto graph = test::makeSmallGraph();
        auto t = target::resolveTarget("mlu100");
        ASSERT_TRUE(t.ok());
        auto target = std::make_shared<const target::Target>(std::move(*t));
        sch::Schedule s = sch::makeSchedule(*graph, *target, sch::Strategy::PerOp);
        ScheduleSnapshot snap;
        snap.check =
            std::make_shared<const sch::ScheduleCheck>(sch::checkSchedule(s, *graph, *target));
        snap.schedule = std::make_shared<const sch::Schedule>(std::move(s));
        snap.graph = graph;
        snap.target = target;
        m_model.setSnapshot(snap);
        m_proxy.setSourceModel(&m_model);
        m_proxy.setSortRole(M::SortRole);
        m_view.setModel(&m_proxy);
        m_view.resize(1200, 300);
        m_view.fitColumns();
        m_view.show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(&m_view));
    }

    M m_model;
    QSortFilterProxyModel m_proxy;
    ScheduleTableView m_view;
};

TEST_F(ScheduleTableViewTest, SelectsRowsByBlockId) {
    ASSERT_EQ(m_model.rowCount(), 3);
    const int b1 = m_model.blockAt(1);
    const int b2 = m_model.blockAt(2);
    m_view.selectBlock(b1);
    EXPECT_EQ(m_view.currentBlock(), b1);
    EXPECT_EQ(m_view.selectedBlocks(), std::vector<int>{b1});
    m_view.selectBlocks({b2, b1});
    EXPECT_EQ(m_view.selectedBlocks(), (std::vector<int>{b1, b2}));
    // Sorted differently, the ids still find their rows.
    m_view.sortByColumn(M::FlopsColumn, Qt::DescendingOrder);
    m_view.selectBlock(b2);
    EXPECT_EQ(m_view.currentBlock(), b2);
    m_view.selectBlocks({});
    EXPECT_TRUE(m_view.selectedBlocks().empty());
    m_view.selectBlock(12345); // no such block: no selection, no crash
    EXPECT_TRUE(m_view.selectedBlocks().empty());
}

TEST_F(ScheduleTableViewTest, EditorsStayWithinTheKnobsRanges) {
    QAbstractItemDelegate* delegate = m_view.itemDelegate();
    QStyleOptionViewItem option;
    const QModelIndex mpIndex = m_proxy.index(0, M::MpColumn);
    std::unique_ptr<QWidget> mp(delegate->createEditor(m_view.viewport(), option, mpIndex));
    auto* spin = qobject_cast<QSpinBox*>(mp.get());
    ASSERT_NE(spin, nullptr);
    EXPECT_EQ(spin->minimum(), 1);
    EXPECT_EQ(spin->maximum(), 32); // mlu100's cores
    delegate->setEditorData(spin, mpIndex);
    EXPECT_EQ(spin->value(), 32);

    std::unique_ptr<QWidget> buffering(
        delegate->createEditor(m_view.viewport(), option, m_proxy.index(0, M::BufferingColumn)));
    auto* combo = qobject_cast<QComboBox*>(buffering.get());
    ASSERT_NE(combo, nullptr);
    EXPECT_EQ(combo->count(), 2);

    std::unique_ptr<QWidget> tile(
        delegate->createEditor(m_view.viewport(), option, m_proxy.index(0, M::TileColumn)));
    auto* edit = qobject_cast<QLineEdit*>(tile.get());
    ASSERT_NE(edit, nullptr);
    QString text = QStringLiteral("1x4x8x8");
    int pos = 0;
    EXPECT_EQ(edit->validator()->validate(text, pos), QValidator::Acceptable);
    text = QStringLiteral("1x4y");
    EXPECT_EQ(edit->validator()->validate(text, pos), QValidator::Invalid);

    // A committed editor becomes a request, not a change.
    QSignalSpy requests(&m_model, &M::tileEditRequested);
    edit->setText(QStringLiteral("1x2x8x8"));
    delegate->setModelData(edit, &m_proxy, m_proxy.index(0, M::TileColumn));
    ASSERT_EQ(requests.count(), 1);
    EXPECT_EQ(requests.at(0).at(1).toString(), QStringLiteral("1x2x8x8"));
}

TEST_F(ScheduleTableViewTest, FitsAndPaints) {
    for (int column = 0; column < M::ColumnCount; ++column)
        EXPECT_GT(m_view.columnWidth(column), 10) << column;
    const QPixmap pixmap = m_view.grab();
    EXPECT_FALSE(pixmap.isNull());
}

// Before a model is open the table is not a blank box: it says what fills it, in its middle.
TEST(ScheduleTableViewEmpty, SaysWhatFillsIt) {
    M model;
    ScheduleTableView view;
    view.setModel(&model);
    view.resize(800, 240);
    view.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&view));
    ASSERT_EQ(model.rowCount(), 0);
    EXPECT_FALSE(view.placeholderText().isEmpty());
    const QImage image = view.viewport()->grab().toImage();
    const QRgb background = image.pixel(2, 2);
    int inked = 0;
    for (int y = image.height() / 3; y < image.height() * 2 / 3; ++y)
        for (int x = 0; x < image.width(); ++x)
            inked += image.pixel(x, y) != background;
    EXPECT_GT(inked, 50) << "no text painted in the empty table";
}

} // namespace
} // namespace strata::views::schedule
