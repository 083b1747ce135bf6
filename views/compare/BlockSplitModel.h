#pragma once
// The Compare tab's per-block split (docs/COMPARE.md): for each block, the compute, transfer and
// wait time of run A (the prediction) and run B (the measurement), and the error of A's block
// time against B's, from core's trace::accuracyReport (its per-block maths; nothing is computed
// here). Sorted by SortRole, the Error column by absolute error: the worst-predicted blocks first.

#include "trace/AccuracyReport.h"

#include <QAbstractTableModel>
#include <vector>

namespace strata::views::compare {

class BlockSplitModel : public QAbstractTableModel {
    Q_OBJECT

  public:
    enum Column {
        BlockColumn,
        ErrorColumn,
        ComputeAColumn,
        ComputeBColumn,
        TransferAColumn,
        TransferBColumn,
        WaitAColumn,
        WaitBColumn,
        ColumnCount
    };
    enum Role {
        SortRole = Qt::UserRole + 1, // numbers; the Error column's is the absolute error
        BlockRole,                   // the block id, on every column
    };

    explicit BlockSplitModel(QObject* parent = nullptr);

    // One row per block of `blocks` (emulated = A, measured = B).
    void setBlocks(std::vector<trace::BlockAccuracy> blocks);
    const std::vector<trace::BlockAccuracy>& blocks() const { return m_blocks; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

  private:
    std::vector<trace::BlockAccuracy> m_blocks;
};

} // namespace strata::views::compare
