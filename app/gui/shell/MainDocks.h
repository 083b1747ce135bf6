#pragma once
// The main window's docks: the schedule table (bottom), the Diagnostics list beside it, and
// the Inspector (right). Built once by the window; showSnapshot() puts each checked revision
// into the table and its check into the Diagnostics list.

#include <memory>

class QDockWidget;
class QMainWindow;
class QSortFilterProxyModel;

namespace strata::views::schedule {
class ScheduleTableModel;
class ScheduleTableView;
} // namespace strata::views::schedule

namespace strata::ir {
struct Graph;
}
namespace strata::views::schedule {
struct ScheduleSnapshot;
}

namespace strata::gui {

class DiagnosticsPanel;
class InspectorDock;
class ScheduleDocument;
class Selection;

struct MainDocks {
    views::schedule::ScheduleTableModel* scheduleModel = nullptr;
    QSortFilterProxyModel* scheduleProxy = nullptr; // sorts the table by its sort role
    views::schedule::ScheduleTableView* scheduleTable = nullptr;
    QDockWidget* scheduleDock = nullptr;
    DiagnosticsPanel* diagnostics = nullptr;
    QDockWidget* diagnosticsDock = nullptr;
    InspectorDock* inspector = nullptr;
    std::shared_ptr<const ir::Graph> fittedFor; // the graph the table's columns were fitted to

    void showSnapshot(const views::schedule::ScheduleSnapshot& snapshot);
};

// Makes the docks and adds them to `window`; the Inspector shows `selection`.
MainDocks buildMainDocks(QMainWindow* window, ScheduleDocument* document, Selection* selection);

} // namespace strata::gui
