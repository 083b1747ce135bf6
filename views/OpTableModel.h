#pragma once
// One row per op of an imported graph, in topological order: name, type, class, output shapes
// and the op's cost. Read-only; the graph is an immutable snapshot replaced as a whole.

#include "ir/Graph.h"

#include <QAbstractTableModel>
#include <memory>

namespace strata::views {

class OpTableModel : public QAbstractTableModel {
    Q_OBJECT

  public:
    enum Column {
        IndexColumn,
        NameColumn,
        TypeColumn,
        ClassColumn,
        OutputShapesColumn,
        FlopsColumn,
        BytesReadColumn,
        BytesWrittenColumn,
        ParametersColumn,
        ColumnCount
    };

    enum Role {
        // Numbers for numeric columns (so a proxy sorts 9 before 10), lower-case text otherwise.
        SortRole = Qt::UserRole,
        // The op's index in the graph (its OpId), for selection sync with other views.
        OpIndexRole,
        // "name type" of the row's op in every column, so a proxy filtering on this role matches
        // either the name or the type.
        FilterRole,
    };

    explicit OpTableModel(QObject* parent = nullptr);

    // Shows `graph` (may be null: the table becomes empty). Resets the model.
    void setGraph(std::shared_ptr<const ir::Graph> graph);
    const std::shared_ptr<const ir::Graph>& graph() const { return m_graph; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

  private:
    QVariant displayData(const ir::Op& op, int row, int column) const;
    QVariant sortData(const ir::Op& op, int row, int column) const;
    QString toolTip(const ir::Op& op) const;

    std::shared_ptr<const ir::Graph> m_graph;
};

} // namespace strata::views
