#pragma once
// The selection shared between the graph, the schedule table and the Program listing. An op
// selected in the graph highlights its instructions; a block (a cluster in the graph, a row in
// the table) highlights the block's; the listing scrolls to the first. An instruction picked in
// the listing selects its op in the graph, which selects its block's row (ScheduleEditor links
// graph and table). Graph and table settle first (they update each other), so the listing
// follows them once, after the event that changed them.

#include "ir/Graph.h"

#include <QObject>

namespace strata::views::graph {
class GraphView;
}
namespace strata::views::program {
class ProgramView;
}
namespace strata::views::schedule {
class ScheduleTableView;
}

namespace strata::gui {

class ProgramLinker : public QObject {
    Q_OBJECT

  public:
    ProgramLinker(views::graph::GraphView* graph, views::schedule::ScheduleTableView* table,
                  views::program::ProgramView* program, QObject* parent = nullptr);

  public slots:
    // Highlights in the listing what the graph and the table select now (after a compile the
    // new listing needs it again).
    void followSelection();

  private:
    void scheduleFollow();
    void onInstructionSelected(unsigned id);

    views::graph::GraphView* m_graph;
    views::schedule::ScheduleTableView* m_table;
    views::program::ProgramView* m_program;
    bool m_pending = false;
};

} // namespace strata::gui
