#pragma once
// The Inspector dock: what the window's Selection is. For an op: its type, attributes, inputs
// and outputs (shapes, dtypes, sizes, weights), FLOPs and bytes, then its block; for a block:
// its ops, knobs, tile and grid, SRAM footprint, DRAM traffic, recompute and predicted /
// measured time. The block's mp is edited here through the schedule table's model, so the edit
// is the same undoable one as a table edit.

#include "ir/Graph.h"

#include <QDockWidget>
#include <optional>

class QLabel;
class QSpinBox;
class QWidget;

namespace strata::views::graph {
class GraphView;
}
namespace strata::views::schedule {
class ScheduleTableModel;
}
namespace strata::views::inspector {
class InspectorView;
}

namespace strata::gui {

class ScheduleDocument;
class Selection;

class InspectorDock : public QDockWidget {
    Q_OBJECT

  public:
    InspectorDock(Selection* selection, views::schedule::ScheduleTableModel* model,
                  ScheduleDocument* document, QWidget* parent = nullptr);

    // Shows `op` (and its block); the selection calls these too.
    void showOp(ir::OpId op);
    void showBlock(int block);
    void showNothing();

    views::inspector::InspectorView* view() const { return m_view; }
    // The mp of the block shown; disabled when no block is shown.
    QSpinBox* mpEditor() const { return m_mp; }
    // The block shown (an op's block too), or -1.
    int shownBlock() const { return m_block; }

  private:
    void followSelection();
    void refresh();
    void requestMp();

    Selection* m_selection;
    views::schedule::ScheduleTableModel* m_model;
    ScheduleDocument* m_document;
    views::inspector::InspectorView* m_view = nullptr;
    QLabel* m_title = nullptr;
    QWidget* m_mpRow = nullptr;
    QSpinBox* m_mp = nullptr;
    QLabel* m_mpLimit = nullptr;
    QLabel* m_hint = nullptr;
    std::optional<ir::OpId> m_op;
    int m_block = -1;
};

} // namespace strata::gui
