#include "views/OpTableModel.h"

#include "TestGraphs.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QStringList>
#include <gtest/gtest.h>

namespace strata::views {
namespace {

// Collects what QAbstractItemModelTester reports; outside a QtTest run it can only warn.
class ModelTesterMessages {
  public:
    ModelTesterMessages() {
        s_messages.clear();
        m_previous = qInstallMessageHandler(&ModelTesterMessages::handle);
    }
    ~ModelTesterMessages() { qInstallMessageHandler(m_previous); }
    const QStringList& messages() const { return s_messages; }

  private:
    static void handle(QtMsgType type, const QMessageLogContext& context, const QString& text) {
        if (type != QtDebugMsg && context.category &&
            QByteArray(context.category).startsWith("qt.modeltest"))
            s_messages << text;
    }
    static inline QStringList s_messages;
    QtMessageHandler m_previous = nullptr;
};

QString display(const QAbstractItemModel& model, int row, int column) {
    return model.index(row, column).data(Qt::DisplayRole).toString();
}

TEST(OpTableModel, EmptyWithoutGraph) {
    OpTableModel model;
    EXPECT_EQ(model.rowCount(), 0);
    EXPECT_EQ(model.columnCount(), OpTableModel::ColumnCount);
    EXPECT_EQ(model.graph(), nullptr);
}

TEST(OpTableModel, PassesTheModelTesterAcrossResets) {
    ModelTesterMessages log;
    OpTableModel model;
    QAbstractItemModelTester tester(&model,
                                    QAbstractItemModelTester::FailureReportingMode::Warning);
    model.setGraph(test::makeSmallGraph());
    model.setGraph(nullptr);
    model.setGraph(test::makeSmallGraph());
    EXPECT_TRUE(log.messages().isEmpty()) << log.messages().join('\n').toStdString();
}

TEST(OpTableModel, ProxyOverModelPassesTheModelTester) {
    ModelTesterMessages log;
    OpTableModel model;
    QSortFilterProxyModel proxy;
    proxy.setSourceModel(&model);
    proxy.setSortRole(OpTableModel::SortRole);
    proxy.setFilterRole(OpTableModel::FilterRole);
    QAbstractItemModelTester tester(&proxy,
                                    QAbstractItemModelTester::FailureReportingMode::Warning);
    model.setGraph(test::makeSmallGraph());
    proxy.sort(OpTableModel::FlopsColumn, Qt::DescendingOrder);
    proxy.setFilterFixedString(QStringLiteral("re"));
    proxy.setFilterFixedString({});
    EXPECT_TRUE(log.messages().isEmpty()) << log.messages().join('\n').toStdString();
}

TEST(OpTableModel, SetGraphResetsTheModel) {
    OpTableModel model;
    QSignalSpy aboutToReset(&model, &QAbstractItemModel::modelAboutToBeReset);
    QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
    model.setGraph(test::makeSmallGraph());
    EXPECT_EQ(aboutToReset.count(), 1);
    EXPECT_EQ(reset.count(), 1);
    EXPECT_EQ(model.rowCount(), 3);
    EXPECT_EQ(model.rowCount(model.index(0, 0)), 0); // a table: no children
}

TEST(OpTableModel, DisplaysOpsInTopologicalOrder) {
    OpTableModel model;
    model.setGraph(test::makeSmallGraph());
    EXPECT_EQ(display(model, 0, OpTableModel::IndexColumn), "0");
    EXPECT_EQ(display(model, 0, OpTableModel::NameColumn), "conv1");
    EXPECT_EQ(display(model, 0, OpTableModel::TypeColumn), "Conv");
    EXPECT_EQ(display(model, 0, OpTableModel::ClassColumn), "conv");
    EXPECT_EQ(display(model, 0, OpTableModel::OutputShapesColumn), "1x4x8x8");
    EXPECT_EQ(display(model, 0, OpTableModel::FlopsColumn), "9 FLOP");
    EXPECT_EQ(display(model, 0, OpTableModel::BytesReadColumn), "2 KiB");
    EXPECT_EQ(display(model, 0, OpTableModel::BytesWrittenColumn), "1 KiB");
    EXPECT_EQ(display(model, 0, OpTableModel::ParametersColumn), "112");

    EXPECT_EQ(display(model, 1, OpTableModel::ClassColumn), "elementwise");
    EXPECT_EQ(display(model, 1, OpTableModel::ParametersColumn), QStringLiteral("—"));

    EXPECT_EQ(display(model, 2, OpTableModel::NameColumn), "fc");
    EXPECT_EQ(display(model, 2, OpTableModel::FlopsColumn), "1 GFLOP");
    EXPECT_EQ(display(model, 2, OpTableModel::BytesReadColumn), "5 MiB");
}

TEST(OpTableModel, HeadersNameEveryColumn) {
    OpTableModel model;
    for (int c = 0; c < OpTableModel::ColumnCount; ++c)
        EXPECT_FALSE(model.headerData(c, Qt::Horizontal).toString().isEmpty()) << c;
    EXPECT_EQ(model.headerData(OpTableModel::FlopsColumn, Qt::Horizontal).toString(), "FLOPs");
    EXPECT_FALSE(model.headerData(0, Qt::Vertical).isValid());
}

TEST(OpTableModel, SortRoleGivesNumbersForNumericColumns) {
    OpTableModel model;
    model.setGraph(test::makeSmallGraph());
    const QVariant flops = model.index(2, OpTableModel::FlopsColumn).data(OpTableModel::SortRole);
    EXPECT_EQ(flops.typeId(), QMetaType::Double);
    EXPECT_DOUBLE_EQ(flops.toDouble(), 1e9);
    EXPECT_EQ(
        model.index(2, OpTableModel::BytesReadColumn).data(OpTableModel::SortRole).toULongLong(),
        5u << 20);
    EXPECT_EQ(
        model.index(0, OpTableModel::ParametersColumn).data(OpTableModel::SortRole).toULongLong(),
        112u);
    EXPECT_EQ(
        model.index(2, OpTableModel::OutputShapesColumn).data(OpTableModel::SortRole).toLongLong(),
        64); // 1x4x8x2 elements
    EXPECT_EQ(model.index(1, OpTableModel::IndexColumn).data(OpTableModel::SortRole).toInt(), 1);
    EXPECT_EQ(model.index(2, OpTableModel::NameColumn).data(OpTableModel::OpIndexRole).toInt(), 2);
}

TEST(OpTableModel, ProxySortsNumericallyNotByDisplayText) {
    OpTableModel model;
    model.setGraph(test::makeSmallGraph());
    QSortFilterProxyModel proxy;
    proxy.setSourceModel(&model);
    proxy.setSortRole(OpTableModel::SortRole);
    proxy.sort(OpTableModel::FlopsColumn, Qt::AscendingOrder);
    // As text "1 GFLOP" < "10 FLOP" < "9 FLOP"; as numbers 9 < 10 < 1e9.
    EXPECT_EQ(display(proxy, 0, OpTableModel::NameColumn), "conv1");
    EXPECT_EQ(display(proxy, 1, OpTableModel::NameColumn), "relu1");
    EXPECT_EQ(display(proxy, 2, OpTableModel::NameColumn), "fc");
    proxy.sort(OpTableModel::FlopsColumn, Qt::DescendingOrder);
    EXPECT_EQ(display(proxy, 0, OpTableModel::NameColumn), "fc");
}

TEST(OpTableModel, FilterRoleMatchesNameOrType) {
    OpTableModel model;
    model.setGraph(test::makeSmallGraph());
    QSortFilterProxyModel proxy;
    proxy.setSourceModel(&model);
    proxy.setFilterRole(OpTableModel::FilterRole);
    proxy.setFilterKeyColumn(OpTableModel::NameColumn);
    proxy.setFilterCaseSensitivity(Qt::CaseInsensitive);

    proxy.setFilterFixedString(QStringLiteral("matmul")); // type only
    ASSERT_EQ(proxy.rowCount(), 1);
    EXPECT_EQ(display(proxy, 0, OpTableModel::NameColumn), "fc");

    proxy.setFilterFixedString(QStringLiteral("relu1")); // name
    ASSERT_EQ(proxy.rowCount(), 1);
    EXPECT_EQ(display(proxy, 0, OpTableModel::TypeColumn), "Relu");

    proxy.setFilterFixedString(QStringLiteral("nothing-like-this"));
    EXPECT_EQ(proxy.rowCount(), 0);
    proxy.setFilterFixedString({});
    EXPECT_EQ(proxy.rowCount(), 3);
}

TEST(OpTableModel, NumericColumnsAreRightAligned) {
    OpTableModel model;
    model.setGraph(test::makeSmallGraph());
    auto alignment = [&](int column) {
        return model.index(0, column).data(Qt::TextAlignmentRole).value<Qt::Alignment>();
    };
    EXPECT_TRUE(alignment(OpTableModel::FlopsColumn) & Qt::AlignRight);
    EXPECT_TRUE(alignment(OpTableModel::NameColumn) & Qt::AlignLeft);
}

TEST(OpTableModel, ToolTipListsInputsAndOutputs) {
    OpTableModel model;
    model.setGraph(test::makeSmallGraph());
    const QString tip = model.index(0, OpTableModel::NameColumn).data(Qt::ToolTipRole).toString();
    EXPECT_TRUE(tip.contains(QStringLiteral("conv1.weight"))) << tip.toStdString();
    EXPECT_TRUE(tip.contains(QStringLiteral("4x3x3x3"))) << tip.toStdString();
    EXPECT_TRUE(tip.contains(QStringLiteral("conv1_out"))) << tip.toStdString();
}

TEST(OpTableModel, InvalidIndexGivesNoData) {
    OpTableModel model;
    model.setGraph(test::makeSmallGraph());
    EXPECT_FALSE(model.data(QModelIndex()).isValid());
}

} // namespace
} // namespace strata::views
