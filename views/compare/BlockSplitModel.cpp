#include "BlockSplitModel.h"

#include "views/timeline/TimeFormat.h"

#include <cmath>

namespace strata::views::compare {

namespace {

// The summed time of column `column` (one of the A/B split columns) of `b`.
double splitPs(const trace::BlockAccuracy& b, int column) {
    switch (column) {
    case BlockSplitModel::ComputeAColumn:
        return b.emulated.computePs;
    case BlockSplitModel::ComputeBColumn:
        return b.measured.computePs;
    case BlockSplitModel::TransferAColumn:
        return b.emulated.transferPs;
    case BlockSplitModel::TransferBColumn:
        return b.measured.transferPs;
    case BlockSplitModel::WaitAColumn:
        return b.emulated.waitPs;
    case BlockSplitModel::WaitBColumn:
        return b.measured.waitPs;
    default:
        return 0;
    }
}

QString percent(double error) {
    return QStringLiteral("%1%2 %")
        .arg(error > 0 ? QStringLiteral("+") : QString())
        .arg(100 * error, 0, 'f', 1);
}

} // namespace

BlockSplitModel::BlockSplitModel(QObject* parent) : QAbstractTableModel(parent) {}

void BlockSplitModel::setBlocks(std::vector<trace::BlockAccuracy> blocks) {
    beginResetModel();
    m_blocks = std::move(blocks);
    endResetModel();
}

int BlockSplitModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_blocks.size());
}

int BlockSplitModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant BlockSplitModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount)
        return {};
    const trace::BlockAccuracy& b = m_blocks[static_cast<std::size_t>(index.row())];
    const int column = index.column();
    if (role == BlockRole)
        return b.block;
    if (role == Qt::TextAlignmentRole)
        return column == BlockColumn ? QVariant() : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role == SortRole) {
        if (column == BlockColumn)
            return b.block;
        if (column == ErrorColumn)
            return std::abs(b.error);
        return splitPs(b, column);
    }
    if (role == Qt::DisplayRole) {
        if (column == BlockColumn)
            return QStringLiteral("B%1").arg(b.block);
        if (column == ErrorColumn)
            return b.measuredSpanPs > 0 ? percent(b.error) : QStringLiteral("\u2014");
        return timeline::formatDuration(splitPs(b, column));
    }
    if (role == Qt::ToolTipRole)
        return tr("B%1: block time %2 in A, %3 in B (median over the repeats); error %4")
            .arg(b.block)
            .arg(timeline::formatDuration(static_cast<double>(b.emulatedSpanPs)),
                 timeline::formatDuration(b.measuredSpanPs), percent(b.error));
    return {};
}

QVariant BlockSplitModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case BlockColumn:
        return tr("Block");
    case ErrorColumn:
        return tr("Error");
    case ComputeAColumn:
        return tr("Compute A");
    case ComputeBColumn:
        return tr("Compute B");
    case TransferAColumn:
        return tr("Transfer A");
    case TransferBColumn:
        return tr("Transfer B");
    case WaitAColumn:
        return tr("Wait A");
    case WaitBColumn:
        return tr("Wait B");
    default:
        return {};
    }
}

} // namespace strata::views::compare
