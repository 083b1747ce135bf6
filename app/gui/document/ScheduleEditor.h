#pragma once
// Editing the schedule from the graph and the schedule table: the Fuse / Split / Undo / Redo
// actions, context menus on ops (move to a neighbouring block, split here) and blocks (mp,
// buffering, tile), an op dropped on another block, knob edits in the table; and the linked
// selection between the table's rows and the graph's blocks. Every edit goes to the
// ScheduleDocument; this class decides only what the user meant.
//
// The graph and the table take part in the window's Selection: ops or blocks picked in the
// graph (Ctrl+click for several) select their blocks' rows, one row picked selects and centres
// its block in the graph, and both follow what other tabs select. The table's selected rows are
// the blocks the actions work on.

#include "document/Selection.h"
#include "ir/Graph.h"

#include <QObject>
#include <QPoint>
#include <memory>
#include <optional>
#include <vector>

class QAction;
class QMenu;
class QWidget;

namespace strata::views::graph {
class GraphView;
}
namespace strata::views::schedule {
class ScheduleTableModel;
class ScheduleTableView;
} // namespace strata::views::schedule

namespace strata::gui {

class ScheduleDocument;

class ScheduleEditor : public QObject {
    Q_OBJECT

  public:
    // `window` parents the actions (so their shortcuts work window-wide) and the menus.
    ScheduleEditor(ScheduleDocument* document, Selection* selection, views::graph::GraphView* graph,
                   views::schedule::ScheduleTableView* table,
                   views::schedule::ScheduleTableModel* model, QWidget* window);

    QAction* undoAction() const { return m_undo; }
    QAction* redoAction() const { return m_redo; }
    QAction* fuseAction() const { return m_fuse; }
    QAction* splitAction() const { return m_split; }

    // The blocks the actions work on (the table's selected rows), ascending ids.
    std::vector<int> selectedBlocks() const;

    // The context menus, owned by the caller (shown on a right-click in the graph): for an op,
    // "Move to Block" with its neighbouring blocks, "Split Here", Fuse and the knobs of its
    // block; for a block, Fuse and its knobs. Null when there is nothing to edit.
    std::unique_ptr<QMenu> createOpMenu(ir::OpId op);
    std::unique_ptr<QMenu> createBlockMenu(int block);

  public slots:
    // Fuses the selected blocks (Ctrl+F).
    void fuseSelection();
    // Splits the selected op's block at it (Ctrl+Shift+F).
    void splitAtSelection();
    // Selects block `id`'s row and the block in the graph, and centres on it.
    void showBlock(int id);

  private:
    void onGraphSelectionChanged();
    void onTableSelectionChanged();
    void onSnapshotChanged();
    // Graph and table show what another tab selected.
    void followSelection();
    void updateActions();
    // Selects (or only centres on) block `id` in the graph, or the chunk holding it when the
    // graph shows the overview of a big model.
    void showInGraph(int id, bool select);
    void showOpMenu(ir::OpId op, QPoint globalPos);
    void showBlockMenu(int block, QPoint globalPos);
    void addKnobMenus(QMenu& menu, int block);
    QString blockLabel(int id) const;

    ScheduleDocument* m_document;
    Selection* m_selection;
    views::graph::GraphView* m_graph;
    views::schedule::ScheduleTableView* m_table;
    views::schedule::ScheduleTableModel* m_model;
    QWidget* m_window;
    QAction* m_undo = nullptr;
    QAction* m_redo = nullptr;
    QAction* m_fuse = nullptr;
    QAction* m_split = nullptr;
};

} // namespace strata::gui
