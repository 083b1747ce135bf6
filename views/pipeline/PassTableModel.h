#pragma once
// One row per compiler pass of a compile, in pipeline order: its name, what it does, the time
// it took and its share of the passes' total (for a bar). Reset as a whole with each compile.

#include "compiler/Pipeline.h"

#include <QAbstractTableModel>
#include <memory>

namespace strata::views::pipeline {

class PassTableModel : public QAbstractTableModel {
    Q_OBJECT

  public:
    enum Column { NameColumn, SummaryColumn, TimeColumn, ShareColumn, ColumnCount };
    enum Role {
        SortRole = Qt::UserRole, // numbers for the time columns, the name otherwise
        ShareRole,               // the pass's time over the total, 0..1
    };

    explicit PassTableModel(QObject* parent = nullptr);

    // Shows the passes of `result` (null: none).
    void setResult(std::shared_ptr<const compiler::CompileResult> result);
    // Milliseconds in all passes.
    double totalMilliseconds() const { return m_total; }
    // The pass on `row`; `row` must be valid.
    const compiler::PassRecord& passAt(int row) const;
    // The row of the pass called `name`, or -1.
    int rowOfPass(const std::string& name) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    // "0.004 ms", "0.42 ms", "12.3 ms", "1.25 s".
    static QString formatMilliseconds(double ms);

  private:
    std::shared_ptr<const compiler::CompileResult> m_result;
    double m_total = 0;
};

} // namespace strata::views::pipeline
