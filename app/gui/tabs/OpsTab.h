#pragma once
// The Ops tab: the model's summary beside its op table (sortable, filtered by name or type, with
// a count of the ops shown). Its current row and the graph's selected op follow each other: the
// window hands the graph's selection to selectOp() and opActivated() to the graph.

#include "ir/Graph.h"

#include <QSplitter>
#include <memory>

class QLabel;
class QLineEdit;
class QSortFilterProxyModel;

namespace strata::views {
class ModelSummaryWidget;
class OpTableModel;
class OpTableView;
} // namespace strata::views

namespace strata::gui {

class Selection;

class OpsTab : public QSplitter {
    Q_OBJECT

  public:
    explicit OpsTab(QWidget* parent = nullptr);

    // Shows `graph`, imported from `path`.
    void setGraph(const std::shared_ptr<const ir::Graph>& graph, const QString& path);

    // The current row is the selection's op, and a row made current selects its op.
    void setSelection(Selection* selection);

  public slots:
    // Makes `op` the current row (unless the filter hides it).
    void selectOp(strata::ir::OpId op);

  signals:
    // `op` became the current row.
    void opActivated(strata::ir::OpId op);

  private:
    QWidget* createTablePane();
    void onCurrentChanged();
    void updateFilterCount();

    views::OpTableModel* m_model = nullptr;
    QSortFilterProxyModel* m_proxy = nullptr;
    views::ModelSummaryWidget* m_summary = nullptr;
    views::OpTableView* m_table = nullptr;
    QLineEdit* m_filter = nullptr;
    QLabel* m_filterCount = nullptr;
};

} // namespace strata::gui
