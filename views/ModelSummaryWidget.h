#pragma once
// The summary page of an imported model: file, size and cost totals, graph inputs and outputs
// with dtype and shape, and how often each op type occurs.

#include "ir/Graph.h"

#include <QWidget>
#include <memory>

class QLabel;
class QTreeWidget;

namespace strata::views {

class ModelSummaryWidget : public QWidget {
    Q_OBJECT

  public:
    explicit ModelSummaryWidget(QWidget* parent = nullptr);

    // Shows `graph`, imported from `filePath`. A null graph clears the widget.
    void setGraph(std::shared_ptr<const ir::Graph> graph, const QString& filePath);
    void clear();

  private:
    void fillValueTable(QTreeWidget* table, const std::vector<ir::ValueId>& ids);
    void fillOpTypes();

    std::shared_ptr<const ir::Graph> m_graph;

    QLabel* m_title = nullptr;
    QLabel* m_file = nullptr;
    QLabel* m_opset = nullptr;
    QLabel* m_nodes = nullptr;
    QLabel* m_parameters = nullptr;
    QLabel* m_flops = nullptr;
    QLabel* m_inputsHeading = nullptr;
    QLabel* m_outputsHeading = nullptr;
    QLabel* m_opTypesHeading = nullptr;
    QTreeWidget* m_inputs = nullptr;
    QTreeWidget* m_outputs = nullptr;
    QTreeWidget* m_opTypes = nullptr;
};

} // namespace strata::views
